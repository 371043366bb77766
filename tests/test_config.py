"""Backend selection: the environment variable, set_backend, the scoped switch and the error messages."""

import os
import subprocess
import sys
import textwrap

import pytest

import highlevel as hl
from highlevel.backends import registry

from .conftest import ALL_BACKENDS


def run_python(code, **env):
    full_env = dict(os.environ)
    full_env.pop("HIGHLEVEL_BACKEND", None)
    full_env.update(env)
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=full_env, timeout=300
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_default_backend_is_native_and_imports_no_framework():
    code = """
        import sys
        import highlevel as hl
        x = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
        y = hl.ops.softmax(hl.ops.matmul(x, x))
        v, g = hl.ops.value_and_grad(lambda a: hl.ops.sum(hl.ops.tanh(a)))(x)
        hl.random.normal((3,), seed=1)
        hl.utils.set_random_seed(0)
        print(hl.config.backend())
        print(sorted(m for m in ("jax", "jaxlib", "torch", "tensorflow", "cupy") if m in sys.modules))
    """
    assert run_python(code).splitlines() == ["native", "[]"]


@pytest.mark.parametrize("name", ALL_BACKENDS)
def test_environment_variable_picks_backend(name):
    code = """
        import highlevel as hl
        print(hl.config.backend(), hl.ops.dtype(hl.ops.add(1.0, 2.0)))
    """
    assert run_python(code, HIGHLEVEL_BACKEND=name) == f"{name} float32"


def test_unknown_backend_in_environment_names_installed_ones():
    code = """
        import highlevel as hl
        try:
            hl.ops.add(1, 2)
        except ValueError as e:
            print(e)
    """
    msg = run_python(code, HIGHLEVEL_BACKEND="mxnet")
    assert "Unknown backend 'mxnet'" in msg and "native" in msg and "HIGHLEVEL_BACKEND" in msg


@pytest.mark.parametrize(
    "alias, name", [("tf", "tensorflow"), ("pytorch", "torch"), ("np", "native"), ("numpy", "native"), (" JAX ", "jax")]
)
def test_set_backend_accepts_aliases_and_any_case(alias, name):
    if name not in hl.backends.installed():
        pytest.skip(f"{name} is not installed")
    before = hl.config.backend()
    try:
        hl.config.set_backend(alias)
        assert hl.config.backend() == name
        with hl.config.backend_scope(alias):
            assert hl.config.backend() == name
    finally:
        hl.config.set_backend(before)


def test_environment_variable_takes_an_alias():
    code = """
        import highlevel as hl
        print(hl.config.backend())
    """
    assert run_python(code, HIGHLEVEL_BACKEND="NP") == "native"


@pytest.mark.parametrize(
    "typo, meant", [("tensorflw", "tensorflow"), ("pytroch", "torch"), ("jaxx", "jax"), ("nativ", "native")]
)
def test_a_typo_gets_the_closest_name_suggested(typo, meant):
    with pytest.raises(ValueError, match=rf"Unknown backend '{typo}'\. Did you mean '{meant}'\?") as err:
        hl.config.set_backend(typo)
    assert "Installed backends" in str(err.value) and "'tf'" in str(err.value)  # the names and the aliases


def test_a_name_far_from_every_backend_gets_no_suggestion():
    with pytest.raises(ValueError, match="Unknown backend 'mxnet'") as err:
        hl.config.set_backend("mxnet")
    assert "Did you mean" not in str(err.value)


def test_a_backend_name_must_be_a_string():
    with pytest.raises(TypeError, match=r"received 3 of type int"):
        hl.config.set_backend(3)


def test_uninstalled_backend_names_the_pip_extra(monkeypatch):
    real = registry.importlib.util.find_spec
    monkeypatch.setattr(
        registry.importlib.util, "find_spec", lambda name, *a: None if name == "jax" else real(name, *a)
    )
    monkeypatch.setitem(registry._instances, "jax", None)
    registry._instances.pop("jax")
    with pytest.raises(ValueError, match=r'pip install -e "\.\[jax\]" \(in a checkout of highlevel\)') as err:
        registry.get("jax")
    assert "jax" not in registry.installed()
    assert "native" in str(err.value)


def test_set_backend_and_scope_restore():
    before = hl.config.backend()
    with hl.config.backend_scope("native"):
        assert hl.config.backend() == "native"
        with hl.config.backend_scope("torch"):
            assert hl.config.backend() == "torch"
            assert hl.ops.is_tensor(hl.ops.ones((2,)))
        assert hl.config.backend() == "native"
    assert hl.config.backend() == before
    try:
        hl.config.set_backend(backend="jax")  # Keras's argument name
        assert hl.config.backend() == "jax"
        with pytest.raises(ValueError, match="Unknown backend"):
            hl.config.set_backend("nope")
        assert hl.config.backend() == "jax"
    finally:
        hl.config.set_backend(before)


def test_scoped_switch_runs_one_computation_on_every_backend():
    import numpy as np

    results = {}
    for name in ALL_BACKENDS:
        with hl.config.backend_scope(name):
            x = hl.ops.convert_to_tensor(np.array([[0.5, -1.0], [2.0, 0.25]], "float32"))
            results[name] = hl.ops.convert_to_numpy(hl.ops.tanh(hl.ops.matmul(x, x)))
    for name in ALL_BACKENDS:
        np.testing.assert_allclose(results[name], results["native"], rtol=1e-6, atol=1e-7)


def test_floatx_round_trip():
    assert hl.config.floatx() == "float32"
    try:
        hl.config.set_floatx(value="float64")  # Keras's argument name
        assert hl.ops.dtype(hl.ops.ones((1,))) == "float64"
        hl.backend.set_floatx(value="float16")
        assert hl.ops.dtype(hl.ops.ones((1,))) == "float16" and hl.config.floatx() == "float16"
        with pytest.raises(ValueError, match="floatx must be one of"):
            hl.config.set_floatx("int32")
    finally:
        hl.config.set_floatx("float32")


def test_max_epochs_and_steps_cap_every_fit(backend):
    import numpy as np

    x = np.random.default_rng(0).normal(size=(64, 3)).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    try:
        hl.config.set_max_epochs(2)
        hl.config.set_max_steps_per_epoch(3)
        history = model.fit(x, y, batch_size=8, epochs=10, verbose=0)
        assert len(history.history["loss"]) == 2
        assert int(model.optimizer.iterations.numpy()) == 6  # 2 epochs of 3 steps, not 10 of 8
    finally:
        hl.config.set_max_epochs(None)
        hl.config.set_max_steps_per_epoch(None)
    with pytest.raises(ValueError, match="positive integer"):
        hl.config.set_max_epochs(0)
    history = model.fit(x, y, batch_size=8, epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3


def test_image_data_format_is_the_default_of_every_op(backend):
    import numpy as np

    x = np.arange(2 * 3 * 4 * 4, dtype="float32").reshape(2, 3, 4, 4)  # channels first
    try:
        hl.config.set_image_data_format("channels_first")
        out = hl.ops.max_pool(x, 2)
        assert tuple(out.shape) == (2, 3, 2, 2)
    finally:
        hl.config.set_image_data_format("channels_last")
    assert tuple(hl.ops.max_pool(x, 2).shape) == (2, 1, 2, 4)  # channels last: (4, 4) pooled over (3, 4)
    with pytest.raises(ValueError, match="channels_last"):
        hl.config.set_image_data_format("NHWC")
