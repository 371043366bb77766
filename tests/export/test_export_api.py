"""The export front door: format names, clear errors, and ``hl.export.ExportArchive`` with several endpoints and
variable collections."""

import numpy as np
import pytest

import highlevel as hl

from .models import ENGINES, MODELS, WRITERS, inputs, others, writers


def test_the_tests_table_of_writers_is_the_engines_own(backend):
    # The engine-specific tests below run where WRITERS says; this keeps the table true.
    name = hl.backend.backend()
    assert name in ENGINES
    formats = hl.config.current_backend().export_formats
    assert {f for f, engines in WRITERS.items() if name in engines} == set(formats) - {"onnx"}


def test_an_unknown_format_is_refused_with_the_known_ones(backend, tmp_path):
    with pytest.raises(ValueError, match=r"Unknown export format 'keras_h5'.*'tf_saved_model'.*'torch'"):
        MODELS["mlp"]().export(tmp_path / "m", format="keras_h5")


def test_an_unbuilt_model_is_refused(backend, tmp_path):
    model = hl.Sequential([hl.layers.Dense(2)])
    with pytest.raises(ValueError, match="has not been built yet.*input_signature"):
        model.export(tmp_path / "m")


def test_a_bad_input_signature_says_what_it_got(backend, tmp_path):
    with pytest.raises(ValueError, match=r"input_signature: .*received 'x' of type str.*InputSpec"):
        MODELS["mlp"]().export(tmp_path / "m", input_signature=["x"])


class _Doubler(hl.Model):
    """A subclassed model that is not registered: it cannot be rebuilt from its config on another engine."""

    def __init__(self):
        super().__init__()
        self.dense = hl.layers.Dense(2)

    def call(self, x):
        return self.dense(x) * 2.0


@pytest.mark.backends(*others("tf_saved_model"))
def test_a_model_that_cannot_move_to_a_savedmodel_engine_gets_a_clear_error(backend, tmp_path):
    model = _Doubler()
    model(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match=r"rebuilt on the '\w+' backend from its config and weights.*register"):
        model.export(tmp_path / "m", verbose=False)


@pytest.mark.backends(*writers("tf_saved_model"))
def test_a_subclassed_model_exports_on_an_engine_that_writes_savedmodels(backend, tmp_path):
    import tensorflow as tf

    model = _Doubler()
    model(np.ones((2, 3), "float32"))
    model.export(tmp_path / "m", verbose=False)
    x = np.arange(12, dtype="float32").reshape(4, 3)
    restored = tf.saved_model.load(str(tmp_path / "m"))
    np.testing.assert_allclose(restored.serve(x).numpy(), model.predict(x, verbose=0), rtol=1e-5, atol=1e-5)


def test_archive_endpoints_and_variable_collections(backend, tmp_path):
    tf = pytest.importorskip("tensorflow")
    if "tf_saved_model" not in hl.config.current_backend().export_formats:
        with pytest.raises(ValueError, match=r"cannot be written on the '\w+' backend.*'tensorflow'"):
            archive = hl.export.ExportArchive()
            archive.track(MODELS["mlp"]())
            archive.add_endpoint("serve", lambda x: x, [hl.InputSpec(shape=(None, 4))])
            archive.write_out(tmp_path / "m")
        return
    model = MODELS["mlp"]()
    archive = hl.export.ExportArchive()
    archive.track(model)
    spec = [hl.InputSpec(shape=(None, 4), dtype="float32")]
    archive.add_endpoint("serve", lambda x: model(x, training=False), spec)
    archive.add_endpoint("scores", lambda x: hl.ops.softmax(model(x, training=False)), spec)
    archive.add_variable_collection("kernels", [model.layers[0].kernel, model.layers[-1].kernel])
    assert archive.endpoint_names == ["serve", "scores"]
    # two Dense layers, BatchNormalization's gamma, beta and statistics, and Dropout's seed state
    assert len(archive.variables) == 9 and len(archive.trainable_variables) == 6
    archive.write_out(tmp_path / "m", verbose=False)

    restored = tf.saved_model.load(str(tmp_path / "m"))
    x = inputs("mlp", 3)[0]
    logits = model.predict(x, verbose=0)
    np.testing.assert_allclose(restored.serve(x).numpy(), logits, rtol=1e-4, atol=1e-5)
    probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    np.testing.assert_allclose(restored.scores(x).numpy(), probs, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(restored.kernels[1].numpy(), hl.ops.convert_to_numpy(model.layers[-1].kernel))
    assert len(restored.variables) == 9 and len(restored.trainable_variables) == 6
    moving = sorted(v.numpy().sum() for v in restored.non_trainable_variables if tuple(v.shape) == (8,))
    np.testing.assert_allclose(moving, [3.6, 10.0], rtol=1e-5)  # the BatchNormalization statistics


def test_archive_argument_errors(backend):
    archive = hl.export.ExportArchive()
    with pytest.raises(ValueError, match="takes a layer or a model.*received 3"):
        archive.track(3)
    with pytest.raises(ValueError, match="not built yet"):
        archive.track(hl.layers.Dense(2))
    with pytest.raises(ValueError, match="needs input_signature="):
        archive.add_endpoint("serve", lambda x: x)
    archive.add_endpoint("serve", lambda x: x, [hl.InputSpec(shape=(None, 2))])
    with pytest.raises(ValueError, match="'serve' exists already"):
        archive.add_endpoint("serve", lambda x: x, [hl.InputSpec(shape=(None, 2))])
    with pytest.raises(ValueError, match="must be a Python identifier"):
        archive.add_endpoint("my endpoint", lambda x: x, [hl.InputSpec(shape=(None, 2))])
    with pytest.raises(ValueError, match="takes hl.Variable objects.*received 1.0"):
        archive.add_variable_collection("c", [1.0])
    with pytest.raises(ValueError, match="add at least one endpoint"):
        hl.export.ExportArchive().write_out("unused")
