"""The trajectory test for convolutional and recurrent models: a small CNN and an LSTM classifier.

Same structure and tolerances as ``test_trajectory.py`` (an MLP): one seed, the same 3-epoch ``fit`` on fixed
data on every backend; per-epoch losses agree to rtol 1e-4 and final weights to rtol 1e-3 (atol 1e-5).
"""

import numpy as np
import pytest

import highlevel as hl

from ..conftest import ALL_BACKENDS


def digits_subset(n=192):
    """The first ``n`` embedded 8x8 digits, scaled to [0, 1], with a channel axis."""
    (x, y), _ = hl.datasets.digits.load_data()
    return (x[:n, :, :, None] / 16.0).astype("float32"), y[:n].astype("int32")


def token_sequences(n=192, length=10, vocab=20):
    """Integer sequences; the label says whether token 1 occurs more often than token 2."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, vocab, size=(n, length)).astype("int32")
    y = ((x == 1).sum(axis=1) > (x == 2).sum(axis=1)).astype("int32")
    return x, y


def small_cnn():
    return hl.Sequential(
        [
            hl.Input((8, 8, 1)),
            # no conv bias before BatchNormalization (usual practice): BN subtracts the batch mean, so the bias's
            # true gradient is 0 and Adam (g / sqrt(v)) turns each backend's rounding noise into full-size steps
            hl.layers.Conv2D(8, 3, padding="same", use_bias=False),
            hl.layers.BatchNormalization(),
            hl.layers.Activation("relu"),
            hl.layers.MaxPooling2D(2),
            hl.layers.Flatten(),
            hl.layers.Dense(10),
        ]
    )


def lstm_classifier():
    return hl.Sequential(
        [
            hl.Input((10,), dtype="int32"),
            hl.layers.Embedding(20, 8),
            hl.layers.LSTM(16),
            hl.layers.Dense(2),
        ]
    )


CASES = {"cnn": (small_cnn, digits_subset), "lstm": (lstm_classifier, token_sequences)}


def run(name, case):
    build, data = CASES[case]
    with hl.config.backend_scope(name):
        hl.utils.set_random_seed(42)
        x, y = data()
        model = build()
        model.compile(
            optimizer=hl.optimizers.Adam(1e-2), loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True)
        )
        history = model.fit(x, y, batch_size=32, epochs=3, shuffle=True, verbose=0)
        # model.weights includes BatchNormalization's moving statistics: they must agree too
        return history.history["loss"], [(w.path, w.numpy()) for w in model.weights]


@pytest.mark.parametrize("case", sorted(CASES))
def test_losses_and_weights_agree_across_backends(case):
    results = {name: run(name, case) for name in ALL_BACKENDS}
    ref_losses, ref_weights = results["native"]
    for name, (losses, weights) in results.items():
        np.testing.assert_allclose(losses, ref_losses, rtol=1e-4, err_msg=f"{case}: {name} per-epoch losses")
        assert len(weights) == len(ref_weights)
        for (path, w), (_, r) in zip(weights, ref_weights):
            np.testing.assert_allclose(w, r, rtol=1e-3, atol=1e-5, err_msg=f"{case}: {name} final weight {path}")
