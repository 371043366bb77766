"""The control-flow ops in models: on symbolic inputs (functional models), inside a layer trained by ``fit`` in every
step mode, and inside compiled steps (where the eager engines' recorded replay gives up on steps that pass Python
functions to the engine, and runs them eagerly)."""

import warnings

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops

RNG = np.random.default_rng(3)
X = RNG.standard_normal((32, 3)).astype("float32")


def test_functional_model_with_loops_and_conditionals(backend):
    x = hl.Input((3,))
    picked = ops.switch(1, [lambda t: t * 0.0, lambda t: ops.tanh(t) * 2.0], x)
    grown = ops.while_loop(lambda t: ops.max(ops.abs(t)) < 100.0, lambda t: t * 3.0, picked, maximum_iterations=2)
    summed = ops.fori_loop(0, 3, lambda i, t: t + ops.cast(i, "float32"), grown)
    norms = ops.map(lambda row: ops.sum(row * row), x)
    assert summed.shape == (None, 3) and norms.shape == (None,)
    model = hl.Model(x, [summed, norms])
    got_summed, got_norms = model.predict(X, batch_size=8, verbose=0)
    want = np.tanh(X.astype(np.float64)) * 2.0
    for _ in range(2):
        if np.max(np.abs(want)) < 100.0:
            want = want * 3.0
    np.testing.assert_allclose(got_summed, want + 3.0, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got_norms, np.sum(X.astype(np.float64) ** 2, axis=1), rtol=1e-5)


def test_functional_model_with_a_custom_gradient(backend):
    @ops.custom_gradient
    def halve_gradient(t):
        return t * 2.0, lambda up: up  # the true gradient is 2 * up

    x = hl.Input((3,))
    model = hl.Model(x, ops.vectorized_map(lambda row: halve_gradient(row), x))
    np.testing.assert_allclose(model.predict(X, verbose=0), X * 2.0, rtol=1e-6)
    grad = ops.grad(lambda t: ops.sum(model(t)))(ops.convert_to_tensor(X[:4]))
    np.testing.assert_allclose(ops.convert_to_numpy(grad), np.ones((4, 3)), rtol=1e-6)


class _Refine(hl.layers.Layer):
    """A dense map refined by a few loop steps, with a conditional on the batch: every control-flow op inside
    the differentiated path."""

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], 1), initializer="zeros", name="w")

    def call(self, x):
        h = ops.matmul(x, self.w)
        h = ops.cond(ops.mean(x) > -100.0, lambda: h * 1.0, lambda: -h)  # always the first branch
        h = ops.fori_loop(0, 3, lambda i, v: v * 0.5 + h * 0.5, h)
        h, _ = ops.while_loop(lambda v, k: k < 2, lambda v, k: (v + 0.1 * v, k + 1), (h, 0), maximum_iterations=4)
        return ops.switch(0, [lambda v: v, lambda v: -v], h)


# jit_compile=True: XLA on JAX and TensorFlow (TensorFlow's loop gradients then need the bound that the loops
# have); the eager engines' replay gives up, with a warning, and the steps run eagerly
MODES = {"default": {}, "no_jit": {"jit_compile": False}, "eager": {"run_eagerly": True}, "xla": {"jit_compile": True}}


@pytest.mark.parametrize("mode", list(MODES))
def test_a_layer_with_control_flow_trains(backend, mode):
    hl.utils.set_random_seed(0)
    w_true = np.array([[1.0], [-2.0], [0.5]], np.float32)
    y = (X @ w_true).astype("float32")
    model = hl.Sequential([hl.Input((3,)), _Refine()])
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse", **MODES[mode])
    before = float(model.evaluate(X, y, batch_size=32, verbose=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an eager engine's replay gives up (see below)
        history = model.fit(X, y, batch_size=8, epochs=4, verbose=0)
    losses = history.history["loss"]
    after = float(model.evaluate(X, y, batch_size=32, verbose=0))
    assert losses[-1] < losses[0] and after < 0.2 * before, (before, losses, after)


def test_a_recorded_step_with_control_flow_runs_eagerly(backend):
    """The eager engines record a step once and replay it; a step that hands a Python function to the engine
    (a branch, a loop body) cannot be replayed faithfully, so its recording gives up and the step runs eagerly,
    with the right values. Engines that compile (JAX, TensorFlow) trace the functions into their constructs."""
    v = hl.Variable(np.zeros((), np.float32))

    def step(x):
        out = ops.cond(ops.sum(x) > 0, lambda: x * 2.0, lambda: -x)
        v.assign(v + ops.sum(out))
        return out

    compiled = backend.compile_step(step, [v])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the default compile mode gives up quietly
        first = compiled(ops.convert_to_tensor(np.array([1.0, 2.0], np.float32)))
        second = compiled(ops.convert_to_tensor(np.array([-1.0, -2.0], np.float32)))
    np.testing.assert_allclose(ops.convert_to_numpy(first), [2.0, 4.0])
    np.testing.assert_allclose(ops.convert_to_numpy(second), [1.0, 2.0])  # the other branch: not frozen
    assert float(v.numpy()) == pytest.approx(9.0)
    reasons = getattr(compiled, "fallback_reasons", None)
    if reasons is not None:  # a recorded replay: it gave up and says why (warning only when jit_compile=True)
        assert reasons and "Python function" in reasons[0], reasons


def test_matches_keras(backend):
    """The same functions through Keras 3 (its default, TensorFlow, backend) and highlevel."""
    keras = pytest.importorskip("keras")
    k = keras.ops
    x = X[:5, 0]

    def both(run):
        return _np(run(ops)), np.asarray(k.convert_to_numpy(run(k)))

    runs = {
        "cond": lambda m: m.cond(m.sum(x) > 0, lambda: m.sin(x), lambda: m.cos(x)),
        "switch": lambda m: m.switch(2, [lambda t: t, lambda t: -t, lambda t: t * t], x),
        "while_loop": lambda m: m.while_loop(lambda a, b: a < 4, lambda a, b: (a + 1, b * 1.5), (0, x))[1],
        "fori_loop": lambda m: m.fori_loop(0, 5, lambda i, v: v * 0.5 + m.cast(i, "float32"), x),
        "map": lambda m: m.map(lambda r: m.sum(r * r), m.reshape(x, (5, 1))),
        "vectorized_map": lambda m: m.vectorized_map(lambda r: m.sum(m.exp(r)), m.reshape(x, (5, 1))),
        "associative_scan": lambda m: m.associative_scan(lambda a, b: a * b, x, reverse=True),
        "scan": lambda m: m.scan(lambda c, v: (c + v, c * v), np.float32(1.0), x)[1],
    }
    for name, run in runs.items():
        got, want = both(run)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=name)


def _np(t):
    return np.asarray(ops.convert_to_numpy(t))
