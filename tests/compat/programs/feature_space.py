"""Structured data with FeatureSpace: numeric, string and integer categorical features and a feature cross,
adapted on the data; the preprocessed features train a small classifier."""

import numpy as np

import highlevel as keras
from highlevel import layers
from highlevel.utils import FeatureSpace


def main():
    keras.utils.set_random_seed(23)
    rng = np.random.default_rng(23)
    n = 320
    data = {
        "temperature": rng.normal(20, 5, size=n).astype("float32"),
        "pressure": rng.normal(1000, 10, size=n).astype("float32"),
        "sky": rng.choice(["sun", "cloud", "rain"], size=n),
        "month": rng.integers(1, 13, size=n),
    }
    target = ((data["temperature"] > 20) & (data["sky"] != "rain")).astype("int32")

    feature_space = FeatureSpace(
        features={
            "temperature": FeatureSpace.float_normalized(),
            "pressure": FeatureSpace.float_normalized(),
            "sky": FeatureSpace.string_categorical(num_oov_indices=1),
            "month": FeatureSpace.integer_categorical(num_oov_indices=1),
        },
        crosses=[FeatureSpace.cross(feature_names=("sky", "month"), crossing_dim=16)],
        output_mode="concat",
    )
    feature_space.adapt({k: v for k, v in data.items()})
    features = keras.ops.convert_to_numpy(feature_space({k: v for k, v in data.items()}))
    assert features.shape[0] == n and features.ndim == 2

    model = keras.Sequential(
        [keras.Input((features.shape[1],)), layers.Dense(16, activation="relu"), layers.Dense(1, activation="sigmoid")]
    )
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(features[:256], target[:256], epochs=8, batch_size=32, verbose=0)
    logs = model.evaluate(features[256:], target[256:], verbose=0, return_dict=True)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert logs["accuracy"] > 0.85, logs
    return logs
