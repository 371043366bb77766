"""Preprocessing and augmentation layers inside ``tf.data.Dataset.map``, whatever the current backend.

There they compute with TensorFlow (highlevel.pipeline); deterministic layers give what the same layer gives
eagerly, random layers draw anew for every element and batch (reproducibly from their seed), and the mapped
datasets feed ``fit``.
"""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

tf = pytest.importorskip("tensorflow")

RNG = np.random.default_rng(0)
IMAGES = RNG.random((6, 8, 8, 3)).astype("float32")
WORDS = np.array([["a", "c"], ["d", "b"], ["a", "a"], ["b", "zz"]])
SENTENCES = np.array(["the cat sat", "a cat", "sat sat on the mat", "the"])


def _mapped(dataset, fn):
    """The elements of ``dataset.map(fn)`` as numpy arrays, batches concatenated."""
    return np.concatenate([np.asarray(v) for v in dataset.map(fn)])


def _normalization():
    layer = layers.Normalization()
    layer.adapt(IMAGES)
    return layer


DETERMINISTIC = {
    "Rescaling": (lambda: layers.Rescaling(1 / 255.0, offset=0.5), IMAGES),
    "Normalization": (_normalization, IMAGES),
    "Resizing": (lambda: layers.Resizing(4, 5), IMAGES),
    "AutoContrast": (lambda: layers.AutoContrast(value_range=(0, 1)), IMAGES),
    "CenterCrop": (lambda: layers.CenterCrop(4, 6), IMAGES),
    "Discretization": (lambda: layers.Discretization(bin_boundaries=[0.25, 0.5]), IMAGES[:, 0, :, 0]),
    "CategoryEncoding": (
        lambda: layers.CategoryEncoding(num_tokens=5, output_mode="count"),
        np.array([[0, 1, 1], [4, 3, 0], [2, 2, 2], [1, 0, 4]]),
    ),
    "StringLookup": (lambda: layers.StringLookup(vocabulary=["a", "b", "c"]), WORDS),
    "StringLookup_multi_hot": (lambda: layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="multi_hot"), WORDS),
    "IntegerLookup": (lambda: layers.IntegerLookup(vocabulary=[5, 7, 9]), np.array([[5, 7], [1, 9], [9, 9]])),
    "Hashing": (lambda: layers.Hashing(num_bins=7), WORDS),
    "TextVectorization": (
        lambda: layers.TextVectorization(vocabulary=["the", "cat", "sat"], output_sequence_length=4),
        SENTENCES,
    ),
    # without power_to_db: its top_db floor is relative to the maximum of the whole batch
    "MelSpectrogram": (
        lambda: layers.MelSpectrogram(
            fft_length=32, sequence_stride=16, num_mel_bins=4, sampling_rate=8000, power_to_db=False
        ),
        RNG.normal(size=(4, 128)).astype("float32"),
    ),
}


@pytest.mark.parametrize("name", sorted(DETERMINISTIC))
def test_deterministic_layer_in_tf_data_matches_eager_call(backend, name):
    make, data = DETERMINISTIC[name]
    layer = make()
    eager = hl.ops.convert_to_numpy(layer(data))
    batched = _mapped(tf.data.Dataset.from_tensor_slices(data).batch(2), lambda x: layer(x))
    # The map ran as TensorFlow, inside the pipeline's graph.
    assert batched.dtype == eager.dtype
    np.testing.assert_allclose(batched, eager, rtol=1e-5, atol=1e-6)
    one_by_one = [np.asarray(v) for v in tf.data.Dataset.from_tensor_slices(data).map(lambda x: layer(x))]
    for value, sample in zip(one_by_one, data):
        np.testing.assert_allclose(value, hl.ops.convert_to_numpy(layer(sample)), rtol=1e-5, atol=1e-6)


def test_hashed_crossing_in_tf_data_matches_eager_call(backend):
    a, b = np.array([["x"], ["y"], ["x"]]), np.array([[1], [2], [2]])
    layer = layers.HashedCrossing(num_bins=5)
    ds = tf.data.Dataset.from_tensor_slices((a, b)).batch(2).map(lambda u, v: layer((u, v)))
    np.testing.assert_array_equal(np.concatenate([np.asarray(v) for v in ds]), hl.ops.convert_to_numpy(layer((a, b))))


RANDOM = {
    "RandomFlip": lambda seed: layers.RandomFlip(seed=seed),
    "RandomRotation": lambda seed: layers.RandomRotation(0.3, seed=seed),
    "RandomZoom": lambda seed: layers.RandomZoom(0.4, seed=seed),
    "RandomTranslation": lambda seed: layers.RandomTranslation(0.3, 0.3, seed=seed),
    "RandomContrast": lambda seed: layers.RandomContrast(0.8, seed=seed),
    "RandomBrightness": lambda seed: layers.RandomBrightness(0.3, value_range=(0, 1), seed=seed),
    "Solarization": lambda seed: layers.Solarization(0.5, 0.8, value_range=(0, 1), seed=seed),
    "RandomGrayscale": lambda seed: layers.RandomGrayscale(seed=seed),
    "RandomInvert": lambda seed: layers.RandomInvert(value_range=(0, 1), seed=seed),
    "RandomPosterization": lambda seed: layers.RandomPosterization((1, 8), value_range=(0, 1), seed=seed),
    "RandomSaturation": lambda seed: layers.RandomSaturation(0.9, value_range=(0, 1), seed=seed),
    "RandomColorDegeneration": lambda seed: layers.RandomColorDegeneration(0.9, value_range=(0, 1), seed=seed),
    "RandomSharpness": lambda seed: layers.RandomSharpness(1.0, value_range=(0, 1), seed=seed),
    "RandomHue": lambda seed: layers.RandomHue(0.9, value_range=(0, 1), seed=seed),
    "RandomGaussianBlur": lambda seed: layers.RandomGaussianBlur(value_range=(0, 1), seed=seed),
    "RandomColorJitter": lambda seed: layers.RandomColorJitter(
        value_range=(0, 1), brightness_factor=0.2, contrast_factor=0.3, saturation_factor=0.8, hue_factor=0.5, seed=seed
    ),
}

#: The random layers with a few possible outcomes per image, or (RandomGaussianBlur's kernel width) one draw
#: shared by a batch; the others draw from a continuum for each image.
DISCRETE = {"RandomFlip", "RandomGrayscale", "RandomInvert", "RandomPosterization", "RandomGaussianBlur"}


def _distinct(arrays):
    return len({np.asarray(a).tobytes() for a in arrays})


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_random_layer_in_tf_data_draws_anew_per_element_and_batch(backend, name):
    image = IMAGES[:1]
    same = np.repeat(image, 8, axis=0)
    layer = RANDOM[name](3)
    # One element at a time: eight copies of one image do not all come out the same way (a flip has two outcomes;
    # the other layers draw from a continuum).
    ds = tf.data.Dataset.from_tensor_slices(same).map(lambda x: layer(x))
    first = list(ds.as_numpy_iterator())
    assert _distinct(first) >= (2 if name in DISCRETE else 8), f"{name} drew one transform for all"
    # A second pass over the same dataset draws again (the state lives on). One dataset serves both checks: each
    # map is a trace of the layer into a TensorFlow graph, most of this test's time.
    second = list(ds.as_numpy_iterator())
    assert not all(np.array_equal(u, v) for u, v in zip(first, second))
    # Batches of one image repeated: each image of each batch has its own draw.
    batches = list(tf.data.Dataset.from_tensor_slices(same).batch(4).map(lambda x: layer(x)).as_numpy_iterator())
    assert _distinct(list(np.concatenate(batches))) >= (2 if name in DISCRETE else 8)
    if name not in DISCRETE:
        assert _distinct(batches) == 2


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_random_layer_in_tf_data_is_reproducible_from_its_seed(backend, name):
    def run(seed):
        layer = RANDOM[name](seed)
        return _mapped(tf.data.Dataset.from_tensor_slices(IMAGES).batch(3), lambda x: layer(x))

    first = run(11)
    np.testing.assert_array_equal(first, run(11))
    assert not np.array_equal(first, run(12))


def test_random_layer_in_tf_data_keeps_inference_mode(backend):
    layer = layers.RandomFlip(seed=1)
    out = _mapped(tf.data.Dataset.from_tensor_slices(IMAGES).batch(3), lambda x: layer(x, training=False))
    np.testing.assert_array_equal(out, IMAGES)


def test_sequential_augmentation_in_tf_data(backend):
    augment = hl.Sequential(
        [
            layers.Rescaling(2.0),
            layers.RandomFlip("horizontal", seed=5),
            layers.RandomRotation(0.1, seed=6),
            layers.CenterCrop(6, 6),
        ]
    )
    ds = tf.data.Dataset.from_tensor_slices(np.repeat(IMAGES[:1], 6, axis=0)).batch(3)
    out = _mapped(ds, lambda x: augment(x, training=True))
    assert out.shape == (6, 6, 6, 3)
    assert _distinct(list(out)) >= 4
    # At inference the same model is deterministic and equals its eager call.
    still = _mapped(ds, lambda x: augment(x, training=False))
    np.testing.assert_allclose(
        still, np.repeat(hl.ops.convert_to_numpy(augment(IMAGES[:1], training=False)), 6, 0), rtol=1e-6
    )


def _bright_or_dark(n, seed):
    """Images whose class is their brightness (which flips and rotations keep), in [0, 255]."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, n)
    x = rng.random((n, 6, 6, 1)) * 100 + labels[:, None, None, None] * 120
    return x.astype("float32"), labels.astype("int32")


def test_augmented_dataset_feeds_fit_and_the_model_learns(backend):
    hl.utils.set_random_seed(0)
    x, y = _bright_or_dark(64, 1)
    augment = hl.Sequential(
        [layers.Rescaling(1 / 255.0), layers.RandomFlip(seed=2), layers.RandomContrast(0.2, seed=3)]
    )
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(64, seed=0).batch(16)
    ds = ds.map(lambda a, b: (augment(a, training=True), b))
    model = hl.Sequential([hl.Input((6, 6, 1)), layers.GlobalAveragePooling2D(), layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=hl.optimizers.Adam(0.1), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(ds, epochs=15, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    x_test, y_test = _bright_or_dark(32, 2)
    _, accuracy = model.evaluate(x_test / 255.0, y_test, verbose=0)
    assert accuracy >= 0.9


def test_text_pipeline_in_tf_data_feeds_a_text_model_that_learns(backend):
    hl.utils.set_random_seed(0)
    good, bad = ["good", "great", "fine", "nice"], ["bad", "awful", "poor", "sad"]
    rng = np.random.default_rng(4)
    labels = rng.integers(0, 2, 64)
    texts = np.array([" ".join(rng.choice(good if y else bad, 3)) + " movie" for y in labels])
    vectorize = layers.TextVectorization(output_sequence_length=4)
    vectorize.adapt(texts)
    ds = tf.data.Dataset.from_tensor_slices((texts, labels.astype("float32"))).batch(16)
    ds = ds.map(lambda t, y: (vectorize(t), y))
    model = hl.Sequential(
        [
            hl.Input((4,), dtype="int64"),
            layers.Embedding(vectorize.vocabulary_size(), 4),
            layers.GlobalAveragePooling1D(),
            layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.1), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(ds, epochs=10, verbose=0)
    assert history.history["loss"][-1] < 0.3 * history.history["loss"][0]
    assert history.history["accuracy"][-1] >= 0.95


def test_string_lookup_pipeline_in_tf_data_feeds_a_model_that_learns(backend):
    hl.utils.set_random_seed(0)
    colors = np.array(["red", "blue", "green", "red", "blue", "green"] * 8)
    labels = (colors == "red").astype("float32")
    lookup = layers.StringLookup(vocabulary=["red", "blue", "green"], output_mode="one_hot")
    ds = tf.data.Dataset.from_tensor_slices((colors, labels)).batch(8).map(lambda c, y: (lookup(c), y))
    model = hl.Sequential([hl.Input((4,)), layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=hl.optimizers.Adam(0.2), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(ds, epochs=15, verbose=0)
    assert history.history["accuracy"][-1] == 1.0
    assert history.history["loss"][-1] < 0.3 * history.history["loss"][0]


def test_pipeline_owner_names_the_engine_of_a_traced_tensor(backend):
    from highlevel import pipeline

    assert pipeline.owner_of(np.ones(2)) is None
    assert pipeline.owner_of(hl.ops.ones((2,))) is None
    seen = []
    tf.data.Dataset.from_tensor_slices(np.ones((2, 2))).map(
        lambda x: seen.append(pipeline.owner_of(x, include_current=True)) or x
    )
    assert [b.name for b in seen] == ["tensorflow"]


def test_a_layer_with_weights_in_tf_data_uses_their_values(backend):
    dense = layers.Dense(2, kernel_initializer="glorot_uniform", bias_initializer="ones")
    x = IMAGES[:4, 0, 0, :]
    eager = hl.ops.convert_to_numpy(dense(x))
    np.testing.assert_allclose(
        _mapped(tf.data.Dataset.from_tensor_slices(x).batch(3), lambda v: dense(v)), eager, rtol=1e-5, atol=1e-6
    )
