"""The key promise: one seed gives bitwise-identical initial values on every backend, in one process."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import initializers as I

from ..conftest import selected_backends

MAKERS = [
    lambda: I.RandomNormal(0.1, 0.3, seed=17),
    lambda: I.RandomUniform(-0.7, 0.2, seed=17),
    lambda: I.TruncatedNormal(0.0, 1.0, seed=17),
    lambda: I.GlorotUniform(seed=17),
    lambda: I.GlorotNormal(seed=17),
    lambda: I.HeUniform(seed=17),
    lambda: I.HeNormal(seed=17),
    lambda: I.LecunUniform(seed=17),
    lambda: I.LecunNormal(seed=17),
    lambda: I.VarianceScaling(0.5, "fan_out", "untruncated_normal", seed=17),
    lambda: I.Orthogonal(1.3, seed=17),
    lambda: I.Identity(0.5),
    lambda: I.Constant(0.1),
]


def _bits(t):
    a = np.asarray(hl.ops.convert_to_numpy(t))
    # Compare raw bits (exact, and NaN-safe); bfloat16 arrays may come back in ml_dtypes' type.
    return a.view(f"uint{a.dtype.itemsize * 8}")


def _backends():
    names = [n for n in selected_backends() if n in hl.backends.installed()]
    if len(names) < 2:
        pytest.skip("needs at least two installed backends")
    return names


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("make", MAKERS, ids=lambda m: type(m()).__name__)
def test_same_seed_same_bits_on_every_backend(make, dtype):
    results = {}
    for name in _backends():
        with hl.config.backend_scope(name):
            t = make()((6, 5, 4) if isinstance(make(), I.Orthogonal) else (7, 9), dtype)
            assert hl.ops.dtype(t) == dtype
            results[name] = _bits(t)
    first, ref = next(iter(results.items()))
    for name, bits in results.items():
        np.testing.assert_array_equal(bits, ref, err_msg=f"{name} differs from {first}")


def test_global_stream_same_bits_on_every_backend():
    results = {}
    for name in _backends():
        hl.utils.set_random_seed(99)
        with hl.config.backend_scope(name):
            init = I.GlorotUniform()
            results[name] = (_bits(init((4, 4))), _bits(init((4, 4))))
    ref = next(iter(results.values()))
    for name, (a, b) in results.items():
        np.testing.assert_array_equal(a, ref[0], err_msg=name)
        np.testing.assert_array_equal(b, ref[1], err_msg=name)
        assert not np.array_equal(a, b)
