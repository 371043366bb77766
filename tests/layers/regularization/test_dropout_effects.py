"""Dropout is on in ``fit`` and off in ``predict``/``evaluate``, on every engine and in every step mode; inside a
compiled step (``jax.jit``, ``tf.function``, the recorded replay) the mask changes from step to step instead of
being frozen when the step was traced.

The model sums 16 inputs of 1 through ``Dropout(0.5)``: without dropout every output is 16; with it each output is
twice the number of inputs kept, so a batch's loss against 0 tells the masks apart.
"""

import numpy as np

import highlevel as hl

X = np.ones((8, 16), "float32")
Y = np.zeros((8, 1), "float32")


def batch_losses(model, epochs, **fit_kwargs):
    losses = []
    record = hl.callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: losses.append(logs["loss"]))
    model.fit(X, Y, batch_size=8, epochs=epochs, verbose=0, callbacks=[record], **fit_kwargs)
    return losses


def summing_model(middle, step_mode):
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((16,)), *middle, hl.layers.Dense(1, kernel_initializer="ones", use_bias=False)])
    model.compile(optimizer=hl.optimizers.SGD(0.0), loss="mse", **step_mode)
    return model


def test_dropout_is_on_in_fit_with_a_new_mask_every_step_and_off_in_inference(backend, step_mode):
    model = summing_model([hl.layers.Dropout(0.5)], step_mode)
    losses = batch_losses(model, epochs=4)  # one batch per epoch: each loss is that step's own
    assert all(loss != 256.0 for loss in losses)  # 16 ** 2 would mean nothing was dropped
    assert len(set(losses)) == 4, losses  # four steps, four masks
    np.testing.assert_array_equal(model.predict(X, verbose=0), np.full((8, 1), 16.0, "float32"))
    assert model.evaluate(X, Y, verbose=0) == 256.0


def test_training_reaches_the_layers_of_a_subclassed_model_whose_call_takes_no_training_argument(backend, step_mode):
    # fit calls the model with training=True; call(self, x) does not take the argument, and the layers inside must
    # still run in training mode (dropout on, batch statistics used and tracked), as in Keras.
    class Summing(hl.Model):
        def __init__(self):
            super().__init__()
            self.dropout = hl.layers.Dropout(0.5)
            self.norm = hl.layers.BatchNormalization(momentum=0.5, center=False, scale=False)
            self.sum = hl.layers.Dense(1, kernel_initializer="ones", use_bias=False)

        def call(self, x):
            return self.sum(self.norm(self.dropout(x)))

    hl.utils.set_random_seed(0)
    model = Summing()
    model.compile(optimizer=hl.optimizers.SGD(0.0), loss="mse", **step_mode)
    x = X + np.arange(8, dtype="float32")[:, None]
    model.fit(x, Y, batch_size=8, epochs=1, verbose=0)
    moving_mean = model.norm.moving_mean.numpy()
    assert np.all(moving_mean > 0.5), moving_mean  # moved half way from 0 towards the (dropped-out) batch mean
    np.testing.assert_allclose(
        model.predict(x, verbose=0),
        ((x - moving_mean) / np.sqrt(model.norm.moving_variance.numpy() + 1e-3)).sum(axis=1, keepdims=True),
        rtol=1e-5,
        atol=1e-4,
    )
    out = [hl.ops.convert_to_numpy(model(x, training=True)) for _ in range(2)]
    assert not np.array_equal(out[0], out[1])  # a direct call with training=True drops too
