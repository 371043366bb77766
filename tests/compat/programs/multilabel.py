"""A multi-label classifier: several independent yes/no tags per sample, sigmoid outputs with binary
cross-entropy, thresholded predictions and per-label metrics."""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(36)
    rng = np.random.default_rng(36)
    x = rng.normal(size=(320, 6)).astype("float32")
    tags = np.stack([x[:, 0] > 0, x[:, 1] + x[:, 2] > 0, x[:, 3] * x[:, 4] > 0, x[:, 5] > 0.5], axis=1)
    y = tags.astype("float32")
    assert (y.sum(axis=1) > 1).any()  # several labels per sample

    model = keras.Sequential(
        [keras.Input((6,)), layers.Dense(32, activation="relu"), layers.Dense(4, activation="sigmoid")]
    )
    model.compile(
        optimizer=keras.optimizers.Adam(0.01),
        loss="binary_crossentropy",
        metrics=[
            keras.metrics.BinaryAccuracy(name="accuracy"),
            keras.metrics.AUC(multi_label=True, name="auc"),
            keras.metrics.Precision(name="precision"),
            keras.metrics.Recall(name="recall"),
        ],
    )
    history = model.fit(x[:256], y[:256], epochs=12, batch_size=32, verbose=0)
    logs = model.evaluate(x[256:], y[256:], verbose=0, return_dict=True)
    predicted_tags = model.predict(x[256:], verbose=0) > 0.5
    exact = np.mean(np.all(predicted_tags == tags[256:], axis=1))
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert logs["accuracy"] > 0.85 and logs["auc"] > 0.9, logs
    assert exact > 0.5, exact  # all four tags right at once, far above chance (1/16)
    return logs
