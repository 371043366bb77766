"""``jit_compile=True`` on PyTorch: the step is recorded as for ``"auto"`` and ``torch.compile`` compiles the
recorded program (engine calls and torch operations only), not the front end's Python step."""

import inspect
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import highlevel as hl  # noqa: E402

RNG = np.random.default_rng(7)
X = RNG.normal(size=(48, 6)).astype("float32")
Y = RNG.integers(0, 3, size=(48,))


def _fit(jit_compile):
    with hl.config.backend_scope("torch"):
        hl.utils.set_random_seed(0)
        model = hl.Sequential([hl.Input((6,)), hl.layers.Dense(8, activation="relu"), hl.layers.Dense(3)])
        model.compile(
            optimizer="adam",
            loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=["accuracy"],
            jit_compile=jit_compile,
        )
        history = model.fit(X, Y, batch_size=16, epochs=2, verbose=0, shuffle=False)
        return model, history.history


def test_torch_compile_compiles_the_recorded_program():
    from torch._dynamo.utils import counters

    _, want = _fit("auto")
    counters.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no fallback to an eager step
        model, got = _fit(True)
    for key, values in want.items():
        np.testing.assert_allclose(got[key], values, rtol=1e-5, err_msg=key)
    step = inspect.getclosurevars(model._lean_train_function).nonlocals["step"]
    (recording,) = step.recordings.values()  # 48 samples in batches of 16: one input signature
    assert not step.fallback_reasons
    assert hasattr(recording.run, "_torchdynamo_orig_callable")  # the program went through torch.compile
    # One break, where the program asks autograd for the gradients; compiling the front end's step broke it at
    # every op (the backend look-up of each hl.ops call).
    breaks = dict(counters["graph_break"])
    assert sum(breaks.values()) <= 1 and all("autograd" in reason for reason in breaks), breaks
