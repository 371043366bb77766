"""A siamese network: one encoder shared by two inputs (the same layer objects, so the same weights), the
distance between the two embeddings scored by a contrastive-style head. Pairs are "same" when both vectors
come from the same cluster."""

import numpy as np

import highlevel as keras
from highlevel import layers, ops


def main():
    keras.utils.set_random_seed(35)
    rng = np.random.default_rng(35)
    centres = rng.normal(scale=2.0, size=(5, 8)).astype("float32")
    n = 384
    a_cls = rng.integers(0, 5, size=n)
    same = rng.random(n) < 0.5
    b_cls = np.where(same, a_cls, (a_cls + rng.integers(1, 5, size=n)) % 5)
    left = centres[a_cls] + rng.normal(scale=0.7, size=(n, 8)).astype("float32")
    right = centres[b_cls] + rng.normal(scale=0.7, size=(n, 8)).astype("float32")
    labels = same.astype("float32")

    encoder = keras.Sequential(
        [keras.Input((8,)), layers.Dense(16, activation="relu"), layers.Dense(8)], name="encoder"
    )
    input_a, input_b = keras.Input((8,), name="left"), keras.Input((8,), name="right")
    embedding_a, embedding_b = encoder(input_a), encoder(input_b)
    distance = layers.Lambda(lambda t: ops.abs(t[0] - t[1]), output_shape=(8,))([embedding_a, embedding_b])
    output = layers.Dense(1, activation="sigmoid")(distance)
    model = keras.Model([input_a, input_b], output)
    assert len(model.trainable_weights) == 4 + 2  # noqa  # the encoder's weights are counted once

    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit([left[:320], right[:320]], labels[:320], epochs=8, batch_size=32, verbose=0)
    logs = model.evaluate([left[320:], right[320:]], labels[320:], verbose=0, return_dict=True)
    # Shared weights: the same vector encodes the same way on both sides.
    e1, e2 = (keras.ops.convert_to_numpy(t) for t in (encoder(left[:4]), encoder(left[:4])))
    np.testing.assert_allclose(e1, e2)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert logs["accuracy"] > 0.85, logs
    return logs
