"""Gradient-free inference with keras.ops: a trained model's weights read with get_weights, the forward pass
rewritten with ops math, compared with model.predict; then numpy-style ops on the predictions (top-k,
argmax, softmax, logsumexp, where)."""

import numpy as np

import highlevel as keras
from highlevel import layers, ops


def main():
    keras.utils.set_random_seed(38)
    rng = np.random.default_rng(38)
    x = rng.normal(size=(256, 5)).astype("float32")
    y = np.argmax(x[:, :3] + 0.5 * x[:, 3:4], axis=1)

    model = keras.Sequential([keras.Input((5,)), layers.Dense(16, activation="relu"), layers.Dense(3)])
    model.compile(
        optimizer=keras.optimizers.Adam(0.02),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    history = model.fit(x, y, epochs=8, batch_size=32, verbose=0)

    w1, b1, w2, b2 = model.get_weights()
    logits = ops.matmul(ops.relu(ops.add(ops.matmul(x, w1), b1)), w2) + b2
    np.testing.assert_allclose(ops.convert_to_numpy(logits), model.predict(x, verbose=0), rtol=1e-4, atol=1e-4)

    probabilities = ops.softmax(logits, axis=-1)
    np.testing.assert_allclose(ops.convert_to_numpy(ops.sum(probabilities, axis=-1)), 1.0, rtol=1e-5)
    log_probabilities = logits - ops.logsumexp(logits, axis=-1, keepdims=True)
    np.testing.assert_allclose(
        ops.convert_to_numpy(ops.exp(log_probabilities)), ops.convert_to_numpy(probabilities), rtol=1e-5, atol=1e-6
    )
    predicted = ops.convert_to_numpy(ops.argmax(probabilities, axis=-1))
    values, indices = ops.top_k(probabilities, k=2)
    assert (ops.convert_to_numpy(indices)[:, 0] == predicted).all()
    confident = ops.convert_to_numpy(ops.where(ops.max(probabilities, axis=-1) > 0.9, predicted, -1))
    accuracy = float(np.mean(predicted == y))
    assert accuracy > 0.85 and (confident[confident >= 0] == y[confident >= 0]).mean() > 0.9, accuracy
    assert history.history["loss"][-1] < 0.4 * history.history["loss"][0], history.history["loss"]
    return {"accuracy": accuracy, "confident": float(np.mean(confident >= 0))}
