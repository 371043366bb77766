"""RandomElasticTransform: a smooth random deformation of a random subset of the images in training.

The noise field is each engine's own draw, so the deformation is compared with Keras 3 only where it is
deterministic (no deformation at all); the random part is checked for its effect and its statistics.
"""

import keras
import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .categorical_oracle import save_and_load
from .image_helpers import to_numpy

#: Sixteen 16x16 RGB images in [0, 255).
X = (np.random.default_rng(7).random((16, 16, 16, 3)) * 255).astype("float32")


def _changed(y, x):
    """Which images of the batch differ from the input."""
    return np.abs(y - x).reshape(len(x), -1).max(axis=1) > 1e-4


@pytest.mark.parametrize("training", [False, True])
def test_standard_checks(backend, training):
    run_layer_test(
        layers.RandomElasticTransform,
        {"seed": 1},
        input_shape=(2, 8, 8, 3),
        expected_output_shape=(2, 8, 8, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        call_kwargs={"training": training},
        run_config_check=not training,
        run_training_check=False,
    )


def test_inference_and_zero_strength_are_the_identity_as_in_keras(backend):
    for kwargs, training in [({}, False), ({"scale": 0.0}, True), ({"factor": 0.0}, True)]:
        got = to_numpy(layers.RandomElasticTransform(seed=2, **kwargs)(X, training=training))
        want = keras.ops.convert_to_numpy(keras.layers.RandomElasticTransform(seed=2, **kwargs)(X, training=training))
        np.testing.assert_array_equal(got, X)
        np.testing.assert_array_equal(got, want)


def test_a_given_transformation_that_deforms_nothing_only_clips(backend):
    layer = layers.RandomElasticTransform(value_range=(0, 200), seed=3)
    transformation = {"apply_transform": np.zeros(4, bool), "distortion_factor": 1.0, "seed": 5}
    y = to_numpy(layer.transform_images(hl.ops.convert_to_tensor(X[:4]), transformation))
    np.testing.assert_allclose(y, np.clip(X[:4], 0, 200))


def test_every_image_deformed_by_a_plausible_amount(backend):
    layer = layers.RandomElasticTransform(factor=(1.0, 1.0), scale=(1.0, 1.0), value_range=(0, 255), seed=4)
    y = to_numpy(layer(X, training=True))
    assert y.shape == X.shape and y.dtype == np.float32
    assert np.all(_changed(y, X))
    # On 16x16 images the field moves pixels by about a pixel: clearly changed, far from noise.
    mean_change = np.abs(y - X).mean()
    assert 5.0 < mean_change < 100.0, mean_change
    assert y.min() >= 0.0 and y.max() <= 255.0
    # A smooth image moves little: its pixels read neighbours of nearly the same value.
    ramp = np.broadcast_to(np.arange(16, dtype="float32")[None, :, None, None] * 16.0, (4, 16, 16, 1)).copy()
    moved = to_numpy(layer(ramp, training=True))
    assert 0.0 < np.abs(moved - ramp).mean() < 40.0


def test_the_share_of_deformed_images_follows_factor(backend):
    x = np.repeat(X[:1], 64, axis=0)
    y = to_numpy(layers.RandomElasticTransform(factor=(0.5, 0.5), seed=5)(x, training=True))
    share = _changed(y, x).mean()
    assert 0.25 <= share <= 0.75, share


def test_seeded_draws_repeat_and_calls_draw_anew(backend):
    first_layer = layers.RandomElasticTransform(factor=(1.0, 1.0), seed=6)
    first = to_numpy(first_layer(X[:4], training=True))
    np.testing.assert_array_equal(first, to_numpy(layers.RandomElasticTransform(factor=(1.0, 1.0), seed=6)(X[:4])))
    assert not np.array_equal(first, to_numpy(first_layer(X[:4], training=True)))
    single = to_numpy(layers.RandomElasticTransform(factor=(1.0, 1.0), seed=6)(X[0]))
    assert single.shape == X[0].shape and _changed(single[None], X[:1]).all()


def test_channels_first(backend):
    x = np.transpose(X[:2], (0, 3, 1, 2))
    layer = layers.RandomElasticTransform(factor=(1.0, 1.0), data_format="channels_first", seed=7)
    y = to_numpy(layer(x, training=True))
    assert y.shape == x.shape and np.all(_changed(y, x))


def test_in_tf_data_map_with_a_fixed_strength(backend):
    tf = pytest.importorskip("tensorflow")
    x = np.repeat(X[:1], 6, axis=0)
    layer = layers.RandomElasticTransform(factor=(1.0, 1.0), scale=(0.5, 0.5), seed=10)
    out = np.concatenate([np.asarray(v) for v in tf.data.Dataset.from_tensor_slices(x).batch(4).map(layer)])
    assert out.shape == x.shape and np.all(_changed(out, x))
    assert len({o.tobytes() for o in out}) == 6
    # A range of strengths is traced too (the drawn strength is a tensor).
    ranged = layers.RandomElasticTransform(factor=(1.0, 1.0), seed=10)
    out = np.concatenate([np.asarray(v) for v in tf.data.Dataset.from_tensor_slices(x).batch(4).map(ranged)])
    assert out.shape == x.shape and np.all(_changed(out, x))


class _AugmentingModel(hl.Model):
    """Deforms its input in every call (training or not), then a small regression head."""

    def __init__(self):
        super().__init__()
        self.augment = layers.RandomElasticTransform(factor=(1.0, 1.0), scale=(0.2, 0.8), seed=3)
        self.flatten = layers.Flatten()
        self.head = layers.Dense(1, kernel_initializer="zeros")

    def call(self, x, training=None):
        return self.head(self.flatten(self.augment(x, training=True) / 255.0))


class _Deformer(hl.Model):
    """Only the deformation, applied in every call (so also in the compiled predict step)."""

    def __init__(self, augment):
        super().__init__()
        self.augment = augment

    def call(self, x, training=None):
        return self.augment(x, training=True)


@pytest.mark.backends("jax", "tensorflow")
def test_a_range_of_strengths_runs_in_compiled_steps(backend):
    x = X[:8]
    y = x.mean(axis=(1, 2, 3), keepdims=False)[:, None] / 255.0
    model = _AugmentingModel()
    model.compile(optimizer=hl.optimizers.SGD(0.002), loss="mse", jit_compile=True)
    start = model.evaluate(x, y, verbose=0)
    model.fit(x, y, batch_size=4, epochs=10, verbose=0)
    assert model.evaluate(x, y, verbose=0) < 0.5 * start
    # the compiled predict step deforms every image by a strength drawn in the step
    deformer = _Deformer(model.augment)
    deformer.compile(jit_compile=True)
    out = deformer.predict(x, batch_size=4, verbose=0)
    assert np.all(_changed(out, x))
    assert float(np.abs(out - x).mean()) > 1.0


def test_dict_inputs_keep_labels_and_refuse_boxes_and_masks(backend):
    x = X[:3]
    labels = np.arange(3, dtype="float32")
    out = layers.RandomElasticTransform(seed=11)({"images": x, "labels": labels}, training=True)
    assert sorted(out) == ["images", "labels"]
    np.testing.assert_array_equal(to_numpy(out["labels"]), labels)
    assert to_numpy(out["images"]).shape == x.shape
    with pytest.raises(NotImplementedError, match="segmentation_masks"):
        layers.RandomElasticTransform(seed=11)({"images": x, "segmentation_masks": x[..., :1]}, training=True)


def test_config_and_saved_model_round_trip(backend, tmp_path):
    layer = layers.RandomElasticTransform(
        factor=(0.2, 0.6), scale=0.5, fill_mode="constant", fill_value=1.0, value_range=(0, 1), seed=8
    )
    config = layer.get_config()
    assert {k: config[k] for k in ("factor", "scale", "interpolation", "fill_mode", "fill_value", "value_range")} == {
        "factor": [0.2, 0.6],
        "scale": 0.5,
        "interpolation": "bilinear",
        "fill_mode": "constant",
        "fill_value": 1.0,
        "value_range": [0.0, 1.0],
    }
    assert layers.RandomElasticTransform.from_config(config).get_config() == config
    model = hl.Sequential([hl.Input((8, 8, 3)), layer, layers.Flatten(), layers.Dense(2)])
    x = np.random.default_rng(9).random((2, 8, 8, 3)).astype("float32")
    loaded = save_and_load(model, tmp_path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), atol=1e-5)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="factor"):
        layers.RandomElasticTransform(factor=1.5)
    with pytest.raises(ValueError, match="scale"):
        layers.RandomElasticTransform(scale=(0.1, 2.0))
    with pytest.raises(ValueError, match="fill_mode"):
        layers.RandomElasticTransform(fill_mode="edge")
    with pytest.raises(ValueError, match="interpolation"):
        layers.RandomElasticTransform(interpolation="bicubic")
