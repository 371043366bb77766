"""``add_weight(overwrite_with_gradient=True)``: an optimizer step sets the weight to its gradient (no learning
rate, momentum or weight decay) while the other weights train as usual; as Keras does, on every backend."""

import numpy as np
import pytest

import highlevel as hl
from tests.layers.core.keras_oracle import keras_module

K = np.array([2.0, -3.0], "float32")  # the gradient of the overwritten weight in the model below


class _LinearWithScale(hl.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], 1), initializer="zeros", name="w")
        self.s = self.add_weight(shape=(2,), initializer="zeros", overwrite_with_gradient=True, name="s")

    def call(self, x):
        # d(loss)/d(s) is K whatever s is, so after any step s must equal K exactly
        self.add_loss(hl.ops.sum(self.s * hl.ops.convert_to_tensor(K)))
        return hl.ops.matmul(x, self.w)


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_fit_overwrites_the_flagged_weight_and_trains_the_rest(backend, optimizer):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 2)).astype("float32")
    y = x @ np.array([[1.0], [2.0]], "float32")
    layer = _LinearWithScale()
    model = hl.Sequential([hl.Input((2,)), layer])
    opt = hl.optimizers.SGD(0.1) if optimizer == "sgd" else hl.optimizers.Adam(0.1, weight_decay=0.5)
    model.compile(optimizer=opt, loss="mse")
    start = float(np.mean((model.predict(x, verbose=0) - y) ** 2))
    model.fit(x, y, batch_size=8, epochs=8, verbose=0)
    end = float(np.mean((model.predict(x, verbose=0) - y) ** 2))
    assert end < 0.5 * start, (start, end)
    np.testing.assert_allclose(layer.s.numpy(), K, rtol=1e-6)  # not 0 - lr * K, not decayed
    assert layer.s.overwrite_with_gradient and not layer.w.overwrite_with_gradient


def test_apply_matches_keras_and_accumulates_the_maximum(backend):
    keras = keras_module()
    grads = [np.array([1.0, 5.0], "float32"), np.array([3.0, 2.0], "float32")]
    ours = hl.Variable(np.zeros(2, "float32"))
    ours.overwrite_with_gradient = True
    theirs = keras.Variable(np.zeros(2, "float32"))
    theirs.overwrite_with_gradient = True
    opt, kopt = hl.optimizers.SGD(0.1), keras.optimizers.SGD(0.1)
    opt.apply([hl.ops.convert_to_tensor(grads[0])], [ours])
    kopt.apply([keras.ops.convert_to_tensor(grads[0])], [theirs])
    np.testing.assert_allclose(ours.numpy(), grads[0])
    np.testing.assert_allclose(ours.numpy(), np.asarray(theirs.numpy()))
    # with gradient accumulation the variable takes the element-wise maximum on the update step
    acc = hl.Variable(np.zeros(2, "float32"))
    acc.overwrite_with_gradient = True
    opt = hl.optimizers.SGD(0.1, gradient_accumulation_steps=2)
    opt.apply([hl.ops.convert_to_tensor(grads[0])], [acc])
    np.testing.assert_allclose(acc.numpy(), [0.0, 0.0])
    opt.apply([hl.ops.convert_to_tensor(grads[1])], [acc])
    np.testing.assert_allclose(acc.numpy(), [3.0, 5.0])


def test_overwrite_with_gradient_must_be_a_bool(backend):
    v = hl.Variable(np.zeros(2, "float32"))
    with pytest.raises(TypeError, match="must be a bool"):
        v.overwrite_with_gradient = 1
    with pytest.raises(TypeError, match="received 'yes'"):
        hl.layers.Layer().add_weight(shape=(1,), overwrite_with_gradient="yes")
