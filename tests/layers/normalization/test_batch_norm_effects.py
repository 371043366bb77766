"""BatchNormalization in ``fit``, ``predict`` and ``evaluate``, checked against the formulas on every engine and in
every step mode: training normalizes with the batch's statistics and moves the moving mean and variance towards
them (``moving = momentum * moving + (1 - momentum) * batch``, the biased batch variance, as Keras); inference
normalizes with the moving statistics.
"""

import numpy as np

import highlevel as hl

MOMENTUM, EPSILON = 0.6, 1e-3
X = np.random.default_rng(2).normal(3.0, 2.0, size=(8, 2)).astype("float32")
HALVES = (X[:4].astype("float64"), X[4:].astype("float64"))


def test_moving_statistics_follow_the_batches_and_inference_uses_them(backend, step_mode):
    hl.utils.set_random_seed(0)
    norm = hl.layers.BatchNormalization(momentum=MOMENTUM, epsilon=EPSILON)
    model = hl.Sequential([hl.Input((2,)), norm])
    # SGD(0): gamma and beta stay 1 and 0, so the outputs are the normalized inputs
    model.compile(optimizer=hl.optimizers.SGD(0.0), loss="mse", **step_mode)
    first_losses = []
    record = hl.callbacks.LambdaCallback(
        on_train_batch_end=lambda batch, logs: first_losses.append(logs["loss"]) if batch == 0 else None
    )
    model.fit(X, np.zeros_like(X), batch_size=4, epochs=3, shuffle=False, verbose=0, callbacks=[record])

    mean, var = np.zeros(2), np.ones(2)
    for _ in range(3):  # 3 epochs of the two halves, in order
        for batch in HALVES:
            mean = MOMENTUM * mean + (1 - MOMENTUM) * batch.mean(axis=0)
            var = MOMENTUM * var + (1 - MOMENTUM) * batch.var(axis=0)
    np.testing.assert_allclose(norm.moving_mean.numpy(), mean, rtol=1e-5)
    np.testing.assert_allclose(norm.moving_variance.numpy(), var, rtol=1e-5)

    # training normalized each batch with its own statistics: the first batch's loss is the mean square of those
    first = HALVES[0]
    normalized = (first - first.mean(axis=0)) / np.sqrt(first.var(axis=0) + EPSILON)
    np.testing.assert_allclose(first_losses, [np.mean(normalized**2)] * 3, rtol=1e-5)

    # inference normalizes with the moving statistics, not the batch's
    want = (X - mean) / np.sqrt(var + EPSILON)
    np.testing.assert_allclose(model.predict(X, verbose=0), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(model.predict(X[:4], verbose=0), want[:4], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(model.evaluate(X, np.zeros_like(X), verbose=0), np.mean(want**2), rtol=1e-5)
    np.testing.assert_allclose(norm.moving_mean.numpy(), mean, rtol=1e-5)  # inference moved nothing
