"""``model.export(format="tf_saved_model")`` on every backend, loaded back with ``tf.saved_model.load`` and as a
``TFSMLayer``: the same predictions as ``model.predict`` for two batch sizes."""

import numpy as np
import pytest

import highlevel as hl

from .models import BATCHES, MODELS, expected, inputs

tf = pytest.importorskip("tensorflow")


@pytest.mark.parametrize("name", sorted(MODELS))
def test_serve_predicts_as_the_model_for_any_batch(backend, name, tmp_path):
    model = MODELS[name]()
    model.export(tmp_path / "sm", verbose=False)
    restored = tf.saved_model.load(str(tmp_path / "sm"))
    for batch in BATCHES:
        args = inputs(name, batch)
        out = restored.serve(*args).numpy()
        assert out.shape[0] == batch
        np.testing.assert_allclose(out, expected(model, args), rtol=1e-4, atol=1e-5)
    # the serving_default signature is the same function
    assert list(restored.signatures) == ["serving_default"]


def test_the_export_comes_back_as_a_tfsm_layer(backend, tmp_path):
    model = MODELS["mlp"]()
    model.export(tmp_path / "sm", verbose=False)
    x = inputs("mlp", 3)[0]
    with hl.config.backend_scope("tensorflow"):
        layer = hl.layers.TFSMLayer(tmp_path / "sm", call_endpoint="serve")
        out = hl.ops.convert_to_numpy(layer(x))
        shapes = sorted(tuple(w.shape) for w in layer.trainable_weights)
        assert shapes == sorted(tuple(w.shape) for w in model.trainable_weights)
    np.testing.assert_allclose(out, model.predict(x, verbose=0), rtol=1e-4, atol=1e-5)


def test_a_given_input_signature_is_used(backend, tmp_path):
    model = MODELS["mlp"]()
    model.export(tmp_path / "sm", verbose=False, input_signature=[hl.InputSpec(shape=(2, 4), dtype="float32")])
    restored = tf.saved_model.load(str(tmp_path / "sm"))
    x = inputs("mlp", 2)[0]
    np.testing.assert_allclose(restored.serve(x).numpy(), model.predict(x, verbose=0), rtol=1e-4, atol=1e-5)
    with pytest.raises((ValueError, TypeError)):
        restored.serve(inputs("mlp", 3)[0])  # the batch size was fixed to 2


def test_verbose_prints_where_it_went(backend, tmp_path, capsys):
    MODELS["mlp"]().export(tmp_path / "sm")
    assert str(tmp_path / "sm") in capsys.readouterr().out


def test_unknown_writer_options_are_refused(backend, tmp_path):
    with pytest.raises(ValueError, match=r"Unknown options for a SavedModel.*\['colour'\]"):
        MODELS["mlp"]().export(tmp_path / "sm", verbose=False, colour="blue")
