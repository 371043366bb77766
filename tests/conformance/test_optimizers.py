"""Every optimizer and schedule against a float64 numpy reference of its update rule, on every backend.

The problem is fixed: a separable quadratic ``0.5 * sum(A * (w - target)**2)`` over a matrix and a vector,
whose gradient ``A * (w - target)`` is computed with ``hl.ops`` from the current weights. Each optimizer
runs 20 steps in float32 and in float64; the weights are compared with the reference's (DEFAULTS of
tolerances.py, except the entries of :data:`WIDER`). The learning rate lives in a float32 variable, so the
reference uses the float32-rounded rate. The target is far from the start, so that no gradient changes sign
and Lion's ``sign`` is never evaluated near zero.
"""

import math

import numpy as np
import pytest

import highlevel as hl

from .tolerances import DEFAULTS

STEPS = 20
SHAPES = ((3, 4), (4,))

#: Tolerances wider than DEFAULTS, with the reason for each.
WIDER = {
    ("float32", "Adadelta"): (
        (1e-4, 1e-6),
        "its step is a ratio of two square roots of running averages that "
        "start at epsilon=1e-7: each float32 rounding is magnified ~100x "
        "relative to the tiny steps, over 20 steps",
    ),
    ("float32", "Adam"): (
        (1e-5, 2e-5),
        "float32(0.999) is 0.99900001: 1 - beta_2**t at t=1 is off by 1.3e-5 "
        "relative, and that bias correction scales every early step",
    ),
    ("float32", "AdamW"): ((1e-5, 2e-5), "as Adam"),
    ("float32", "Muon"): ((1e-5, 2e-5), "as Adam: its vectors take Adam steps"),
    ("float64", "*"): ((1e-9, 1e-12), "20 steps of sqrt/power/divide chains: a few float64 ulps per step"),
}


def _tolerance(dtype, name):
    for key in ((dtype, name), (dtype, "*")):
        if key in WIDER:
            return WIDER[key][0]
    return DEFAULTS[dtype]


def _problem(dtype):
    rng = np.random.default_rng(7)
    init = [rng.uniform(-1, 1, size=s) for s in SHAPES]
    scale = [rng.uniform(0.5, 2.0, size=s) for s in SHAPES]
    target = [np.full(s, 20.0) for s in SHAPES]
    return [x.astype(dtype) for x in init], [x.astype(dtype) for x in scale], [x.astype(dtype) for x in target]


def _lr32(lr):
    return float(np.float32(lr))


# ---------------------------------------------------------------- references (one array, float64)
def ref_sgd(w, g, s, t, lr, momentum=0.0, nesterov=False):
    if momentum == 0:
        return w - lr * g
    s["m"] = momentum * s.get("m", 0.0) - lr * g
    return w + (momentum * s["m"] - lr * g if nesterov else s["m"])


def ref_adam(w, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False):
    s["m"] = beta_1 * s.get("m", 0.0) + (1 - beta_1) * g
    s["v"] = beta_2 * s.get("v", 0.0) + (1 - beta_2) * g * g
    v = s["v"]
    if amsgrad:
        s["vhat"] = v = np.maximum(s.get("vhat", 0.0), v)
    return w - lr * math.sqrt(1 - beta_2**t) / (1 - beta_1**t) * s["m"] / (np.sqrt(v) + epsilon)


def ref_adamw(w, g, s, t, lr, weight_decay=0.004, **kw):
    return ref_adam(w - w * weight_decay * lr, g, s, t, lr, **kw)


def ref_rmsprop(w, g, s, t, lr, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False):
    s["v"] = rho * s.get("v", 0.0) + (1 - rho) * g * g
    denom = s["v"] + epsilon
    if centered:
        s["a"] = rho * s.get("a", 0.0) + (1 - rho) * g
        denom = denom - s["a"] ** 2
    inc = lr * g / np.sqrt(denom)
    if momentum > 0:
        s["m"] = momentum * s.get("m", 0.0) + inc
        inc = s["m"]
    return w - inc


def ref_adagrad(w, g, s, t, lr, initial_accumulator_value=0.1, epsilon=1e-7):
    s["acc"] = s.get("acc", initial_accumulator_value) + g * g
    return w - lr * g / np.sqrt(s["acc"] + epsilon)


def ref_adadelta(w, g, s, t, lr, rho=0.95, epsilon=1e-7):
    s["g2"] = rho * s.get("g2", 0.0) + (1 - rho) * g * g
    delta = -np.sqrt(s.get("d2", 0.0) + epsilon) / np.sqrt(s["g2"] + epsilon) * g
    s["d2"] = rho * s.get("d2", 0.0) + (1 - rho) * delta**2
    return w + lr * delta


def ref_adamax(w, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    s["m"] = beta_1 * s.get("m", 0.0) + (1 - beta_1) * g
    s["u"] = np.maximum(beta_2 * s.get("u", 0.0), np.abs(g))
    return w - lr * s["m"] / ((1 - beta_1**t) * (s["u"] + epsilon))


def ref_nadam(w, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    u_t = beta_1 * (1 - 0.5 * 0.96**t)
    u_next = beta_1 * (1 - 0.5 * 0.96 ** (t + 1))
    # The momentum-cache product is shared by all variables: the runner keeps it in s["shared"].
    prod = s["shared"].setdefault(t, s["shared"].get(t - 1, 1.0) * u_t)
    s["m"] = beta_1 * s.get("m", 0.0) + (1 - beta_1) * g
    s["v"] = beta_2 * s.get("v", 0.0) + (1 - beta_2) * g * g
    m_hat = u_next * s["m"] / (1 - prod * u_next) + (1 - u_t) * g / (1 - prod)
    return w - lr * m_hat / (np.sqrt(s["v"] / (1 - beta_2**t)) + epsilon)


def ref_lion(w, g, s, t, lr, beta_1=0.9, beta_2=0.99):
    m = s.get("m", 0.0)
    s["m"] = beta_2 * m + (1 - beta_2) * g
    return w - lr * np.sign(beta_1 * m + (1 - beta_1) * g)


def ref_ftrl(
    w, g, s, t, lr, learning_rate_power=-0.5, initial_accumulator_value=0.1, l1=0.0, l2=0.0, l2_shrinkage=0.0, beta=0.0
):
    p = -learning_rate_power
    n = s.get("n", initial_accumulator_value)
    n_new = n + g * g
    s["z"] = s.get("z", 0.0) + g + 2 * l2_shrinkage * w - (n_new**p - n**p) / lr * w
    s["n"] = n_new
    z = s["z"]
    return (np.clip(z, -l1, l1) - z) / (n_new**p / lr + 2 * (l2 + beta / (2 * lr)))


def ref_lamb(w, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    s["m"] = beta_1 * s.get("m", 0.0) + (1 - beta_1) * g
    s["v"] = beta_2 * s.get("v", 0.0) + (1 - beta_2) * g * g
    u = (s["m"] / (1 - beta_1**t)) / (np.sqrt(s["v"] / (1 - beta_2**t)) + epsilon)
    w_norm, u_norm = np.linalg.norm(w), np.linalg.norm(u)
    ratio = w_norm / u_norm if w_norm > 0 and u_norm > 0 else 1.0
    return w - lr * ratio * u


def ref_schedule_free_adamw(w, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-8):
    """Keeps the average x explicitly (the optimizer recovers it from the weights): an independent check."""
    z, x = s.get("z", w), s.get("x", w)
    s["v"] = beta_2 * s.get("v", 0.0) + (1 - beta_2) * g * g
    z = z - lr * g / (np.sqrt(s["v"] / (1 - beta_2**t)) + epsilon)
    x = (1 - 1 / t) * x + z / t
    s["z"], s["x"] = z, x
    return (1 - beta_1) * z + beta_1 * x


def ref_muon(w, g, s, t, lr, momentum=0.95, ns_steps=5, rms_rate=0.2, coefficients=(3.4445, -4.7750, 2.0315)):
    """Nesterov momentum orthogonalized by quintic Newton-Schulz for matrices; Adam (the bias-corrected form)
    for the rest. Weight decay is off in the case."""
    if w.ndim != 2:
        return ref_adam(w, g, s, t, lr)
    s["m"] = momentum * s.get("m", 0.0) + g
    x = g + momentum * s["m"]
    tall = x.shape[0] > x.shape[1]
    x = x.T if tall else x
    x = x / (np.linalg.norm(x) + 1e-7)
    a, b, c = coefficients
    for _ in range(ns_steps):
        gram = x @ x.T
        x = a * x + (b * gram + c * gram @ gram) @ x
    x = x.T if tall else x
    return w - lr * x * math.sqrt(max(w.shape)) * rms_rate


def ref_adafactor(w, g, s, t, lr, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3, clip_threshold=1.0):
    rms = lambda x: np.sqrt(np.mean(x**2))  # noqa: E731
    rho = min(lr, 1 / math.sqrt(t))
    alpha = max(epsilon_2, rms(w)) * rho
    g2 = g * g + epsilon_1
    beta = 1 - t**beta_2_decay
    if w.ndim >= 2:
        s["r"] = beta * s.get("r", 0.0) + (1 - beta) * g2.mean(-1)
        s["c"] = beta * s.get("c", 0.0) + (1 - beta) * g2.mean(-2)
        v = (s["r"] / s["r"].mean(-1, keepdims=True))[..., None] * s["c"][..., None, :]
    else:
        s["v"] = v = beta * s.get("v", 0.0) + (1 - beta) * g2
    u = g / np.sqrt(v)
    return w - alpha * u / max(1.0, rms(u) / clip_threshold)


#: (id, class name, kwargs, reference, reference kwargs)
CASES = [
    ("sgd", "SGD", {"learning_rate": 0.05}, ref_sgd, {}),
    (
        "sgd-nesterov",
        "SGD",
        {"learning_rate": 0.01, "momentum": 0.9, "nesterov": True},
        ref_sgd,
        {"momentum": 0.9, "nesterov": True},
    ),
    ("adam", "Adam", {"learning_rate": 0.05}, ref_adam, {}),
    (
        "adam-amsgrad",
        "Adam",
        {"learning_rate": 0.05, "amsgrad": True, "beta_2": 0.9},
        ref_adam,
        {"amsgrad": True, "beta_2": 0.9},
    ),
    ("adamw", "AdamW", {"learning_rate": 0.05, "weight_decay": 0.1}, ref_adamw, {"weight_decay": 0.1}),
    ("rmsprop", "RMSprop", {"learning_rate": 0.01}, ref_rmsprop, {}),
    (
        "rmsprop-centered",
        "RMSprop",
        {"learning_rate": 0.01, "centered": True, "momentum": 0.5},
        ref_rmsprop,
        {"centered": True, "momentum": 0.5},
    ),
    ("adagrad", "Adagrad", {"learning_rate": 0.1}, ref_adagrad, {}),
    ("adadelta", "Adadelta", {"learning_rate": 1.0}, ref_adadelta, {}),
    ("adamax", "Adamax", {"learning_rate": 0.05}, ref_adamax, {}),
    ("nadam", "Nadam", {"learning_rate": 0.05}, ref_nadam, {}),
    ("lion", "Lion", {"learning_rate": 0.01}, ref_lion, {}),
    ("adafactor", "Adafactor", {"learning_rate": 0.1}, ref_adafactor, {}),
    ("ftrl", "Ftrl", {"learning_rate": 0.2}, ref_ftrl, {}),
    (
        "ftrl-options",
        "Ftrl",
        {
            "learning_rate": 0.2,
            "learning_rate_power": -0.3,
            "l1_regularization_strength": 0.01,
            "l2_regularization_strength": 0.1,
            "l2_shrinkage_regularization_strength": 0.05,
            "beta": 0.2,
        },
        ref_ftrl,
        {"learning_rate_power": -0.3, "l1": 0.01, "l2": 0.1, "l2_shrinkage": 0.05, "beta": 0.2},
    ),
    ("lamb", "Lamb", {"learning_rate": 0.05}, ref_lamb, {}),
    ("schedule-free-adamw", "ScheduleFreeAdamW", {"learning_rate": 0.05}, ref_schedule_free_adamw, {}),
    ("muon", "Muon", {"learning_rate": 0.02, "weight_decay": 0.0, "adam_weight_decay": 0.0}, ref_muon, {}),
]


def _reference(ref, ref_kwargs, lr, dtype):
    init, scale, target = _problem(dtype)
    ws = [x.astype("float64") for x in init]
    states = [{"shared": {}} for _ in ws]
    shared = {}
    for st in states:
        st["shared"] = shared
    for t in range(1, STEPS + 1):
        grads = [a.astype("float64") * (w - c.astype("float64")) for w, a, c in zip(ws, scale, target)]
        ws = [ref(w, g, s, t, lr, **ref_kwargs) for w, g, s in zip(ws, grads, states)]
    return ws


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_optimizer_matches_reference(backend, case, dtype):
    _, cls, kwargs, ref, ref_kwargs = case
    init, scale, target = _problem(dtype)
    variables = [hl.Variable(x, name=f"w{i}") for i, x in enumerate(init)]
    opt = getattr(hl.optimizers, cls)(**kwargs)
    a = [hl.ops.convert_to_tensor(x) for x in scale]
    c = [hl.ops.convert_to_tensor(x) for x in target]
    for _ in range(STEPS):
        grads = [hl.ops.multiply(ai, hl.ops.subtract(v.value, ci)) for v, ai, ci in zip(variables, a, c)]
        opt.apply(grads, variables)
    want = _reference(ref, ref_kwargs, _lr32(kwargs["learning_rate"]), dtype)
    rtol, atol = _tolerance(dtype, cls)
    for v, w in zip(variables, want):
        assert v.numpy().dtype == np.dtype(dtype)
        np.testing.assert_allclose(v.numpy(), w, rtol=rtol, atol=atol, err_msg=f"{cls} {dtype}")


# ---------------------------------------------------------------- schedules
def _sgdr_period(fraction, t_mul):
    """(index, fraction within) of the SGDR period holding ``fraction`` (in first periods), by walking."""
    i, start, length = 0, 0.0, 1.0
    while fraction >= start + length:
        start, length, i = start + length, length * t_mul, i + 1
    return i, (fraction - start) / length


SCHEDULE_REFS = [
    (
        "ExponentialDecay",
        {"initial_learning_rate": 0.1, "decay_steps": 7, "decay_rate": 0.8},
        lambda t: 0.1 * 0.8 ** (t / 7),
    ),
    (
        "ExponentialDecay-staircase",
        {"initial_learning_rate": 0.1, "decay_steps": 7, "decay_rate": 0.8, "staircase": True},
        lambda t: 0.1 * 0.8 ** (t // 7),
    ),
    (
        "PiecewiseConstantDecay",
        {"boundaries": [5, 20, 40], "values": [1.0, 0.5, 0.1, 0.01]},
        lambda t: 1.0 if t <= 5 else 0.5 if t <= 20 else 0.1 if t <= 40 else 0.01,
    ),
    (
        "PolynomialDecay",
        {"initial_learning_rate": 0.1, "decay_steps": 30, "end_learning_rate": 0.01, "power": 2.0},
        lambda t: 0.09 * (1 - min(t, 30) / 30) ** 2 + 0.01,
    ),
    (
        "PolynomialDecay-cycle",
        {"initial_learning_rate": 0.1, "decay_steps": 13, "power": 0.5, "cycle": True},
        lambda t: (0.1 - 1e-4) * (1 - t / (13 * max(1, math.ceil(t / 13)))) ** 0.5 + 1e-4,
    ),
    (
        "InverseTimeDecay",
        {"initial_learning_rate": 0.1, "decay_steps": 5, "decay_rate": 0.5},
        lambda t: 0.1 / (1 + 0.5 * t / 5),
    ),
    (
        "InverseTimeDecay-staircase",
        {"initial_learning_rate": 0.1, "decay_steps": 5, "decay_rate": 0.5, "staircase": True},
        lambda t: 0.1 / (1 + 0.5 * (t // 5)),
    ),
    (
        "CosineDecay",
        {"initial_learning_rate": 0.1, "decay_steps": 40, "alpha": 0.2},
        lambda t: 0.1 * (0.8 * 0.5 * (1 + math.cos(math.pi * min(t, 40) / 40)) + 0.2),
    ),
    (
        "CosineDecay-warmup",
        {"initial_learning_rate": 0.01, "decay_steps": 40, "warmup_target": 0.2, "warmup_steps": 10},
        lambda t: 0.01 + 0.19 * t / 10 if t < 10 else 0.2 * 0.5 * (1 + math.cos(math.pi * min(t - 10, 40) / 40)),
    ),
    (
        "CosineDecayRestarts",
        {"initial_learning_rate": 0.1, "first_decay_steps": 4, "t_mul": 1.0, "m_mul": 0.8, "alpha": 0.1},
        lambda t: 0.1 * (0.9 * 0.5 * 0.8 ** (t // 4) * (1 + math.cos(math.pi * (t / 4 - t // 4))) + 0.1),
    ),
    (
        "CosineDecayRestarts-geometric",
        {"initial_learning_rate": 0.1, "first_decay_steps": 4, "t_mul": 1.5, "m_mul": 0.5},
        lambda t: (lambda i, f: 0.1 * 0.5 * 0.5**i * (1 + math.cos(math.pi * f)))(*_sgdr_period(t / 4, 1.5)),
    ),
    (
        "CosineDecayRestarts-double",
        {"initial_learning_rate": 0.1, "first_decay_steps": 3},
        lambda t: (lambda i, f: 0.1 * 0.5 * (1 + math.cos(math.pi * f)))(*_sgdr_period(t / 3, 2.0)),
    ),
]

#: float32 schedule values against float64: default rtol, and an absolute floor for the cosine schedules,
#: whose ``1 + cos`` cancels near the minimum (1e-8 absolute on rates of order 0.1).
SCHEDULE_TOL = (1e-5, 1e-8)
#: Wider, with the reason.
SCHEDULE_WIDER = {
    "PolynomialDecay-cycle": (
        (1e-5, 1e-7),
        "late in a long cycle 1 - step / (13 k) cancels in float32, and the "
        "power 0.5 halves the exponent but not the relative error",
    ),
}


@pytest.mark.parametrize("entry", SCHEDULE_REFS, ids=[e[0] for e in SCHEDULE_REFS])
def test_schedule_matches_reference(backend, entry):
    name, kwargs, ref = entry
    schedule = getattr(hl.optimizers.schedules, name.split("-")[0])(**kwargs)
    steps = list(range(0, 200)) + [500, 1000, 12345]
    got = np.array([hl.ops.convert_to_numpy(schedule(hl.ops.convert_to_tensor(np.int64(t)))) for t in steps])
    want = np.array([ref(t) for t in steps])
    rtol, atol = SCHEDULE_WIDER.get(name, (SCHEDULE_TOL, None))[0]
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=name)
