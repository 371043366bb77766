"""PyTorch keeps dense kernels column-major (``nn.Linear``'s layout under Keras's (input_dim, units) shape).

The layout is an engine detail: values, shapes, saved files and training results are those of row-major
storage; only the BLAS calls change. The optimizer's slots follow their weight's layout.
"""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import highlevel as hl  # noqa: E402
from highlevel.backends.torch import fused  # noqa: E402

RNG = np.random.default_rng(3)
X = RNG.normal(size=(64, 12)).astype("float32")
Y = RNG.integers(0, 4, size=(64,))


def _train(optimizer, first="fit"):
    with hl.config.backend_scope("torch"):
        hl.utils.set_random_seed(5)
        model = hl.Sequential([hl.Input((12,)), hl.layers.Dense(16, activation="relu"), hl.layers.Dense(4)])
        model.compile(optimizer=optimizer(), loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True))
        if first == "predict":
            model.predict(X, verbose=0)  # the first use of the kernels under torch.inference_mode
        model.fit(X, Y, batch_size=16, epochs=2, verbose=0, shuffle=False)
        return model


@pytest.mark.parametrize("optimizer", ["adam", "sgd_momentum", "rmsprop"])
def test_kernels_and_slots_are_column_major_and_train_like_row_major(optimizer, monkeypatch, tmp_path):
    make = {
        "adam": lambda: hl.optimizers.Adam(0.01),
        "sgd_momentum": lambda: hl.optimizers.SGD(0.05, momentum=0.9),
        "rmsprop": lambda: hl.optimizers.RMSprop(0.01, momentum=0.5),
    }[optimizer]
    model = _train(make)
    for layer in model.layers:
        kernel = layer.kernel.handle
        assert kernel.stride() == (1, kernel.shape[0]), kernel.stride()
    for slot in model.optimizer.variables:
        if slot.handle.ndim == 2:
            assert slot.handle.stride() == (1, slot.handle.shape[0]), (slot.path, slot.handle.stride())
    # Saved and loaded: values and shapes are the layout-free ones; the loaded kernels go column-major too.
    with hl.config.backend_scope("torch"):
        model.save(tmp_path / "m.keras")
        restored = hl.saving.load_model(tmp_path / "m.keras")
        for a, b in zip(restored.get_weights(), model.get_weights()):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(restored.predict(X, verbose=0), model.predict(X, verbose=0))
    # The same training with row-major kernels: the same numbers (only the BLAS kernels differ).
    monkeypatch.setattr(fused, "_column_major", lambda p: None)
    reference = _train(make)
    assert reference.layers[0].kernel.handle.is_contiguous()
    for a, b in zip(model.get_weights(), reference.get_weights()):
        assert a.flags["C_CONTIGUOUS"] and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_first_use_under_inference_mode_then_training():
    # predict runs under torch.inference_mode; the kernel's new storage must still be usable by autograd.
    model = _train(lambda: hl.optimizers.Adam(0.01), first="predict")
    assert model.layers[0].kernel.handle.stride() == (1, 12)
    assert np.isfinite(model.get_weights()[0]).all()


def test_vectors_and_single_row_or_column_kernels_keep_their_layout():
    with hl.config.backend_scope("torch"):
        for shape in [(1, 5), (5, 1)]:
            v = hl.Variable(np.ones(shape, "float32"))
            out = hl.ops.dense(np.ones((2, shape[0]), "float32"), v)
            assert v.handle.is_contiguous() and out.shape == (2, shape[1])
