"""LossScaleOptimizer against its rules, step by step: a non-finite step is skipped (weights, slots and
iterations unchanged) and halves the scale; ``dynamic_growth_steps`` consecutive finite steps double it."""

import numpy as np
import pytest

import highlevel as hl

INF, NAN = float("inf"), float("nan")
#: (gradient of a, gradient of b) per step: the unscaled gradients; None marks a non-finite step.
TRUE_GRADS = [
    ([0.5, -1.0], [2.0]),
    ([0.25, 0.5], [-1.0]),
    None,  # inf in a
    ([1.0, 1.0], [0.5]),
    ([-0.5, 0.25], [1.0]),
    ([0.5, 0.5], [0.5]),
    None,  # nan in b
    None,  # inf in both
    ([0.125, -0.25], [4.0]),
    ([1.0, -1.0], [-2.0]),
    ([0.5, 0.5], [0.5]),
]
NON_FINITE = {2: ([INF, 0.0], [1.0]), 6: ([1.0, 1.0], [NAN]), 7: ([INF, -INF], [INF])}


def reference_scales(finite, initial, growth_steps):
    """The documented rules in plain Python: (scale, counter) after each step."""
    scale, counter, out = initial, 0, []
    for ok in finite:
        if not ok:
            scale, counter = scale / 2.0, 0
        elif counter == growth_steps - 1:
            scale, counter = scale * 2.0, 0
        else:
            counter += 1
        out.append((scale, counter))
    return out


def _scaled_gradients(initial, growth_steps):
    finite = [g is not None for g in TRUE_GRADS]
    scales = [initial] + [s for s, _ in reference_scales(finite, initial, growth_steps)]
    grads = []
    for i, g in enumerate(TRUE_GRADS):
        if g is None:
            grads.append([np.array(x, "float32") for x in NON_FINITE[i]])
        else:
            grads.append([np.array(x, "float32") * np.float32(scales[i]) for x in g])
    return grads, finite


def _variables():
    return [hl.Variable(np.array([1.0, 2.0], "float32"), name="a"), hl.Variable(np.array([-1.0], "float32"), name="b")]


def _expected_inner_state():
    """The inner optimizer alone, fed only the finite steps' unscaled gradients."""
    variables = _variables()
    opt = hl.optimizers.SGD(0.1, momentum=0.9)
    for g in TRUE_GRADS:
        if g is not None:
            opt.apply([hl.ops.convert_to_tensor(np.array(x, "float32")) for x in g], variables)
    return [v.numpy() for v in variables], [v.numpy() for v in opt.variables]


def _run(steps_compiled, initial=2.0**15, growth_steps=3):
    variables = _variables()
    opt = hl.optimizers.LossScaleOptimizer(
        hl.optimizers.SGD(0.1, momentum=0.9), initial_scale=initial, dynamic_growth_steps=growth_steps
    )
    opt.build(variables)
    grads, finite = _scaled_gradients(initial, growth_steps)
    expected = reference_scales(finite, initial, growth_steps)

    def apply(gs):
        opt.apply(gs, variables)

    step = hl.config.current_backend().compile_step(apply, variables + opt.variables) if steps_compiled else apply
    seen_iterations = 0
    for i, (gs, ok) in enumerate(zip(grads, finite)):
        before = [v.numpy() for v in variables + opt.inner_optimizer.variables]
        step([hl.ops.convert_to_tensor(g) for g in gs])
        scale, counter = expected[i]
        assert float(opt.dynamic_scale.numpy()) == scale, f"step {i}"
        assert int(opt.step_counter.numpy()) == counter, f"step {i}"
        seen_iterations += ok
        assert int(opt.iterations.numpy()) == seen_iterations
        if not ok:  # skipped: every weight and slot as it was
            for got, want in zip(variables + opt.inner_optimizer.variables, before):
                np.testing.assert_array_equal(got.numpy(), want)
    want_vars, want_slots = _expected_inner_state()
    for got, want in zip(variables, want_vars):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    for got, want in zip(opt.inner_optimizer.variables, want_slots):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    return opt


def test_rules_eager(backend):
    _run(steps_compiled=False)


def test_rules_compiled(backend):
    """Through the backend's compile_step: jax.jit, tf.function (eager on torch and native)."""
    _run(steps_compiled=True, initial=4.0, growth_steps=2)


def test_defaults_and_delegation(backend):
    inner = hl.optimizers.Adam(0.01, loss_scale_factor=8.0)
    opt = hl.optimizers.LossScaleOptimizer(inner)
    assert opt.initial_scale == 2.0**15 and opt.dynamic_growth_steps == 2000
    assert inner.loss_scale_factor is None  # the gradients are unscaled once, by the wrapper
    assert float(hl.ops.convert_to_numpy(opt.scale_loss(hl.ops.convert_to_tensor(2.0)))) == 2.0**16
    v = hl.Variable([1.0])
    opt.build([v])
    assert [x.name for x in opt.variables[:2]] == ["step_counter", "dynamic_scale"]
    assert opt.iterations is inner.iterations
    assert opt.use_ema is False and hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD(use_ema=True)).use_ema
    opt.learning_rate = 0.5
    assert float(hl.ops.convert_to_numpy(inner.learning_rate)) == 0.5
    opt.dynamic_scale.assign(4.0)
    assert float(hl.ops.convert_to_numpy(opt.scale_loss(hl.ops.convert_to_tensor(3.0)))) == 12.0


def test_only_if_discards_everything(backend):
    v = hl.Variable([1.0])
    opt = hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD(0.1), initial_scale=2.0)
    opt.apply([hl.ops.convert_to_tensor([INF])], [v], only_if=hl.ops.convert_to_tensor(False))
    assert float(opt.dynamic_scale.numpy()) == 2.0 and int(opt.iterations.numpy()) == 0
    opt.apply([hl.ops.convert_to_tensor([2.0])], [v], only_if=hl.ops.convert_to_tensor(True))
    np.testing.assert_allclose(v.numpy(), [0.9])
    assert int(opt.step_counter.numpy()) == 1


def test_serialization():
    opt = hl.optimizers.LossScaleOptimizer(hl.optimizers.Adam(0.01), initial_scale=128.0, dynamic_growth_steps=7)
    again = hl.optimizers.deserialize(hl.optimizers.serialize(opt))
    assert type(again) is hl.optimizers.LossScaleOptimizer
    assert (again.initial_scale, again.dynamic_growth_steps) == (128.0, 7)
    assert type(again.inner_optimizer) is hl.optimizers.Adam
    assert hl.optimizers.get(hl.optimizers.serialize(opt)).initial_scale == 128.0
    assert hl.mixed_precision.LossScaleOptimizer is hl.optimizers.LossScaleOptimizer


def test_argument_errors():
    with pytest.raises(TypeError, match="wraps"):
        hl.optimizers.LossScaleOptimizer("adam")
    with pytest.raises(ValueError, match="dynamic_growth_steps"):
        hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD(), dynamic_growth_steps=0)
    with pytest.raises(ValueError, match="initial_scale"):
        hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD(), initial_scale=-1.0)
    with pytest.raises(ValueError, match="inner optimizer"):
        hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD(), clipnorm=1.0)
    with pytest.raises(ValueError, match="dynamic"):
        hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD(), dynamic=False)
    hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD(), use_ema=False)  # defaults of old configs are fine
