"""Every user-facing argument error of ``hl.ops`` is raised once, by the front door, before an engine runs.

For each bad call below, every engine gives the same exception with the same message, and the engine's method of
that op is never called: the test replaces it with one that fails the test. (``argnums`` out of range for the
call's own arguments can only be checked when the gradient function is called, so the engines raise that one,
with the contract's one wording: the same on every engine too.)
"""

import numpy as np
import pytest

import highlevel as hl
from tests.conftest import selected_backends


def _x(*shape):
    return np.arange(int(np.prod(shape)), dtype="float32").reshape(shape)


def _loss(x, y):
    return hl.ops.sum(x * y)


#: (id, the engine method that must not run, the call, the exception type, a piece of the message)
CASES = [
    ("sum-axis-out-of-range", "sum", lambda: hl.ops.sum(_x(2, 3), axis=2), ValueError, "out of bounds"),
    ("mean-axis-repeated", "mean", lambda: hl.ops.mean(_x(2, 3), axis=(1, -1)), ValueError, "repeats an axis"),
    ("max-axis-not-int", "max", lambda: hl.ops.max(_x(2, 3), axis=1.5), TypeError, "must be an integer"),
    ("softmax-axis", "softmax", lambda: hl.ops.softmax(_x(2, 3), axis=-3), ValueError, "out of bounds"),
    ("argmax-axis", "argmax", lambda: hl.ops.argmax(_x(2, 3), axis=5), ValueError, "out of bounds"),
    ("concatenate-ranks", "concatenate", lambda: hl.ops.concatenate([_x(2, 3), _x(3)]), ValueError, "same rank"),
    ("squeeze-size", "squeeze", lambda: hl.ops.squeeze(_x(2, 3), axis=0), ValueError, "size 1"),
    ("split-sections", "split", lambda: hl.ops.split(_x(2, 3), 2, axis=1), ValueError, "equal sections"),
    (
        "moveaxis-lengths",
        "moveaxis",
        lambda: hl.ops.moveaxis(_x(2, 3, 4), (0, 1), (2,)),
        ValueError,
        "same number of axes",
    ),
    ("moveaxis-out-of-range", "moveaxis", lambda: hl.ops.moveaxis(_x(2, 3), 0, 2), ValueError, "out of bounds"),
    (
        "moveaxis-repeated",
        "moveaxis",
        lambda: hl.ops.moveaxis(_x(2, 3, 4), (0, -3), (1, 2)),
        ValueError,
        "repeats an axis",
    ),
    (
        "transpose-not-permutation",
        "transpose",
        lambda: hl.ops.transpose(_x(2, 3, 4), (0, 1)),
        ValueError,
        "permutation",
    ),
    ("reshape-size", "reshape", lambda: hl.ops.reshape(_x(2, 3), (4, 2)), ValueError, "cannot reshape"),
    ("reshape-two-minus-ones", "reshape", lambda: hl.ops.reshape(_x(2, 3), (-1, -1)), ValueError, "-1"),
    ("pad-mode", "pad", lambda: hl.ops.pad(_x(2, 3), 1, mode="wrap-around"), ValueError, "`mode`"),
    ("pad-width", "pad", lambda: hl.ops.pad(_x(2, 3), ((1, 1),) * 3), ValueError, "pad_width"),
    (
        "conv-data-format",
        "conv",
        lambda: hl.ops.conv(_x(1, 5, 5, 2), _x(3, 3, 2, 4), data_format="NHWC"),
        ValueError,
        "data_format",
    ),
    (
        "conv-padding",
        "conv",
        lambda: hl.ops.conv(_x(1, 5, 5, 2), _x(3, 3, 2, 4), padding="full"),
        ValueError,
        "padding",
    ),
    (
        "conv-strides",
        "conv",
        lambda: hl.ops.conv(_x(1, 5, 5, 2), _x(3, 3, 2, 4), strides=(1, 1, 1)),
        ValueError,
        "strides",
    ),
    ("conv-rank", "conv", lambda: hl.ops.conv(_x(5, 2), _x(3, 2, 4)), ValueError, "rank 3, 4 or 5"),
    (
        "max-pool-padding",
        "max_pool",
        lambda: hl.ops.max_pool(_x(1, 4, 4, 1), 2, padding="causal"),
        ValueError,
        "padding",
    ),
    (
        "average-pool-data-format",
        "average_pool",
        lambda: hl.ops.average_pool(_x(1, 4, 4, 1), 2, data_format="channels_middle"),
        ValueError,
        "data_format",
    ),
    ("grad-argnums-type", "grad", lambda: hl.ops.grad(_loss, argnums="x"), TypeError, "argnums"),
    (
        "grad-argnums-repeated",
        "value_and_grad",
        lambda: hl.ops.value_and_grad(_loss, argnums=(0, 0)),
        ValueError,
        "names an argument twice",
    ),
]


def _outcome(name, method, call):
    """The (type, message) ``call`` raises on engine ``name``, with the engine's ``method`` made to fail."""
    called = []
    with hl.config.backend_scope(name) as engine:
        original = getattr(engine, method)

        def must_not_run(*args, **kwargs):
            called.append(method)
            return original(*args, **kwargs)

        setattr(engine, method, must_not_run)
        try:
            with pytest.raises(Exception) as info:
                call()
        finally:
            delattr(engine, method)
    assert not called, f"{name}: the engine's {method} ran before the error was raised"
    return type(info.value), str(info.value)


def _installed():
    return [n for n in selected_backends() if n in hl.backends.installed()]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_front_door_raises_the_same_error_on_every_engine(case):
    _, method, call, kind, fragment = case
    engines = _installed()
    if not engines:
        pytest.skip("no backend installed")
    outcomes = {name: _outcome(name, method, call) for name in engines}
    first = outcomes[engines[0]]
    assert first[0] is kind and fragment in first[1], first
    for name, outcome in outcomes.items():
        assert outcome == first, f"{name} differs from {engines[0]}: {outcome} != {first}"


@pytest.mark.parametrize("argnums", [(0, 2), 2, (1, -1)])
def test_argnums_against_the_call_has_one_wording_on_every_engine(argnums):
    outcomes = {}
    for name in _installed():
        with hl.config.backend_scope(name):
            x, y = hl.ops.ones((3,)), hl.ops.ones((3,))
            with pytest.raises(ValueError) as info:
                hl.ops.grad(_loss, argnums=argnums)(x, y)
            outcomes[name] = str(info.value)
    assert len(set(outcomes.values())) == 1, outcomes
    assert "argnums" in next(iter(outcomes.values()))
