"""``highlevel.random``: seeds, seed generators and the host stream, on every backend."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops


def np_(x):
    return ops.convert_to_numpy(x)


def test_int_seed_repeats_and_generator_advances(backend):
    a, b = hl.random.normal((4,), seed=11), hl.random.normal((4,), seed=11)
    np.testing.assert_array_equal(np_(a), np_(b))
    g = hl.random.SeedGenerator(11)
    c, d = hl.random.normal((4,), seed=g), hl.random.normal((4,), seed=g)
    assert not np.array_equal(np_(c), np_(d))
    g2 = hl.random.SeedGenerator(11)
    np.testing.assert_array_equal(np_(hl.random.normal((4,), seed=g2)), np_(c))


def test_global_generator_is_reset_by_set_random_seed(backend):
    hl.utils.set_random_seed(3)
    a = np_(hl.random.uniform((5,)))
    hl.utils.set_random_seed(3)
    b = np_(hl.random.uniform((5,)))
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "fn,kwargs",
    [
        (hl.random.normal, {}),
        (hl.random.uniform, {"minval": -2.0, "maxval": 3.0}),
        (hl.random.truncated_normal, {"stddev": 2.0}),
        (hl.random.randint, {"minval": 2, "maxval": 9}),
    ],
)
def test_shapes_dtypes_and_ranges(backend, fn, kwargs):
    x = fn((200, 3), seed=5, **kwargs)
    assert ops.shape(x) == (200, 3)
    values = np_(x)
    if fn is hl.random.randint:
        assert ops.dtype(x) == "int32"
        assert values.min() >= 2 and values.max() < 9
    else:
        assert ops.dtype(x) == "float32"
    if fn is hl.random.uniform:
        assert values.min() >= -2 and values.max() < 3
    if fn is hl.random.truncated_normal:
        assert np.abs(values).max() <= 4.0 + 1e-6


def test_dropout_and_shuffle(backend):
    x = ops.ones((1000,))
    y = np_(hl.random.dropout(x, 0.25, seed=1))
    assert set(np.unique(y)).issubset({0.0, np.float32(1 / 0.75)})
    assert 0.15 < (y == 0).mean() < 0.35
    z = np_(hl.random.shuffle(ops.arange(50), seed=2))
    assert sorted(z.tolist()) == list(range(50)) and z.tolist() != list(range(50))


def test_bad_seeds_are_explained(backend):
    with pytest.raises(TypeError, match="seed must be an int"):
        hl.random.normal((2,), seed="x")
    with pytest.raises(ValueError, match="seed must be an int in"):
        hl.random.normal((2,), seed=-1)


def test_host_stream_is_the_same_numbers_everywhere():
    hl.utils.set_random_seed(42)
    a = hl.random.host_rng().standard_normal(8)
    hl.utils.set_random_seed(42)
    b = hl.random.host_rng().standard_normal(8)
    np.testing.assert_array_equal(a, b)
    assert isinstance(hl.random.host_rng().bit_generator, np.random.Philox)


def test_same_seed_same_initial_values_on_every_backend():
    from ..conftest import ALL_BACKENDS

    values = {}
    for name in ALL_BACKENDS:
        with hl.config.backend_scope(name):
            hl.utils.set_random_seed(7)
            init = hl.random.host_rng().normal(size=(3, 4)).astype("float32")
            values[name] = np_(hl.Variable(init))
    for name in ALL_BACKENDS:
        np.testing.assert_array_equal(values[name], values["native"])


def test_seed_generator_config_rebuilds_the_same_stream(backend):
    g = hl.random.SeedGenerator(13, name="noise")
    assert g.get_config() == {"seed": 13, "name": "noise"}
    first = np_(hl.random.uniform((3,), seed=g))
    g2 = hl.random.SeedGenerator.from_config(g.get_config())
    np.testing.assert_array_equal(np_(hl.random.uniform((3,), seed=g2)), first)
    assert hl.random.SeedGenerator().get_config()["seed"] is None
    counter = int(np_(g.state.value)[1])
    g.next(ordered=False)
    assert int(np_(g.state.value)[1]) == counter + 1


def test_a_layer_that_draws_noise_of_its_input_shape_builds_in_a_functional_model(backend):
    """While a functional model is built, ``ops.shape(x)`` holds None for the batch: the draw is described
    (a KerasTensor of that shape), not made, and the layer draws for real when the model runs."""

    class Noise(hl.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.seed_generator = hl.random.SeedGenerator(5)

        def call(self, x):
            shape = hl.ops.shape(x)
            return (
                x
                + hl.random.normal(shape, seed=self.seed_generator)
                + hl.random.uniform(shape, seed=self.seed_generator)
                + hl.random.truncated_normal(shape, seed=self.seed_generator)
                + hl.ops.cast(hl.random.randint(shape, 0, 2, seed=self.seed_generator), "float32")
            )

    symbolic = hl.random.normal((None, 3))
    assert isinstance(symbolic, hl.KerasTensor) and symbolic.shape == (None, 3) and symbolic.dtype == "float32"
    assert hl.random.randint((None, 2), 0, 4).dtype == "int32"
    inputs = hl.Input((3,))
    outputs = Noise()(inputs)
    assert outputs.shape == (None, 3)
    model = hl.Model(inputs, outputs)
    first, second = (np_(model(np.zeros((4, 3), "float32"))) for _ in range(2))
    assert first.shape == (4, 3) and np.isfinite(first).all()
    assert not np.array_equal(first, second)  # a new draw each call: the seed generator advanced
