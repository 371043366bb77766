"""RandomCrop: one random window per batch in training, the centered aspect-ratio window otherwise."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .image_helpers import images, keras_output, to_numpy


def _windows(x, h, w):
    """Every ``(top, left) -> window`` of a channels-last batch."""
    return {(t, l): x[:, t : t + h, l : l + w] for t in range(x.shape[1] - h + 1) for l in range(x.shape[2] - w + 1)}


@pytest.mark.parametrize("training", [False, True])
def test_standard_checks(backend, training):
    run_layer_test(
        layers.RandomCrop,
        {"height": 3, "width": 4, "seed": 1},
        input_shape=(2, 5, 6, 3),
        expected_output_shape=(2, 3, 4, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        call_kwargs={"training": training},
        run_config_check=not training,
        run_training_check=False,
    )


def test_training_crops_one_random_window_per_batch(backend):
    x = images()  # (3, 6, 8, 2)
    layer = layers.RandomCrop(4, 5, seed=3)
    windows = _windows(x, 4, 5)
    seen = set()
    for _ in range(12):
        y = to_numpy(layer(x, training=True))
        assert y.shape == (3, 4, 5, 2) and y.dtype == np.float32
        match = [k for k, v in windows.items() if np.array_equal(v, y)]
        assert len(match) == 1, "the output is not one window of the batch"
        seen.add(match[0])
    assert len(seen) >= 4, f"12 calls drew only the windows {seen}"
    # The same seed gives the same sequence of windows on this backend.
    a, b = layers.RandomCrop(4, 5, seed=9), layers.RandomCrop(4, 5, seed=9)
    for _ in range(3):
        np.testing.assert_array_equal(to_numpy(a(x)), to_numpy(b(x)))


def test_unbatched_and_channels_first(backend):
    x = images()
    single = to_numpy(layers.RandomCrop(4, 5, seed=1)(x[0]))
    assert any(np.array_equal(v[0], single) for v in _windows(x, 4, 5).values())
    xf = images("channels_first")
    yf = to_numpy(layers.RandomCrop(4, 5, seed=1, data_format="channels_first")(xf))
    assert yf.shape == (3, 2, 4, 5)
    assert any(np.array_equal(v, np.transpose(yf, (0, 2, 3, 1))) for v in _windows(x, 4, 5).values())


@pytest.mark.parametrize("size", [(4, 5), (3, 8), (8, 10)])
def test_inference_and_small_images_take_the_centered_window(backend, size):
    # Keras's documented behaviour (its 3.15 layer passes the input through at inference, so its output
    # shape is not the one it declares): the largest centered window of the target's aspect ratio, resized.
    x = images()
    layer = layers.RandomCrop(*size, seed=1)
    center = keras_output("Resizing", {"height": size[0], "width": size[1], "crop_to_aspect_ratio": True}, x)
    np.testing.assert_allclose(to_numpy(layer(x, training=False)), center, rtol=1e-5, atol=1e-4)
    if size != (4, 5):  # not larger than the target in both dimensions: the centered window in training too
        np.testing.assert_allclose(to_numpy(layer(x, training=True)), center, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_transform_images_matches_keras_given_the_same_window(backend, data_format):
    import keras

    x = images(data_format)
    ours = layers.RandomCrop(3, 4, data_format=data_format)
    theirs = keras.layers.RandomCrop(3, 4, data_format=data_format)
    for corner in [(0, 0), (2, 3), (3, 4)]:
        want = keras.ops.convert_to_numpy(theirs.transform_images(x, corner, training=True))
        np.testing.assert_array_equal(to_numpy(ours.transform_images(x, corner)), want)
        # A drawn transformation is such a corner, within the image.
        top, left = (int(to_numpy(v)) for v in ours.get_random_transformation(x, training=True))
        assert 0 <= top <= 3 and 0 <= left <= 4
    assert ours.get_random_transformation(x, training=False) is None


def test_config_and_saved_model_round_trip(backend, tmp_path):
    layer = layers.RandomCrop(3, 4, seed=5, data_format="channels_last", name="crop")
    config = layer.get_config()
    assert {k: config[k] for k in ("height", "width", "seed", "data_format")} == {
        "height": 3,
        "width": 4,
        "seed": 5,
        "data_format": "channels_last",
    }
    assert layers.RandomCrop.from_config(config).get_config() == config
    model = hl.Sequential([hl.Input((6, 8, 2)), layer, layers.Flatten(), layers.Dense(2)])
    path = tmp_path / "crop.keras"
    model.save(str(path))
    loaded = hl.saving.load_model(str(path))
    assert loaded.layers[0].get_config() == config
    x = images()
    np.testing.assert_allclose(to_numpy(loaded.predict(x, verbose=0)), to_numpy(model.predict(x, verbose=0)), atol=1e-6)


def test_in_tf_data_each_batch_draws_a_window(backend):
    tf = pytest.importorskip("tensorflow")
    x = np.repeat(images()[:1], 8, axis=0)
    layer = layers.RandomCrop(4, 5, seed=2)
    out = [np.asarray(v) for v in tf.data.Dataset.from_tensor_slices(x).batch(1).map(lambda t: layer(t))]
    windows = _windows(x[:1], 4, 5)
    found = {next(k for k, v in windows.items() if np.array_equal(v, o)) for o in out}
    assert len(found) >= 3, f"8 batches drew only the windows {found}"


def test_invalid_arguments():
    with pytest.raises(ValueError, match="height"):
        layers.RandomCrop(0, 3)
    with pytest.raises(ValueError, match="seed"):
        layers.RandomCrop(3, 3, seed=-2)
    with pytest.raises(ValueError, match="rank 3"):
        layers.RandomCrop(3, 3)(np.zeros((4, 4), "float32"))
