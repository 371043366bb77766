"""The trajectory test: one seed, the same 3-epoch fit on every backend, the same losses and weights."""

import numpy as np

import highlevel as hl

from ..conftest import ALL_BACKENDS


def run(name):
    with hl.config.backend_scope(name):
        hl.utils.set_random_seed(42)
        rng = np.random.default_rng(0)
        x = rng.normal(size=(200, 10)).astype("float32")
        y = (np.sin(x[:, :3]).sum(axis=1) > 0).astype("int32")
        model = hl.Sequential(
            [
                hl.Input((10,)),
                hl.layers.Dense(32, activation="relu"),
                hl.layers.Dense(16, activation="tanh"),
                hl.layers.Dense(2),
            ]
        )
        model.compile(
            optimizer=hl.optimizers.Adam(1e-2), loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True)
        )
        history = model.fit(x, y, batch_size=32, epochs=3, shuffle=True, verbose=0)
        return history.history["loss"], [w.numpy() for w in model.weights]


def test_losses_and_weights_agree_across_backends():
    results = {name: run(name) for name in ALL_BACKENDS}
    ref_losses, ref_weights = results["native"]
    for name, (losses, weights) in results.items():
        np.testing.assert_allclose(losses, ref_losses, rtol=1e-4, err_msg=f"{name} per-epoch losses")
        for w, r in zip(weights, ref_weights):
            np.testing.assert_allclose(w, r, rtol=1e-3, atol=1e-5, err_msg=f"{name} final weights")
