"""Compiled steps of the eager engines (backends/contract/replay.py, with backends/native/replay.py and
backends/torch/replay.py): a step recorded once and replayed gives the same numbers as running it eagerly, bit
for bit, and a step that cannot be replayed faithfully runs eagerly. JAX and TensorFlow compile with their own
compilers instead (jax.jit, tf.function): these tests concern the two engines that replay."""

import inspect
import warnings

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops
from highlevel.backends.contract import Variable

ENGINES = ["native", "torch"]


@pytest.fixture(autouse=True, params=ENGINES)
def engine(request):
    """The engine under test, active as the current backend."""
    with hl.config.backend_scope(request.param) as backend:
        yield backend


def _fit_function(model):
    """The compiled step ``fit`` used: the lean one (no batch logs) when no callback read them."""
    return model._lean_train_function or model._train_function


def _compile_replay(backend):
    """The engine's own compile_replay (what its compile_step uses by default)."""
    import importlib

    return importlib.import_module(f"highlevel.backends.{backend.name}.replay").compile_replay


def _data(n=40, d=6, classes=3, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)).astype("float32"), rng.integers(0, classes, size=(n,))


def _fit(build, jit_compile, epochs=3, batch_size=16, fit_kwargs=None, compile_kwargs=None):
    hl.utils.set_random_seed(7)
    x, y = _data()
    model = build()
    model.compile(
        optimizer=hl.optimizers.Adam(0.01),
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
        jit_compile=jit_compile,
        **(compile_kwargs or {}),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no fallback: these steps replay
        history = model.fit(x, y, batch_size=batch_size, epochs=epochs, shuffle=True, verbose=0, **(fit_kwargs or {}))
        evaluation = model.evaluate(x, y, batch_size=batch_size, verbose=0, return_dict=True)
        prediction = model.predict(x, batch_size=batch_size, verbose=0)
    state = [v.numpy() for v in model.variables + model.optimizer.variables]
    return model, history.history, evaluation, prediction, state


def _mlp():
    return hl.Sequential(
        [
            hl.Input((6,)),
            hl.layers.Dense(16, activation="relu"),
            hl.layers.Dropout(0.3),
            hl.layers.BatchNormalization(),
            hl.layers.Dense(3, activation="softmax"),
        ]
    )


def _two_outputs():
    inp = hl.Input((6,))
    h = hl.layers.Dense(8, activation="tanh")(inp)
    return hl.Model(
        inp,
        [hl.layers.Dense(3, activation="softmax", name="a")(h), hl.layers.Dense(3, activation="softmax", name="b")(h)],
    )


@pytest.mark.parametrize(
    "fit_kwargs",
    [{}, {"class_weight": {0: 1.0, 1: 2.0, 2: 0.5}}, {"validation_split": 0.25}],
    ids=["plain", "class_weight", "validation"],
)
def test_replay_matches_eager_bitwise(fit_kwargs):
    eager = _fit(_mlp, False, fit_kwargs=fit_kwargs)
    replayed = _fit(_mlp, "auto", fit_kwargs=fit_kwargs)
    assert eager[1] == replayed[1]  # per-epoch losses and metrics, exactly
    assert eager[2] == replayed[2]
    np.testing.assert_array_equal(eager[3], replayed[3])
    for a, b in zip(eager[4], replayed[4]):
        np.testing.assert_array_equal(a, b)
    # 40 samples in batches of 16: a full and a partial batch, each recorded once and then replayed.
    compiled = inspect.getclosurevars(_fit_function(replayed[0])).nonlocals["step"]
    assert len(compiled.recordings) == 2 and not compiled.fallback_reasons


def test_multi_output_model_replays_like_eager():
    def fit(jit):
        hl.utils.set_random_seed(3)
        x, y = _data()
        model = _two_outputs()
        model.compile(
            optimizer="rmsprop",
            loss=["sparse_categorical_crossentropy"] * 2,
            metrics=[["accuracy"], ["accuracy"]],
            loss_weights=[1.0, 0.5],
            jit_compile=jit,
        )
        history = model.fit(x, [y, y], batch_size=8, epochs=2, verbose=0, shuffle=False)
        return history.history, [v.numpy() for v in model.variables]

    (h1, w1), (h2, w2) = fit(False), fit("auto")
    assert h1 == h2
    for a, b in zip(w1, w2):
        np.testing.assert_array_equal(a, b)


def test_the_default_replays_and_records_once_per_input_signature(engine):
    b = engine
    w = Variable(np.zeros((3,), "float32"), backend=b)
    calls = []

    def step(x):
        calls.append(1)  # Python runs only while recording
        w.assign(b.add(w.value, b.sum(x, axis=0)))
        return {"total": b.sum(w.value)}

    compiled = _compile_replay(b)(b, step, [w])
    for n in (4, 4, 4, 2, 2, 4):
        compiled(b.convert_to_tensor(np.ones((n, 3), "float32")))
    assert len(calls) == 2 and len(compiled.recordings) == 2
    np.testing.assert_array_equal(w.numpy(), np.full(3, 20.0, "float32"))
    assert float(b.to_numpy(compiled(b.convert_to_tensor(np.ones((4, 3), "float32")))["total"])) == 72.0


class HostReadingModel(hl.Model):
    """Reads a value of the step on the host: a replay would freeze it, so the step must run eagerly."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = hl.layers.Dense(3, activation="softmax")

    def call(self, x):
        scale = 2.0 if float(ops.convert_to_numpy(ops.sum(x))) > 0 else 0.5
        return self.dense(x * scale)


def _fit_host_reading(jit):
    hl.utils.set_random_seed(1)
    x, y = _data()
    model = HostReadingModel()
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", jit_compile=jit)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False)
    messages = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    return model, history.history, [v.numpy() for v in model.variables], messages


def test_a_host_read_falls_back_to_eager_without_losing_state():
    _, want, want_w, _ = _fit_host_reading(False)
    model, got, got_w, messages = _fit_host_reading("auto")
    assert got == want  # the aborted recording left no trace: the weights are the eager run's
    for a, b in zip(want_w, got_w):
        np.testing.assert_array_equal(a, b)
    compiled = inspect.getclosurevars(_fit_function(model)).nonlocals["step"]
    assert compiled.fallback_reasons and "host" in compiled.fallback_reasons[0]
    assert not any("could not compile" in m for m in messages), messages  # the default falls back quietly


def test_asking_for_the_native_replay_warns_when_it_falls_back():
    # jit_compile=True asks native for the replay (on PyTorch it means torch.compile): say why it did not happen.
    with hl.config.backend_scope("native"):
        *_, messages = _fit_host_reading(True)
    assert any("could not compile this step" in m and "host" in m for m in messages), messages


def test_a_python_function_given_to_an_op_keeps_the_step_eager():
    # A recurrent layer runs its cell through `scan`, whose body is Python that could capture step values.
    def fit(jit):
        hl.utils.set_random_seed(2)
        rng = np.random.default_rng(0)
        x, y = rng.normal(size=(12, 5, 3)).astype("float32"), rng.integers(0, 2, size=(12,))
        model = hl.Sequential([hl.Input((5, 3)), hl.layers.SimpleRNN(4), hl.layers.Dense(2)])
        model.compile(optimizer="sgd", loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True), jit_compile=jit)
        model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
        return model, [v.numpy() for v in model.variables]

    _, want = fit(False)
    model, got = fit("auto")
    for a, b in zip(want, got):
        np.testing.assert_array_equal(a, b)
    compiled = inspect.getclosurevars(_fit_function(model)).nonlocals["step"]
    assert any("Python function" in r for r in compiled.fallback_reasons), compiled.fallback_reasons


def test_creating_a_variable_inside_a_step_keeps_it_eager(engine):
    b = engine
    made = []

    def step(x):
        made.append(Variable(np.zeros(2, "float32"), backend=b))
        return b.add(x, 1.0)

    compiled = _compile_replay(b)(b, step, [], warn=False)
    out = [compiled(b.convert_to_tensor(np.ones(2, "float32"))) for _ in range(3)]
    assert len(made) == 3 and compiled.fallback_reasons
    assert [b.to_numpy(o).tolist() for o in out] == [[2.0, 2.0]] * 3


def test_tensor_operators_in_a_step_are_replayed(engine):
    b = engine
    w = Variable(np.float32(1.0), backend=b)

    def step(x):
        y = (x * 2.0 + w.value) ** 2  # the engine's tensor operators, not backend methods
        w.assign(y[0])
        return y.sum()

    compiled = _compile_replay(b)(b, step, [w])
    eager_w, outs = 1.0, []
    for v in (1.0, 2.0, 3.0):
        x = np.array([v, v + 1], "float32")
        outs.append(float(compiled(b.convert_to_tensor(x))))
        y = (x * 2.0 + eager_w) ** 2
        np.testing.assert_allclose(outs[-1], y.sum(), rtol=1e-6)
        eager_w = float(y[0])
    np.testing.assert_allclose(float(w.numpy()), eager_w, rtol=1e-6)
    assert len(compiled.recordings) == 1


def test_a_custom_gradient_in_an_inference_step_is_recorded_and_replayed(engine):
    # int8 layers compute through ops.custom_gradient: with grad mode off (predict) nothing can ask for its
    # gradient, so its function's ops are recorded like the rest of the step instead of keeping it eager
    b = engine
    calls = []

    @ops.custom_gradient
    def doubled(x):
        calls.append(1)
        return ops.multiply(x, 2.0), lambda upstream: upstream

    def step(x):
        return b.add(doubled(x), 1.0)

    compiled = _compile_replay(b)(b, step, [])
    import importlib

    with importlib.import_module(f"highlevel.backends.{b.name}.replay").ENGINE.grad_enabled(False):
        outs = [b.to_numpy(compiled(b.convert_to_tensor(np.full((2,), v, "float32")))) for v in (1.0, 2.0, 3.0)]
    assert not compiled.fallback_reasons and len(compiled.recordings) == 1 and len(calls) == 1
    np.testing.assert_array_equal(outs, [[3.0, 3.0], [5.0, 5.0], [7.0, 7.0]])


def test_an_int8_model_predicts_through_a_replayed_step_like_eager(engine):
    hl.utils.set_random_seed(3)
    model = hl.Sequential([hl.Input((16,)), hl.layers.Dense(8, activation="relu"), hl.layers.Dense(3)])
    model.quantize("int8")
    rng = np.random.default_rng(0)
    batches = [rng.normal(size=(5, 16)).astype("float32") for _ in range(3)]
    got = [model.predict_on_batch(x) for x in batches]
    compiled = inspect.getclosurevars(model._predict_function).nonlocals["step"]
    assert not compiled.fallback_reasons and len(compiled.recordings) == 1, compiled.fallback_reasons
    model.compile(jit_compile=False)
    for x, g in zip(batches, got):
        np.testing.assert_array_equal(model.predict_on_batch(x), g)
