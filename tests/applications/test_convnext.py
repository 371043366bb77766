"""ConvNeXt against real Keras: outputs with Keras's weights on every backend (Tiny), the structure of the other
variants, the published weight files' names, and its two layers (LayerScale, StochasticDepth)."""

import numpy as np
import pytest

import highlevel as hl

from . import _oracle

pytest.importorskip("keras")
pytest.importorskip("h5py")

CONVNEXT = {
    "model_name": "ConvNeXtTiny",
    "kwargs": {"input_shape": (32, 32, 3), "classes": 5, "classifier_activation": None},
    "describe": [(f"ConvNeXt{v}", {"include_top": False, "input_shape": (32, 32, 3)}) for v in ("Small", "Base")],
}


def _fresh(name):
    """The builder of ``name``, run in a fresh session, as Keras's are in the worker: its unnamed layers
    (the final LayerNormalization, the input Normalization) get the names Keras gives them."""

    def build(**kwargs):
        hl.utils.clear_session()
        return getattr(hl.applications, name)(**kwargs)

    return build


def test_convnext_tiny_matches_keras(backend):
    _oracle.check_family(backend, hl.applications.ConvNeXtTiny, **CONVNEXT)


def test_convnext_variants_have_keras_structure():
    _oracle.check_described(_fresh, **CONVNEXT)


def test_stochastic_depth_drops_whole_samples_while_training(backend):
    from highlevel.applications.convnext import StochasticDepth

    layer = StochasticDepth(0.5)
    x = np.ones((64, 3, 3, 2), "float32")
    out = hl.ops.convert_to_numpy(layer(x, training=True))
    per_sample = out.reshape(64, -1)
    assert set(np.unique(per_sample)) <= {0.0, 2.0}
    assert np.all(per_sample.min(axis=1) == per_sample.max(axis=1))  # a sample is kept or dropped whole
    assert 0 < (per_sample[:, 0] == 0).sum() < 64
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(layer(x, training=False)), x)
    with pytest.raises(ValueError, match="drop_path_rate"):
        StochasticDepth(1.5)


def test_layer_scale_learns_and_round_trips(backend):
    from highlevel.applications.convnext import LayerScale

    layer = LayerScale(1e-6, 3)
    restored = LayerScale.from_config(layer.get_config())
    assert (restored.init_values, restored.projection_dim) == (1e-6, 3)
    out = hl.ops.convert_to_numpy(layer(np.full((2, 3), 4.0, "float32")))
    np.testing.assert_allclose(out, np.full((2, 3), 4e-6), rtol=1e-5)
    assert [tuple(w.shape) for w in layer.trainable_weights] == [(3,)]


def test_imagenet_file_and_checks(monkeypatch):
    from highlevel.applications import weights

    asked = []
    monkeypatch.setattr(weights, "fetch", lambda *a: asked.append(a) or (_ for _ in ()).throw(RuntimeError("x")))
    with pytest.raises(RuntimeError):
        hl.applications.ConvNeXtTiny(include_top=False, input_shape=(64, 64, 3))
    name, url, sha = asked[0]
    assert name == "convnext_tiny_notop.h5"
    assert url == "https://storage.googleapis.com/tensorflow/keras-applications/convnext/" + name
    assert sha.startswith("d547c096")
    with pytest.raises(ValueError, match="name must contain"):
        hl.applications.ConvNeXtTiny(name="mine")
    assert hl.applications.convnext.preprocess_input(3.0) == 3.0
