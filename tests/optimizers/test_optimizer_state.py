"""Optimizer state is plain variables: saved as numpy arrays and assigned into a fresh optimizer, training
continues identically. Also: ``iterations``, the ``learning_rate`` setter, ``get``/``serialize`` and
argument validation."""

import numpy as np
import pytest

import highlevel as hl

from ._problem import SHAPES, gradient_sequence, initial_values

#: (class name, kwargs) covering every optimizer and the options that add state variables.
STATEFUL = [
    ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True}),
    ("Adam", {"learning_rate": 0.05, "amsgrad": True}),
    ("AdamW", {"learning_rate": 0.05}),
    ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5, "centered": True}),
    ("Adagrad", {"learning_rate": 0.1}),
    ("Adadelta", {"learning_rate": 1.0}),
    ("Adamax", {"learning_rate": 0.05}),
    ("Nadam", {"learning_rate": 0.05}),
    ("Lion", {"learning_rate": 0.01}),
    ("Adafactor", {"learning_rate": 0.1}),
    ("Ftrl", {"learning_rate": 0.1, "l1_regularization_strength": 0.01}),
    ("Lamb", {"learning_rate": 0.05}),
    ("Muon", {"learning_rate": 0.05}),
    ("ScheduleFreeAdamW", {"learning_rate": 0.05, "warmup_steps": 2}),
    ("Adam", {"learning_rate": 0.05, "use_ema": True, "ema_overwrite_frequency": 3}),
    ("Nadam", {"learning_rate": 0.05, "gradient_accumulation_steps": 2}),
    ("SGD", {"learning_rate": hl.optimizers.schedules.ExponentialDecay(0.1, 2, 0.5), "momentum": 0.5}),
]


def _setup(cls, kwargs):
    init = initial_values()
    variables = [hl.Variable(init[n], name=n) for n in SHAPES]
    opt = getattr(hl.optimizers, cls)(**kwargs)
    opt.build(variables)
    return variables, opt


def _step(opt, variables, grads):
    opt.apply([hl.ops.convert_to_tensor(g) for g in grads], variables)


@pytest.mark.parametrize("cls,kwargs", STATEFUL, ids=[f"{c}-{i}" for i, (c, _) in enumerate(STATEFUL)])
def test_state_save_and_restore(backend, cls, kwargs):
    grads = gradient_sequence(7)
    variables, opt = _setup(cls, kwargs)
    for g in grads[:3]:
        _step(opt, variables, g)
    saved_state = [v.numpy() for v in opt.variables]
    saved_weights = [v.numpy() for v in variables]
    # np.generic: the TensorFlow backend's to_numpy gives numpy scalars for 0-d tensors (reported).
    assert all(isinstance(s, (np.ndarray, np.generic)) for s in saved_state)

    variables2, opt2 = _setup(cls, kwargs)
    assert [tuple(v.shape) for v in opt2.variables] == [np.shape(s) for s in saved_state]
    for v, s in zip(opt2.variables, saved_state):
        v.assign(s)
    for v, s in zip(variables2, saved_weights):
        v.assign(s)
    for g in grads[3:]:
        _step(opt, variables, g)
        _step(opt2, variables2, g)
    for a, b in zip(variables, variables2):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    for a, b in zip(opt.variables, opt2.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_iterations_count(backend):
    for kwargs in ({}, {"gradient_accumulation_steps": 3}):
        variables, opt = _setup("Adam", kwargs)
        assert int(opt.iterations.numpy()) == 0
        for i, g in enumerate(gradient_sequence(4), 1):
            returned = opt.apply([hl.ops.convert_to_tensor(x) for x in g], variables)
            assert returned is opt.iterations
            assert int(opt.iterations.numpy()) == i


def test_apply_gradients_and_apply_without_variables(backend):
    variables, opt = _setup("SGD", {"learning_rate": 0.1})
    grads = [hl.ops.convert_to_tensor(g) for g in gradient_sequence(1)[0]]
    opt.apply_gradients(zip(grads, variables))
    opt.apply(grads)  # built: the gradients match the variables it was built with
    init = initial_values()
    for v, n, g in zip(variables, SHAPES, gradient_sequence(1)[0]):
        np.testing.assert_allclose(v.numpy(), init[n] - 0.2 * g, rtol=1e-6, atol=1e-7)
    assert int(opt.iterations.numpy()) == 2


def test_none_gradients_are_skipped(backend):
    variables, opt = _setup("SGD", {"learning_rate": 0.1})
    before = variables[1].numpy()
    grads = [hl.ops.convert_to_tensor(g) for g in gradient_sequence(1)[0]]
    opt.apply([grads[0], None, grads[2]], variables)
    np.testing.assert_array_equal(variables[1].numpy(), before)
    with pytest.raises(ValueError, match="No gradients"):
        opt.apply([None, None, None], variables)


def test_unknown_variable_is_an_error(backend):
    variables, opt = _setup("Adam", {})
    other = hl.Variable(np.ones((4,), "float32"), name="other")
    with pytest.raises(ValueError, match="Unknown variable"):
        opt.apply([hl.ops.ones((4,))], [other])


def test_learning_rate_setter(backend):
    variables, opt = _setup("SGD", {"learning_rate": 0.1})
    opt.learning_rate = 0.5
    assert float(hl.ops.convert_to_numpy(opt.learning_rate)) == 0.5
    g = gradient_sequence(1)[0]
    _step(opt, variables, g)
    np.testing.assert_allclose(variables[0].numpy(), initial_values()["kernel"] - 0.5 * g[0], rtol=1e-6, atol=1e-7)
    opt.learning_rate = np.float32(0.25)
    assert float(hl.ops.convert_to_numpy(opt.learning_rate)) == 0.25
    assert opt.get_config()["learning_rate"] == 0.25


def test_learning_rate_setter_errors_for_a_schedule(backend):
    schedule = hl.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
    opt = hl.optimizers.Adam(learning_rate=schedule)
    with pytest.raises(TypeError, match="LearningRateSchedule"):
        opt.learning_rate = 0.01
    # The schedule is evaluated at the current iteration.
    opt.iterations.assign(10)
    assert float(hl.ops.convert_to_numpy(opt.learning_rate)) == pytest.approx(0.05)


def test_swap_ema_weights_and_finalize(backend):
    variables, opt = _setup("SGD", {"learning_rate": 0.1, "use_ema": True, "ema_momentum": 0.5})
    for g in gradient_sequence(3):
        _step(opt, variables, g)
    weights, averages = [v.numpy() for v in variables], [a.numpy() for a in opt._ema]
    opt.swap_ema_weights(variables)
    for v, a in zip(variables, averages):
        np.testing.assert_array_equal(v.numpy(), a)
    opt.swap_ema_weights(variables)
    for v, w in zip(variables, weights):
        np.testing.assert_array_equal(v.numpy(), w)
    opt.finalize_variable_values(variables)
    for v, a in zip(variables, averages):
        np.testing.assert_array_equal(v.numpy(), a)
    with pytest.raises(ValueError, match="use_ema"):
        hl.optimizers.SGD().swap_ema_weights(variables)


NAMES = [
    "sgd",
    "adam",
    "adamw",
    "rmsprop",
    "adagrad",
    "adadelta",
    "adamax",
    "nadam",
    "lion",
    "adafactor",
    "ftrl",
    "lamb",
    "muon",
    "schedulefreeadamw",
]


@pytest.mark.parametrize("name", NAMES)
def test_get_and_serialize_round_trip(backend, name):
    opt = hl.optimizers.get(name)
    assert type(opt).__name__.lower() == name
    assert type(hl.optimizers.get(type(opt).__name__)) is type(opt)
    assert hl.optimizers.get(opt) is opt
    again = hl.optimizers.deserialize(hl.optimizers.serialize(opt))
    assert type(again) is type(opt) and again.get_config() == opt.get_config()
    assert type(hl.optimizers.get(hl.optimizers.serialize(opt))) is type(opt)


def test_schedule_round_trips_through_optimizer_config(backend):
    schedule = hl.optimizers.schedules.CosineDecay(0.1, decay_steps=100, alpha=0.1, warmup_target=0.2, warmup_steps=10)
    opt = hl.optimizers.Lion(learning_rate=schedule, clipnorm=1.0)
    config = opt.get_config()
    assert config["learning_rate"]["class_name"] == "CosineDecay"
    again = hl.optimizers.Lion.from_config(config)
    assert again.get_config() == config
    again.iterations.assign(7)
    opt.iterations.assign(7)
    assert float(hl.ops.convert_to_numpy(again.learning_rate)) == float(hl.ops.convert_to_numpy(opt.learning_rate))


def test_get_errors():
    with pytest.raises(ValueError, match="Unknown optimizer"):
        hl.optimizers.get("adamm")
    with pytest.raises(TypeError, match="Could not interpret"):
        hl.optimizers.get(3)
    with pytest.raises(ValueError, match="Unknown optimizer class"):
        hl.optimizers.deserialize({"class_name": "Mystery", "config": {}})


@pytest.mark.parametrize(
    "cls,kwargs,match",
    [
        ("SGD", {"momentum": 1.5}, "momentum"),
        ("SGD", {"clipnorm": 1.0, "clipvalue": 1.0}, "Only one"),
        ("SGD", {"learning_rate": -1.0}, "learning_rate"),
        ("SGD", {"learning_rate": lambda: 0.1}, "LearningRateSchedule"),
        ("SGD", {"gradient_accumulation_steps": 1}, "gradient_accumulation_steps"),
        ("SGD", {"ema_momentum": 2.0}, "ema_momentum"),
        ("SGD", {"unknown_option": 1}, "unknown_option"),
        ("AdamW", {"weight_decay": None}, "weight_decay"),
        ("RMSprop", {"rho": 1.5}, "rho"),
        ("RMSprop", {"epsilon": -1.0}, "epsilon"),
        ("Adagrad", {"initial_accumulator_value": -0.1}, "initial_accumulator_value"),
        ("Adadelta", {"rho": "high"}, "rho"),
        ("Adamax", {"beta_1": 1.0}, "beta_1"),
        ("Nadam", {"beta_2": -0.1}, "beta_2"),
        ("Lion", {"beta_1": 0.0}, "beta_1"),
        ("Adafactor", {"clip_threshold": 0.0}, "clip_threshold"),
        ("Adafactor", {"beta_2_decay": 0.5}, "beta_2_decay"),
        ("Ftrl", {"learning_rate_power": 0.5}, "learning_rate_power"),
        ("Ftrl", {"initial_accumulator_value": -1.0}, "initial_accumulator_value"),
        ("Ftrl", {"l1_regularization_strength": -0.1}, "l1_regularization_strength"),
        ("Lamb", {"beta_1": 1.0}, "beta_1"),
        ("Muon", {"ns_steps": 2.5}, "ns_steps"),
        ("Muon", {"exclude_layers": [3]}, "exclude_layers"),
        ("ScheduleFreeAdamW", {"beta_1": 0.0}, "beta_1"),
        ("ScheduleFreeAdamW", {"warmup_steps": -1}, "warmup_steps"),
    ],
)
def test_invalid_arguments(backend, cls, kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        getattr(hl.optimizers, cls)(**kwargs)


def test_fit_ends_with_the_moving_average_weights(backend):
    # Keras: at the end of fit, an optimizer with use_ema overwrites the weights with their moving averages.
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
    model.compile(optimizer=hl.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5), loss="mse")
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(16, 3)).astype("float32"), rng.normal(size=(16, 2)).astype("float32")
    averages = []
    record = hl.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: averages.append([a.numpy() for a in model.optimizer._ema])
    )
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, callbacks=[record])
    for weight, average in zip(model.get_weights(), averages[-1]):
        np.testing.assert_allclose(weight, average, rtol=1e-6)
