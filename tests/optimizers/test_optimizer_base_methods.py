"""The Optimizer base methods Keras has beside ``apply``: ``set_weights``, ``save_own_variables`` /
``load_own_variables``, ``assign`` / ``assign_add`` / ``assign_sub``, ``add_optimizer_variables`` and
``add_variable``'s distribution arguments, each shown by its effect on every backend."""

import warnings

import numpy as np
import pytest

import highlevel as hl

from ._problem import SHAPES, gradient_sequence, initial_values


def _setup(**kwargs):
    init = initial_values()
    variables = [hl.Variable(init[n], name=n) for n in SHAPES]
    opt = hl.optimizers.Adam(learning_rate=0.05, **kwargs)
    opt.build(variables)
    return variables, opt


def _step(opt, variables, grads):
    opt.apply([hl.ops.convert_to_tensor(g) for g in grads], variables)


def _run_and_copy_state(copy):
    """Trains 3 steps, copies the state into a fresh optimizer with ``copy(src, dst)``, then checks that both
    continue identically (and differently from a fresh optimizer that lacks the state)."""
    grads = gradient_sequence(6)
    variables, opt = _setup()
    for g in grads[:3]:
        _step(opt, variables, g)
    weights = [v.numpy() for v in variables]
    fresh_vars = [hl.Variable(w) for w in weights]
    restored_vars = [hl.Variable(w) for w in weights]
    fresh = hl.optimizers.Adam(learning_rate=0.05)
    fresh.build(fresh_vars)
    restored = hl.optimizers.Adam(learning_rate=0.05)
    restored.build(restored_vars)
    copy(opt, restored)
    assert int(restored.iterations.numpy()) == 3
    for g in grads[3:]:
        _step(opt, variables, g)
        _step(restored, restored_vars, g)
        _step(fresh, fresh_vars, g)
    for a, b, c in zip(variables, restored_vars, fresh_vars):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-6, atol=1e-6)
        assert not np.allclose(c.numpy(), a.numpy(), atol=1e-4)  # without the state, training goes elsewhere


def test_set_weights_carries_the_state_over(backend):
    _run_and_copy_state(lambda src, dst: dst.set_weights([v.numpy() for v in src.variables]))


def test_save_and_load_own_variables_carry_the_state_over(backend):
    def copy(src, dst):
        store = {}
        src.save_own_variables(store)
        assert sorted(store, key=int) == [str(i) for i in range(len(src.variables))]
        dst.load_own_variables(store)

    _run_and_copy_state(copy)


def test_load_own_variables_skips_a_store_of_another_size_with_a_warning(backend):
    variables, opt = _setup()
    before = [v.numpy() for v in opt.variables]
    with pytest.warns(UserWarning, match="it has 8 variables, the store holds 2"):
        opt.load_own_variables({"0": np.array(5), "1": np.array(0.5, "float32")})
    for v, b in zip(opt.variables, before):
        np.testing.assert_array_equal(v.numpy(), b)
    with pytest.warns(UserWarning, match="Build it first"):
        hl.optimizers.Adam().load_own_variables({str(i): np.zeros(()) for i in range(5)})


def test_set_weights_errors(backend):
    with pytest.raises(ValueError, match="not built yet"):
        hl.optimizers.SGD().set_weights([])
    variables, opt = _setup()
    with pytest.raises(ValueError, match="expects 8 arrays .* received 1"):
        opt.set_weights([np.array(0)])
    good = [v.numpy() for v in opt.variables]
    bad = good[:2] + [np.zeros((4, 3), "float32")] + good[3:]
    with pytest.raises(ValueError, match=r"has shape \(3, 4\), but the array given for it has shape \(4, 3\)"):
        opt.set_weights(bad)


def test_assign_helpers_change_the_variable(backend):
    opt = hl.optimizers.SGD()
    v = hl.Variable(np.array([1.0, 2.0], "float32"))
    opt.assign(v, hl.ops.convert_to_tensor([4.0, 6.0]))
    np.testing.assert_allclose(v.numpy(), [4.0, 6.0])
    opt.assign_add(v, hl.ops.convert_to_tensor([1.0, 1.0]))
    np.testing.assert_allclose(v.numpy(), [5.0, 7.0])
    opt.assign_sub(v, hl.ops.convert_to_tensor([2.0, 3.0]))
    np.testing.assert_allclose(v.numpy(), [3.0, 4.0])


class _MomentumBySlots(hl.optimizers.Optimizer):
    """A user optimizer written with Keras's helpers: slots from add_optimizer_variables, updates via assign*."""

    def build(self, variables):
        super().build(variables)
        self.velocities = self.add_optimizer_variables(variables, "velocity")

    def update_step(self, gradient, variable, learning_rate):
        velocity = self.velocities[self._trainable_variables.index(variable)]
        self.assign(velocity, 0.5 * velocity.value + gradient)
        self.assign_sub(variable, learning_rate * velocity.value)


def test_a_user_optimizer_built_on_the_helpers_learns(backend):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")
    model = hl.Sequential([hl.layers.Input((3,)), hl.layers.Dense(1)])
    opt = _MomentumBySlots(learning_rate=0.05)
    model.compile(optimizer=opt, loss="mse")
    history = model.fit(x, y, epochs=15, batch_size=16, verbose=0, shuffle=False)
    losses = history.history["loss"]
    assert losses[-1] < 0.1 * losses[0], losses
    assert [tuple(s.shape) for s in opt.velocities] == [(3, 1), (1,)]


def test_add_optimizer_variables_names_and_initializers(backend):
    opt = hl.optimizers.SGD()
    refs = [hl.Variable(np.ones((2, 3), "float32"), name="kernel"), hl.Variable(np.ones(3, "float32"), name="b")]
    m = opt.add_optimizer_variables(refs, "m")
    assert [tuple(s.shape) for s in m] == [(2, 3), (3,)] and all(not s.trainable for s in m)
    assert m[0].name.endswith("_m") and float(np.abs(m[0].numpy()).sum()) == 0.0
    first, second = opt.add_optimizer_variables(refs, ["u", "w"], initializer=["zeros", "ones"])
    np.testing.assert_array_equal(second[1].numpy(), np.ones(3))
    np.testing.assert_array_equal(first[1].numpy(), np.zeros(3))
    n_before = len(opt.variables)
    both = opt.add_optimizer_variables(refs, ["p", "q"], initializer="ones")
    assert len(both) == 2 and len(opt.variables) == n_before + 4
    with pytest.raises(ValueError, match="one initializer per name .* 2 names .* 3 initializers"):
        opt.add_optimizer_variables(refs, ["p", "q"], initializer=["ones", "zeros", "ones"])


def test_add_variable_takes_kerass_distribution_arguments_and_order(backend):
    opt = hl.optimizers.SGD()
    v = opt.add_variable((2,), "ones", "float32", "mean", None, "counter")
    assert v.aggregation == "mean" and v.name == "counter" and v in opt.variables
    np.testing.assert_array_equal(v.numpy(), np.ones(2))


def test_finalize_variable_values_takes_var_list(backend):
    variables, opt = _setup(use_ema=True)
    for g in gradient_sequence(3):
        _step(opt, variables, g)
    average = [opt._ema[i].numpy() for i in range(len(variables))]
    opt.finalize_variable_values(var_list=variables)
    for v, a in zip(variables, average):
        np.testing.assert_allclose(v.numpy(), a)


def test_state_layout_matches_keras():
    from tests.layers.core.keras_oracle import keras_module

    keras = keras_module()
    ours, theirs = hl.optimizers.Adam(), keras.optimizers.Adam()
    w = np.ones((2, 2), "float32")
    ours.build([hl.Variable(w)])
    theirs.build([keras.Variable(w)])
    a, b = {}, {}
    ours.save_own_variables(a)
    theirs.save_own_variables(b)
    assert sorted(a) == sorted(b)
    assert [np.shape(a[k]) for k in sorted(a)] == [np.shape(b[k]) for k in sorted(b)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours.load_own_variables(b)  # Keras's store loads into ours
