"""Save on every backend, load on every backend (16 pairs) for a Sequential, a functional and a registered
subclassed model."""

import numpy as np
import pytest

import highlevel as hl
import highlevel.saving  # noqa: F401
from highlevel.backends.contract.interop import front_class
from highlevel.saving.weights_io import model_variables
from tests.conftest import selected_backends

from .helpers import SubclassedModel, build, data, numpy_vars, outputs

_SAVED = {}


def _saved(src, kind, folder):
    key = (src, kind)
    if key not in _SAVED:
        with hl.config.backend_scope(src):
            model = build(kind, run_eagerly=True)  # compiled steps are tested elsewhere; eager is fast
            x, y = data(kind)
            model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
            path = folder / f"{src}-{kind}.hl.zip"
            model.save(path)
            _SAVED[key] = (
                path,
                outputs(model, x),
                numpy_vars(model.optimizer.variables),
                numpy_vars(model_variables(model)),
            )
    return _SAVED[key]


@pytest.mark.parametrize("kind", ["sequential", "functional", "subclassed"])
@pytest.mark.parametrize("dst", selected_backends())
@pytest.mark.parametrize("src", selected_backends())
def test_every_backend_to_every_backend(src, dst, kind, tmp_path_factory):
    for name in (src, dst):
        if name not in hl.backends.installed():
            pytest.skip(f"backend {name!r} is not installed")
    path, expected, optimizer_state, weights = _saved(src, kind, tmp_path_factory.getbasetemp())
    with hl.config.backend_scope(dst):
        loaded = hl.saving.load_model(path)
        if kind == "subclassed":  # rebuilt through its own from_config, sub-layers and all
            assert front_class(type(loaded)) is SubclassedModel
            assert (loaded.hidden_units, loaded.output_units) == (5, 2)
            assert [layer.name for layer in loaded.layers] == ["hidden", "norm", "head"]
        got_weights = numpy_vars(model_variables(loaded))  # trainable and non-trainable (moving statistics)
        assert len(got_weights) == len(weights)
        for a, b in zip(weights, got_weights):
            np.testing.assert_array_equal(b, a)
        x, _ = data(kind)
        for a, b in zip(expected, outputs(loaded, x)):
            np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)
        got = numpy_vars(loaded.optimizer.variables)
        assert len(got) == len(optimizer_state)
        for a, b in zip(optimizer_state, got):
            np.testing.assert_array_equal(b, a)
