"""Every optimizer and option against real Keras 3 (TensorFlow backend) on every backend.

Keras optimizers are driven directly (``keras.optimizers.X(...).apply(grads, vars)`` on ``keras.Variable``s)
from the same initial weights with the same gradient sequence; after 5 steps the weights (and, with
``use_ema``, their moving averages) must agree within 1e-6 relative.
"""

import functools

import numpy as np
import pytest

import highlevel as hl

from ._problem import SHAPES, gradient_sequence, initial_values

keras = pytest.importorskip("keras")

RTOL, ATOL = 1e-6, 1e-7
STEPS = 5

#: (id, optimizer class name, kwargs). Schedules are given as ("schedule", class name, kwargs) and built on
#: each side; "exclude" lists variable names excluded from weight decay; "constraint" puts NonNeg on kernel.
CASES = [
    ("sgd", "SGD", {"learning_rate": 0.1}),
    ("sgd-momentum", "SGD", {"learning_rate": 0.1, "momentum": 0.9}),
    ("sgd-nesterov", "SGD", {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True}),
    ("adam", "Adam", {"learning_rate": 0.05}),
    ("adam-amsgrad", "Adam", {"learning_rate": 0.05, "amsgrad": True}),
    ("adamw", "AdamW", {"learning_rate": 0.05}),
    ("adamw-exclude", "AdamW", {"learning_rate": 0.05, "weight_decay": 0.1, "exclude": ["bias"]}),
    ("rmsprop", "RMSprop", {"learning_rate": 0.01}),
    ("rmsprop-momentum", "RMSprop", {"learning_rate": 0.01, "momentum": 0.5}),
    ("rmsprop-centered", "RMSprop", {"learning_rate": 0.01, "centered": True}),
    ("rmsprop-centered-momentum", "RMSprop", {"learning_rate": 0.01, "centered": True, "momentum": 0.5, "rho": 0.8}),
    ("adagrad", "Adagrad", {"learning_rate": 0.1}),
    ("adagrad-init", "Adagrad", {"learning_rate": 0.1, "initial_accumulator_value": 0.5, "epsilon": 1e-5}),
    ("adadelta", "Adadelta", {"learning_rate": 1.0}),
    ("adadelta-rho", "Adadelta", {"learning_rate": 1.0, "rho": 0.5}),
    ("adamax", "Adamax", {"learning_rate": 0.05}),
    ("nadam", "Nadam", {"learning_rate": 0.05}),
    ("lion", "Lion", {"learning_rate": 0.01}),
    ("lion-betas", "Lion", {"learning_rate": 0.01, "beta_1": 0.5, "beta_2": 0.9}),
    ("adafactor", "Adafactor", {"learning_rate": 0.1}),
    (
        "adafactor-options",
        "Adafactor",
        {"learning_rate": 0.5, "beta_2_decay": -0.5, "epsilon_2": 1e-2, "clip_threshold": 0.5},
    ),
    ("ftrl", "Ftrl", {"learning_rate": 0.1}),
    (
        "ftrl-options",
        "Ftrl",
        {
            "learning_rate": 0.2,
            "learning_rate_power": -0.3,
            "initial_accumulator_value": 0.5,
            "l1_regularization_strength": 0.05,
            "l2_regularization_strength": 0.1,
            "l2_shrinkage_regularization_strength": 0.02,
            "beta": 0.3,
        },
    ),
    ("lamb", "Lamb", {"learning_rate": 0.05}),
    ("lamb-wd-ema", "Lamb", {"learning_rate": 0.05, "weight_decay": 0.1, "use_ema": True, "ema_momentum": 0.8}),
    ("muon", "Muon", {"learning_rate": 0.05}),
    ("muon-plain", "Muon", {"learning_rate": 0.05, "nesterov": False, "rms_rate": None, "ns_steps": 3}),
    ("muon-exclude", "Muon", {"learning_rate": 0.05, "exclude_layers": ["kern"], "adam_lr_ratio": 0.5}),
    ("accumulation-lamb", "Lamb", {"learning_rate": 0.05, "gradient_accumulation_steps": 2, "global_clipnorm": 1.0}),
    ("accumulation-ftrl", "Ftrl", {"learning_rate": 0.1, "gradient_accumulation_steps": 2, "clipnorm": 0.5}),
    # Base-class options.
    ("clipnorm", "Adam", {"learning_rate": 0.05, "clipnorm": 0.5}),
    ("clipvalue", "SGD", {"learning_rate": 0.1, "clipvalue": 0.5}),
    ("global_clipnorm", "RMSprop", {"learning_rate": 0.01, "global_clipnorm": 1.0}),
    ("weight_decay", "SGD", {"learning_rate": 0.1, "momentum": 0.5, "weight_decay": 0.2}),
    ("weight_decay-exclude", "Adam", {"learning_rate": 0.05, "weight_decay": 0.3, "exclude": ["kernel", "filt"]}),
    ("loss_scale", "Adam", {"learning_rate": 0.05, "loss_scale_factor": 4.0}),
    ("ema", "Adam", {"learning_rate": 0.05, "use_ema": True, "ema_momentum": 0.9}),
    (
        "ema-overwrite",
        "SGD",
        {"learning_rate": 0.1, "momentum": 0.5, "use_ema": True, "ema_momentum": 0.8, "ema_overwrite_frequency": 2},
    ),
    ("accumulation", "Adam", {"learning_rate": 0.05, "gradient_accumulation_steps": 2}),
    ("accumulation-nadam", "Nadam", {"learning_rate": 0.05, "gradient_accumulation_steps": 2}),
    (
        "accumulation-clip-wd",
        "SGD",
        {"learning_rate": 0.1, "momentum": 0.9, "gradient_accumulation_steps": 3, "clipnorm": 0.5, "weight_decay": 0.1},
    ),
    (
        "accumulation-ema",
        "Adamax",
        {
            "learning_rate": 0.05,
            "gradient_accumulation_steps": 2,
            "use_ema": True,
            "ema_momentum": 0.5,
            "ema_overwrite_frequency": 2,
        },
    ),
    ("constraint", "Adam", {"learning_rate": 0.3, "constraint": True}),
    (
        "schedule-exponential",
        "Adam",
        {
            "learning_rate": (
                "schedule",
                "ExponentialDecay",
                {"initial_learning_rate": 0.1, "decay_steps": 2, "decay_rate": 0.5},
            )
        },
    ),
    (
        "schedule-exponential-staircase-wd",
        "AdamW",
        {
            "weight_decay": 0.1,
            "learning_rate": (
                "schedule",
                "ExponentialDecay",
                {"initial_learning_rate": 0.1, "decay_steps": 2, "decay_rate": 0.5, "staircase": True},
            ),
        },
    ),
    (
        "schedule-piecewise",
        "SGD",
        {"learning_rate": ("schedule", "PiecewiseConstantDecay", {"boundaries": [1, 3], "values": [0.1, 0.05, 0.01]})},
    ),
    (
        "schedule-polynomial",
        "SGD",
        {
            "learning_rate": (
                "schedule",
                "PolynomialDecay",
                {"initial_learning_rate": 0.1, "decay_steps": 3, "power": 2.0, "cycle": True},
            )
        },
    ),
    (
        "schedule-inverse-time",
        "RMSprop",
        {
            "learning_rate": (
                "schedule",
                "InverseTimeDecay",
                {"initial_learning_rate": 0.05, "decay_steps": 1, "decay_rate": 0.5, "staircase": True},
            )
        },
    ),
    (
        "schedule-cosine-warmup",
        "Adam",
        {
            "learning_rate": (
                "schedule",
                "CosineDecay",
                {"initial_learning_rate": 0.0, "decay_steps": 3, "warmup_target": 0.1, "warmup_steps": 2, "alpha": 0.1},
            )
        },
    ),
    (
        "schedule-cosine-restarts",
        "Lion",
        {
            "learning_rate": (
                "schedule",
                "CosineDecayRestarts",
                {"initial_learning_rate": 0.01, "first_decay_steps": 1, "t_mul": 1.5, "m_mul": 0.5, "alpha": 0.1},
            )
        },
    ),
    (
        "schedule-adafactor",
        "Adafactor",
        {"learning_rate": ("schedule", "CosineDecay", {"initial_learning_rate": 0.5, "decay_steps": 4})},
    ),
]


def _build_kwargs(module, kwargs):
    kwargs = dict(kwargs)
    extras = {"exclude": kwargs.pop("exclude", None), "constraint": kwargs.pop("constraint", False)}
    lr = kwargs.get("learning_rate")
    if isinstance(lr, tuple):
        _, name, skw = lr
        kwargs["learning_rate"] = getattr(module.schedules, name)(**skw)
    return kwargs, extras


@functools.lru_cache(maxsize=None)
def _keras_result(case_id):
    """Runs the case on Keras; returns (weights, averages or None) as numpy arrays, in SHAPES order."""
    _, cls, kwargs = next(c for c in CASES if c[0] == case_id)
    kwargs, extras = _build_kwargs(keras.optimizers, kwargs)
    init = initial_values()
    variables = [keras.Variable(init[n], name=n) for n in SHAPES]
    if extras["constraint"]:
        variables[0].constraint = keras.constraints.NonNeg()
    opt = getattr(keras.optimizers, cls)(**kwargs)
    if extras["exclude"]:
        opt.exclude_from_weight_decay(var_names=extras["exclude"])
    for grads in gradient_sequence(STEPS):
        opt.apply([keras.ops.convert_to_tensor(g) for g in grads], variables)
    averages = [np.array(a.numpy()) for a in opt._model_variables_moving_average] if opt.use_ema else None
    return [np.array(v.numpy()) for v in variables], averages


def _hl_result(case_id):
    _, cls, kwargs = next(c for c in CASES if c[0] == case_id)
    kwargs, extras = _build_kwargs(hl.optimizers, kwargs)
    init = initial_values()
    variables = [hl.Variable(init[n], name=n) for n in SHAPES]
    if extras["constraint"]:
        variables[0].constraint = hl.constraints.NonNeg()
    opt = getattr(hl.optimizers, cls)(**kwargs)
    if extras["exclude"]:
        opt.exclude_from_weight_decay(var_names=extras["exclude"])
    for grads in gradient_sequence(STEPS):
        opt.apply([hl.ops.convert_to_tensor(g) for g in grads], variables)
    averages = [a.numpy() for a in opt._ema] if opt.use_ema else None
    return [v.numpy() for v in variables], averages, opt


@pytest.mark.parametrize("case_id", [c[0] for c in CASES])
def test_matches_keras(backend, case_id):
    want, want_avg = _keras_result(case_id)
    got, got_avg, opt = _hl_result(case_id)
    for name, g, w in zip(SHAPES, got, want):
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"{case_id}: variable {name}")
    if want_avg is not None:
        for name, g, w in zip(SHAPES, got_avg, want_avg):
            np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"{case_id}: average of {name}")
    assert int(opt.iterations.numpy()) == STEPS


def test_exclude_by_variable_object(backend):
    """``exclude_from_weight_decay(var_list=...)`` exempts exactly those variables."""
    init = initial_values()
    hv = [hl.Variable(init[n], name=n) for n in SHAPES]
    kv = [keras.Variable(init[n], name=n) for n in SHAPES]
    hopt, kopt = hl.optimizers.AdamW(0.05, weight_decay=0.2), keras.optimizers.AdamW(0.05, weight_decay=0.2)
    hopt.exclude_from_weight_decay(var_list=[hv[1]])
    kopt.exclude_from_weight_decay(var_list=[kv[1]])
    for grads in gradient_sequence(STEPS):
        hopt.apply([hl.ops.convert_to_tensor(g) for g in grads], hv)
        kopt.apply([keras.ops.convert_to_tensor(g) for g in grads], kv)
    for h, k in zip(hv, kv):
        np.testing.assert_allclose(h.numpy(), k.numpy(), rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize(
    "cls",
    [
        "SGD",
        "Adam",
        "AdamW",
        "RMSprop",
        "Adagrad",
        "Adadelta",
        "Adamax",
        "Nadam",
        "Lion",
        "Adafactor",
        "Ftrl",
        "Lamb",
        "Muon",
        "ScheduleFreeAdamW",
    ],
)
def test_config_keys_match_keras(cls):
    """Same constructor defaults and config keys as Keras (``name`` aside: Keras numbers its auto names)."""
    with hl.config.backend_scope("native"):
        ours = getattr(hl.optimizers, cls)().get_config()
    theirs = getattr(keras.optimizers, cls)().get_config()
    assert set(ours) == set(theirs)
    for key in theirs:
        if key != "name":
            assert (
                ours[key] == pytest.approx(theirs[key]) if isinstance(theirs[key], float) else ours[key] == theirs[key]
            ), key


@pytest.mark.parametrize(
    "cls",
    [
        "SGD",
        "Adam",
        "AdamW",
        "RMSprop",
        "Adagrad",
        "Adadelta",
        "Adamax",
        "Nadam",
        "Lion",
        "Adafactor",
        "Ftrl",
        "Lamb",
        "Muon",
        "ScheduleFreeAdamW",
        "MultiOptimizer",
    ],
)
def test_constructor_signature_matches_keras(cls):
    """The same parameters in the same order with the same defaults, so positional calls mean the same."""
    import inspect

    ours = inspect.signature(getattr(hl.optimizers, cls)).parameters
    theirs = inspect.signature(getattr(keras.optimizers, cls)).parameters
    assert list(ours) == list(theirs)
    for name, param in theirs.items():
        want = param.default
        assert ours[name].default == (pytest.approx(want) if isinstance(want, float) else want), name


@pytest.mark.parametrize(
    "cls,kwargs",
    [
        ("Ftrl", {"learning_rate": 0.1}),
        ("Lamb", {"learning_rate": 0.05, "use_ema": True, "ema_momentum": 0.8}),
        ("Muon", {"learning_rate": 0.05, "global_clipnorm": 2.0}),
    ],
)
def test_loss_scale_optimizer_wrapping_matches_keras(backend, cls, kwargs):
    """Scaled gradients with a non-finite step in the middle (skipped, scale halved), then growth after 2 good
    steps: weights and scale as Keras's LossScaleOptimizer around the same optimizer."""
    init = initial_values()
    steps = gradient_sequence(STEPS)
    steps[2] = [np.full_like(g, np.inf) if i == 0 else g for i, g in enumerate(steps[2])]

    def run(module, variable_cls):
        variables = [variable_cls(init[n], name=n) for n in SHAPES]
        opt = module.optimizers.LossScaleOptimizer(
            getattr(module.optimizers, cls)(**kwargs), initial_scale=8.0, dynamic_growth_steps=2
        )
        for grads in steps:
            opt.apply([module.ops.convert_to_tensor(g * 8.0) for g in grads], variables)
        return [np.asarray(v.numpy()) for v in variables], float(np.asarray(opt.dynamic_scale))

    want, want_scale = run(keras, keras.Variable)
    got, got_scale = run(hl, hl.Variable)
    assert got_scale == want_scale
    for name, g, w in zip(SHAPES, got, want):
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=name)
