"""``hl.Input(dtype="string")`` in functional models: text stays on the host for the text layers, and fit,
predict, summary and saving take string data on every engine."""

import numpy as np
import pytest

import highlevel as hl

POSITIVE = ["good", "great", "nice", "fine"]
NEGATIVE = ["bad", "awful", "poor", "ugly"]


def _corpus(n=48, seed=0):
    rng = np.random.default_rng(seed)
    texts, labels = [], []
    for i in range(n):
        label = i % 2
        word = (POSITIVE if label else NEGATIVE)[rng.integers(4)]
        filler = ["the film was", "this movie is", "a plot that felt"][rng.integers(3)]
        texts.append(f"{filler} {word} overall")
        labels.append(label)
    return np.array(texts), np.array(labels, dtype="float32")


def _classifier(texts, shape=(1,)):
    vectorize = hl.layers.TextVectorization(max_tokens=40, output_mode="int", output_sequence_length=6)
    vectorize.adapt(texts)
    inputs = hl.Input(shape=shape, dtype="string", name="text")
    x = vectorize(inputs)
    x = hl.layers.Embedding(40, 8)(x)
    x = hl.layers.GlobalAveragePooling1D()(x)
    outputs = hl.layers.Dense(1, activation="sigmoid")(x)
    model = hl.Model(inputs, outputs)
    model.compile(hl.optimizers.Adam(0.05), "binary_crossentropy", metrics=["accuracy"])
    return model


def test_string_input_is_a_string_keras_tensor():
    x = hl.Input(shape=(1,), dtype="string")
    assert x.dtype == "string" and x.shape == (None, 1)
    assert hl.Input(shape=(), dtype=str).dtype == "string"


def test_text_classifier_learns_predicts_and_round_trips(backend, tmp_path):
    hl.utils.set_random_seed(1)
    texts, labels = _corpus()
    model = _classifier(texts)
    history = model.fit(texts, labels, epochs=15, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    assert history.history["accuracy"][-1] > 0.95
    unseen = ["a plot that felt great overall", "the film was awful overall", "this movie is nice overall"]
    pred = model.predict(unseen, verbose=0)  # a Python list of sentences
    assert pred.shape == (3, 1)
    np.testing.assert_array_equal(pred[:, 0] > 0.5, [True, False, True])
    for name in ("m.keras", "m.hl.zip"):
        model.save(tmp_path / name)
        loaded = hl.models.load_model(tmp_path / name)
        assert loaded.inputs[0].dtype == "string"
        np.testing.assert_allclose(loaded.predict(unseen, verbose=0), pred, rtol=1e-5, atol=1e-6)
    assert model.evaluate(texts, labels, verbose=0, return_dict=True)["accuracy"] > 0.95


def test_scalar_string_input_and_direct_call(backend):
    texts, _ = _corpus(8)
    model = _classifier(texts, shape=())
    out = hl.ops.convert_to_numpy(model(texts[:3]))
    assert out.shape == (3, 1)
    np.testing.assert_allclose(model.predict(list(texts[:3]), verbose=0), out, rtol=1e-5, atol=1e-6)


def test_summary_shows_the_string_input(backend):
    texts, _ = _corpus(8)
    model = _classifier(texts)
    lines = []
    model.summary(print_fn=lines.append)
    assert "text_vectorization" in "\n".join(lines)


def test_string_tensor_into_a_numeric_layer_is_refused():
    inputs = hl.Input(shape=(1,), dtype="string", name="words")
    with pytest.raises(
        TypeError, match=r"Layer 'to_numbers' \(Dense\) received a string tensor \('words'.*TextVectorization"
    ):
        hl.layers.Dense(2, name="to_numbers")(inputs)
    with pytest.raises(TypeError, match="received text.*accepts_text = True"):
        hl.layers.Dense(2)(np.array([["a sentence"]]))


def test_numbers_for_a_string_input_are_refused(backend):
    texts, _ = _corpus(8)
    model = _classifier(texts)
    with pytest.raises(TypeError, match="dtype 'string'.*Pass strings"):
        model(np.zeros((2, 1), "float32"))


def test_tensorflow_string_tensors_enter_the_graph():
    tf = pytest.importorskip("tensorflow")
    texts, _ = _corpus(8)
    with hl.config.backend_scope("tensorflow"):
        model = _classifier(texts)
        expected = model.predict(texts[:3], verbose=0)
        np.testing.assert_allclose(model.predict(tf.constant(texts[:3]), verbose=0), expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(hl.ops.convert_to_numpy(model(tf.constant(texts[:3, None]))), expected, rtol=1e-5)
        with pytest.raises(TypeError, match="received a string tensor"):
            hl.layers.Dense(2)(tf.constant([["a sentence"]]))


def test_sequential_with_a_string_input_learns_and_round_trips(backend, tmp_path):
    hl.utils.set_random_seed(2)
    texts, labels = _corpus(32, seed=3)
    vectorize = hl.layers.TextVectorization(max_tokens=40, output_sequence_length=6)
    vectorize.adapt(texts)
    model = hl.Sequential(
        [
            hl.Input(shape=(1,), dtype="string"),
            vectorize,
            hl.layers.Embedding(40, 8),
            hl.layers.GlobalAveragePooling1D(),
            hl.layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(hl.optimizers.Adam(0.05), "binary_crossentropy", metrics=["accuracy"])
    history = model.fit(texts, labels, epochs=15, batch_size=8, verbose=0)
    assert history.history["accuracy"][-1] > 0.95
    unseen = ["the film was great overall", "this movie is poor overall"]
    pred = model.predict(unseen, verbose=0)
    np.testing.assert_array_equal(pred[:, 0] > 0.5, [True, False])
    model.save(tmp_path / "seq.hl.zip")
    np.testing.assert_allclose(
        hl.models.load_model(tmp_path / "seq.hl.zip").predict(unseen, verbose=0), pred, rtol=1e-5, atol=1e-6
    )


def test_string_batches_from_tf_data_and_validation_split(backend):
    tf = pytest.importorskip("tensorflow")
    hl.utils.set_random_seed(4)
    texts, labels = _corpus(32, seed=5)
    model = _classifier(texts)
    history = model.fit(texts, labels, epochs=8, batch_size=8, validation_split=0.25, verbose=0)
    assert history.history["val_accuracy"][-1] > 0.95
    dataset = tf.data.Dataset.from_tensor_slices((texts, labels)).batch(8)  # object arrays of bytes per batch
    assert model.evaluate(dataset, verbose=0, return_dict=True)["accuracy"] > 0.95
    from_dataset = model.predict(tf.data.Dataset.from_tensor_slices(texts).batch(8), verbose=0)
    np.testing.assert_allclose(from_dataset, model.predict(texts, verbose=0), rtol=1e-5, atol=1e-6)


def test_real_keras_opens_the_text_model_and_predicts_the_same(tmp_path):
    pytest.importorskip("keras")
    pytest.importorskip("tensorflow")
    import os
    import subprocess
    import sys

    hl.utils.set_random_seed(6)
    texts, labels = _corpus(16, seed=7)
    model = _classifier(texts)
    model.fit(texts, labels, epochs=3, batch_size=8, verbose=0)
    probe = ["the film was great overall", "this movie is ugly overall"]
    np.save(tmp_path / "ours.npy", model.predict(probe, verbose=0))
    model.save(tmp_path / "text.keras")
    # Keras picks its engine at import: its half runs in a process of its own. It takes tf.string tensors (its
    # predict refuses numpy string arrays).
    script = (
        "import sys, numpy as np, keras, tensorflow as tf\n"
        "m = keras.saving.load_model(sys.argv[1])\n"
        f"np.save(sys.argv[2], m.predict(tf.constant({probe!r}), verbose=0))\n"
    )
    env = dict(os.environ, KERAS_BACKEND="tensorflow")
    run = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "text.keras"), str(tmp_path / "keras.npy")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    np.testing.assert_allclose(np.load(tmp_path / "keras.npy"), np.load(tmp_path / "ours.npy"), rtol=1e-5, atol=1e-6)
