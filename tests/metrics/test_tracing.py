"""Losses and metrics under tracing: inside ``jax.jit`` (through a StatelessScope over the metric's
variables, as JAX training steps run them) and inside ``tf.function``, the numbers equal eager ones."""

import numpy as np
import pytest

import highlevel as hl
import highlevel.losses  # noqa: F401
from highlevel import losses, metrics
from highlevel.backends.contract import StatelessScope

R = np.random.default_rng(0)
Y_SPARSE = R.integers(0, 4, size=(8,)).astype("int32")
Y_SPARSE[0] = -1  # ignored below
LOGITS = R.normal(scale=3, size=(8, 4)).astype("float32")
LOGITS[1, 2] = 1e4
Y_BIN = R.integers(0, 2, size=(8, 3)).astype("float32")
P_BIN = R.uniform(0, 1, size=(8, 3)).astype("float32")
Y_REG = R.normal(size=(8, 2)).astype("float32")
P_REG = R.normal(size=(8, 2)).astype("float32")
SW = R.uniform(0, 1, size=(8,)).astype("float32")


def _metric_cases():
    return [
        ("Mean", lambda: metrics.Mean(), lambda: (P_REG[:, 0],), {"sample_weight": SW}),
        (
            "SparseCategoricalAccuracy",
            lambda: metrics.SparseCategoricalAccuracy(),
            lambda: (np.abs(Y_SPARSE), LOGITS),
            {},
        ),
        ("AUC", lambda: metrics.AUC(num_thresholds=50), lambda: (Y_BIN, P_BIN), {"sample_weight": SW}),
        ("AUC-multi", lambda: metrics.AUC(multi_label=True, num_labels=3, curve="PR"), lambda: (Y_BIN, P_BIN), {}),
        ("Precision", lambda: metrics.Precision(top_k=2), lambda: (Y_BIN, P_BIN), {}),
        ("Recall", lambda: metrics.Recall(thresholds=[0.2, 0.5]), lambda: (Y_BIN, P_BIN), {"sample_weight": SW}),
        ("F1Score", lambda: metrics.F1Score(average="macro"), lambda: (Y_BIN, P_BIN), {}),
        ("R2Score", lambda: metrics.R2Score(num_regressors=1), lambda: (Y_REG, P_REG), {}),
        (
            "SparseCategoricalCrossentropy",
            lambda: metrics.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1),
            lambda: (Y_SPARSE, LOGITS),
            {"sample_weight": SW},
        ),
        ("Hinge", lambda: metrics.Hinge(), lambda: (Y_BIN, P_BIN), {}),
    ]


def _built(make, args, kwargs):
    """A metric whose lazily created state exists (one eager update, then reset)."""
    m = make()
    m.update_state(*args, **kwargs)
    m.reset_state()
    return m


def _eager_results(make, args, kwargs):
    with hl.config.backend_scope("native"):
        m = make()
        out = []
        for _ in range(2):
            m.update_state(*args, **kwargs)
            out.append(np.asarray(hl.ops.convert_to_numpy(m.result())))
        return out


@pytest.mark.parametrize("case", _metric_cases(), ids=lambda c: c[0])
def test_metric_inside_jax_jit(case):
    jax = pytest.importorskip("jax")
    _, make, data, kwargs = case
    args = data()
    want = _eager_results(make, args, kwargs)
    with hl.config.backend_scope("jax"):
        m = _built(make, args, kwargs)
        variables = m.variables

        @jax.jit
        def step(values, *inputs):
            with StatelessScope(dict(zip(variables, values))) as scope:
                m.update_state(*inputs, **kwargs)
                result = m.result()
            return [scope.values.get(id(v)) for v in variables], result

        values = [v.value for v in variables]
        for w in want:
            values, result = step(values, *args)
            np.testing.assert_allclose(np.asarray(result), w, rtol=1e-5, atol=1e-6)
        # the variables themselves did not change: the state travelled through `values`
        assert all(not np.any(np.asarray(v.value)) for v in variables)
        for v, new in zip(variables, values):
            v.assign(new)
        np.testing.assert_allclose(np.asarray(m.result()), want[-1], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", _metric_cases(), ids=lambda c: c[0])
def test_metric_inside_tf_function(case):
    tf = pytest.importorskip("tensorflow")
    _, make, data, kwargs = case
    args = data()
    want = _eager_results(make, args, kwargs)
    with hl.config.backend_scope("tensorflow"):
        m = _built(make, args, kwargs)

        @tf.function
        def step(*inputs):
            m.update_state(*inputs, **kwargs)
            return m.result()

        for w in want:
            np.testing.assert_allclose(step(*args).numpy(), w, rtol=1e-5, atol=1e-6)

        tf.function(m.reset_state)()
        assert all(not np.any(v.numpy()) for v in m.variables)


LOSS_CASES = [
    (
        "SparseCategoricalCrossentropy",
        lambda: losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1),
        (Y_SPARSE, LOGITS),
    ),
    ("BinaryCrossentropy", lambda: losses.BinaryCrossentropy(label_smoothing=0.1), (Y_BIN, P_BIN)),
    ("Hinge", lambda: losses.Hinge(reduction="sum"), (Y_BIN, P_BIN)),
    ("Huber", lambda: losses.Huber(delta=0.5, reduction="mean_with_sample_weight"), (Y_REG, P_REG)),
]


@pytest.mark.parametrize("case", LOSS_CASES, ids=lambda c: c[0])
def test_loss_inside_jit_and_tf_function(case):
    jax = pytest.importorskip("jax")
    tf = pytest.importorskip("tensorflow")
    _, make, (y_true, y_pred) = case
    loss = make()
    with hl.config.backend_scope("native"):
        want = float(hl.ops.convert_to_numpy(loss(y_true, y_pred, sample_weight=SW)))
    with hl.config.backend_scope("jax"):
        got = jax.jit(lambda t, p, w: loss(t, p, sample_weight=w))(y_true, y_pred, SW)
        np.testing.assert_allclose(float(got), want, rtol=1e-5)
    with hl.config.backend_scope("tensorflow"):
        got = tf.function(lambda t, p, w: loss(t, p, sample_weight=w))(y_true, y_pred, SW)
        np.testing.assert_allclose(float(got.numpy()), want, rtol=1e-5)


def test_label_range_check_is_eager_only():
    jax = pytest.importorskip("jax")
    tf = pytest.importorskip("tensorflow")
    bad = np.array([0, 4, 1], "int32")
    logits = np.zeros((3, 4), "float32")
    loss = losses.SparseCategoricalCrossentropy(from_logits=True)
    for name in ("native", "jax", "torch", "tensorflow"):
        if name not in hl.backends.installed():
            continue
        with hl.config.backend_scope(name):
            with pytest.raises(ValueError, match=r"labels from 0 to 4, out of range for 4 classes"):
                loss(bad, logits)
    # Traced, with hl.config.enable_index_checks() off (the default): the labels are unknown while tracing, so no
    # check and no error (the engine's gather decides; tests/reliability/test_index_checks.py has the checked mode).
    with hl.config.backend_scope("jax"):
        jax.jit(lambda t, p: loss(t, p))(bad, logits)
    with hl.config.backend_scope("tensorflow"):
        tf.function(lambda t, p: loss(t, p))(np.array([0, 1, 2], "int32"), logits)
