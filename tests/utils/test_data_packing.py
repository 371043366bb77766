"""``pack_x_y_sample_weight`` / ``unpack_x_y_sample_weight`` as Keras has them, and in a custom train_step."""

import numpy as np
import pytest

import highlevel as hl


@pytest.mark.parametrize(
    "args", [("x",), ("x", "y"), ("x", "y", "w"), (("a", "b"),), (["a", "b"], "y"), ("x", None, "w")]
)
def test_pack_matches_keras(keras, args):
    assert hl.utils.pack_x_y_sample_weight(*args) == keras.utils.pack_x_y_sample_weight(*args)


@pytest.mark.parametrize("data", ["x", ("x",), ("x", "y"), ["x", "y", "w"], ({"a": 1}, "y")])
def test_unpack_matches_keras(keras, data):
    assert hl.utils.unpack_x_y_sample_weight(data) == keras.utils.unpack_x_y_sample_weight(data)


def test_unpack_rejects_four_elements():
    with pytest.raises(ValueError, match="4 elements"):
        hl.utils.unpack_x_y_sample_weight((1, 2, 3, 4))
    with pytest.raises(ValueError, match="0 elements"):
        hl.utils.unpack_x_y_sample_weight(())


def test_custom_train_step_reads_sample_weights(backend):
    # A train_step that unpacks the batch itself: zero sample weights on half the data must stop it from
    # learning that half (its targets are wrong on purpose).
    class Weighted(hl.Model):
        def __init__(self):
            super().__init__()
            self.dense = hl.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y, sample_weight = hl.utils.unpack_x_y_sample_weight(data)
            return super().train_step(hl.utils.pack_x_y_sample_weight(x, y, sample_weight))

    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 1)).astype("float32")
    y = 2.0 * x
    y[32:] = -10.0  # noise
    weights = np.concatenate([np.ones(32), np.zeros(32)]).astype("float32")
    hl.utils.set_random_seed(0)
    model = Weighted()
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
    model.fit(x, y, sample_weight=weights, epochs=40, batch_size=16, verbose=0, shuffle=False)
    slope = float(hl.ops.convert_to_numpy(model.dense.kernel)[0, 0])
    assert abs(slope - 2.0) < 0.1
