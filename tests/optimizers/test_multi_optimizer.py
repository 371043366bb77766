"""MultiOptimizer and OptimizerMap: routing by variable path, against Keras 3; state, configs, fit and saving.
Also the ``legacy`` names, which raise as in Keras 3."""

import numpy as np
import pytest

import highlevel as hl

from ._problem import SHAPES, gradient_sequence, initial_values

STEPS = 5


def _run(module, variables_cls):
    init = initial_values()
    variables = [variables_cls(init[n], name=n) for n in SHAPES]
    opts = module.optimizers
    mapping = opts.OptimizerMap(opts.Adam(0.05), {"kernel": opts.SGD(0.1, momentum=0.9), "fil.*": opts.Lion(0.01)})
    opt = opts.MultiOptimizer(mapping)
    for grads in gradient_sequence(STEPS):
        opt.apply([module.ops.convert_to_tensor(g) for g in grads], variables)
    return [np.asarray(v.numpy()) for v in variables], opt


def test_matches_keras(backend):
    keras = pytest.importorskip("keras")
    want, _ = _run(keras, keras.Variable)
    got, opt = _run(hl, hl.Variable)
    for name, g, w in zip(SHAPES, got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-7, err_msg=name)
    assert int(opt.iterations.numpy()) == STEPS
    assert [type(o).__name__ for o in opt.optimizers] == ["SGD", "Lion", "Adam"]
    assert [int(o.iterations.numpy()) for o in opt.optimizers] == [STEPS] * 3


def test_state_restores_and_training_continues(backend):
    grads = gradient_sequence(6)

    def setup():
        init = initial_values()
        variables = [hl.Variable(init[n], name=n) for n in SHAPES]
        mapping = hl.optimizers.OptimizerMap(hl.optimizers.Adam(0.05), {"bias": hl.optimizers.Nadam(0.05)})
        opt = hl.optimizers.MultiOptimizer(mapping)
        opt.build(variables)
        return variables, opt

    variables, opt = setup()
    for g in grads[:3]:
        opt.apply([hl.ops.convert_to_tensor(x) for x in g], variables)
    variables2, opt2 = setup()
    assert len(opt2.variables) == len(opt.variables)
    for a, b in zip(opt2.variables + variables2, opt.variables + variables):
        a.assign(b.numpy())
    for g in grads[3:]:
        opt.apply([hl.ops.convert_to_tensor(x) for x in g], variables)
        opt2.apply([hl.ops.convert_to_tensor(x) for x in g], variables2)
    for a, b in zip(variables + opt.variables, variables2 + opt2.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_config_round_trip_keeps_shared_optimizers(backend):
    shared = hl.optimizers.SGD(0.2)
    mapping = hl.optimizers.OptimizerMap(shared, {"a": hl.optimizers.Adam(0.01), "b": shared, "c.*": shared})
    opt = hl.optimizers.MultiOptimizer(mapping, loss_scale_factor=2.0, name="multi")
    again = hl.optimizers.deserialize(hl.optimizers.serialize(opt))
    assert type(again) is hl.optimizers.MultiOptimizer and again.name == "multi"
    assert again.get_config() == opt.get_config()
    assert [type(o).__name__ for o in again.optimizers] == ["Adam", "SGD"]
    assert all(o.loss_scale_factor == 2.0 for o in again.optimizers)


def test_learning_rate_is_per_sub_optimizer(backend):
    opt = hl.optimizers.MultiOptimizer(hl.optimizers.OptimizerMap(hl.optimizers.SGD()))
    with pytest.raises(AttributeError, match="sub-optimizers"):
        opt.learning_rate  # noqa: B018
    with pytest.raises(AttributeError, match="sub-optimizers"):
        opt.learning_rate = 0.1


def test_callable_map_trains_but_does_not_serialize(backend):
    slow, fast = hl.optimizers.SGD(0.1), hl.optimizers.SGD(1.0)
    opt = hl.optimizers.MultiOptimizer(lambda v: fast if "fast" in v.path else slow)
    a, b = hl.Variable([1.0], name="fast_w"), hl.Variable([1.0], name="slow_w")
    opt.apply([hl.ops.convert_to_tensor([1.0])] * 2, [a, b])
    np.testing.assert_allclose([a.numpy()[0], b.numpy()[0]], [0.0, 0.9], rtol=1e-6)
    with pytest.raises(TypeError, match="OptimizerMap"):
        opt.get_config()


def test_errors(backend):
    with pytest.raises(TypeError, match="default_optimizer"):
        hl.optimizers.OptimizerMap("adam")
    mapping = hl.optimizers.OptimizerMap(
        hl.optimizers.SGD(), {"a.*": hl.optimizers.Adam(), ".*b": hl.optimizers.Adam()}
    )
    with pytest.raises(ValueError, match="patterns"):
        mapping["ab"]
    with pytest.raises(ValueError, match="already"):
        mapping["a.*"] = hl.optimizers.SGD()
    with pytest.raises(TypeError, match="LossScaleOptimizer"):
        mapping["c"] = hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD())
    with pytest.raises(TypeError, match="optimizer_map"):
        hl.optimizers.MultiOptimizer({"a": hl.optimizers.SGD()})


def test_fit_learns_and_resumes_after_save(backend, tmp_path):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype("float32")
    y = x @ np.array([[1.0], [-2.0], [0.5], [3.0]], "float32")
    hl.utils.set_random_seed(1)
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(8, name="body"), hl.layers.Dense(1, name="head")])
    mapping = hl.optimizers.OptimizerMap(hl.optimizers.Adam(0.02), {"head/.*": hl.optimizers.SGD(0.05, momentum=0.5)})
    model.compile(optimizer=hl.optimizers.MultiOptimizer(mapping), loss="mse")
    start = float(model.evaluate(x, y, verbose=0))
    model.fit(x, y, batch_size=16, epochs=10, verbose=0)
    assert float(model.evaluate(x, y, verbose=0)) < 0.5 * start
    assert [int(o.iterations.numpy()) for o in model.optimizer.optimizers] == [40, 40]

    path = str(tmp_path / "multi.keras")
    model.save(path)
    loaded = hl.saving.load_model(path)
    assert type(loaded.optimizer) is hl.optimizers.MultiOptimizer
    for a, b in zip(model.optimizer.variables, loaded.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    model.fit(x, y, batch_size=16, epochs=1, verbose=0, shuffle=False)
    loaded.fit(x, y, batch_size=16, epochs=1, verbose=0, shuffle=False)
    for a, b in zip(model.get_weights(), loaded.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop", "SGD"])
def test_legacy_names_raise_with_the_replacement(name):
    with pytest.raises(ImportError, match=f"hl.optimizers.{name} instead"):
        getattr(hl.optimizers.legacy, name)()
