"""The learning matrix: every way of building a model learns the digits from its first ``fit``.

Each row builds a model in one of the ways a Keras user does (``Sequential`` with and without ``Input``,
functional, subclassed with and without its own ``build``, nested, loaded from a file, compiled twice, layers
frozen and unfrozen between fits, ``train_on_batch`` as the first call), on every backend and in every step mode
(compiled by default, ``jit_compile=False``, ``run_eagerly=True``). A row passes when the training loss falls to
at most half of an untrained model's (the same architecture, measured on the native engine), falls during the fit,
and the training accuracy reaches 90%: a model that trains nothing (the failure this guards against: the trainer
once listed the trainable variables of an unbuilt model, found none, and every step updated nothing while
reporting a loss) fails all three.

The classic loss/optimizer pairs (sparse categorical crossentropy + Adam, categorical crossentropy + SGD with
momentum, MSE + RMSprop, binary crossentropy + Adagrad) get the same check.
"""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops

EPOCHS = 3
BATCH = 128
HIDDEN = 64
MODES = {
    "default": {},
    "no_jit": {"jit_compile": False},
    "eager": {"run_eagerly": True},
}


@pytest.fixture(scope="module")
def digits():
    (x, y), _ = hl.datasets.digits.load_data()
    # Standardized pixels (the +1 keeps the always-blank border pixels finite): every optimizer of the matrix
    # then learns in a few epochs from any seed, so the thresholds below have a wide margin.
    x = x.astype("float32")
    x = (x - x.mean(axis=0)) / (x.std(axis=0) + 1.0)
    # 1,792 of the 1,797 images: whole batches of 128 (fit) and 256 (evaluate). A last batch of 5 would be a
    # second input shape, so a second trace and compilation of each step on JAX and TensorFlow in every test,
    # which is not what this file tests (the data adapters' tests cover partial batches).
    keep = len(x) - len(x) % 256
    return x[:keep], y[:keep].astype("int32")


def _compile(model, mode, optimizer=None, loss=None, metrics=("accuracy",)):
    model.compile(
        optimizer=optimizer or hl.optimizers.Adam(learning_rate=0.02),
        loss=loss or hl.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=list(metrics),
        **MODES[mode],
    )
    return model


_UNTRAINED = {}


def _untrained_loss(x, y, loss_factory, activation=None):
    """The loss of an untrained model of the rows' architecture, on the native engine (cached per loss).

    One seed gives the same initial weights on every engine, so this is the starting point of every row."""
    key = (type(loss_factory()).__name__, activation)
    if key not in _UNTRAINED:
        with hl.config.backend_scope("native"):
            hl.utils.set_random_seed(0)
            model = hl.Sequential(
                [
                    hl.layers.Flatten(),
                    hl.layers.Dense(HIDDEN, activation="relu"),
                    hl.layers.Dense(10, activation=activation),
                ]
            )
            model.compile(optimizer="sgd", loss=loss_factory())
            _UNTRAINED[key] = float(model.evaluate(x, y, batch_size=512, verbose=0))
    return _UNTRAINED[key]


def _sparse_cce():
    return hl.losses.SparseCategoricalCrossentropy(from_logits=True)


def _assert_learned(model, x, y, history_losses, initial_loss):
    result = model.evaluate(x, y, batch_size=256, verbose=0, return_dict=True)
    accuracy = [v for k, v in result.items() if k.endswith("accuracy")]
    assert len(accuracy) == 1, result
    final_loss = result["loss"]
    assert final_loss <= 0.5 * initial_loss, (
        f"the training loss did not halve: untrained {initial_loss:.4f}, after training {final_loss:.4f} "
        f"(epoch losses {history_losses})"
    )
    if len(history_losses) > 1:
        assert history_losses[-1] < history_losses[0], f"the loss did not fall during fit: {history_losses}"
    assert accuracy[0] >= 0.90, (
        f"training accuracy {accuracy[0]:.3f} < 0.90 (loss {initial_loss:.4f} -> {final_loss:.4f})"
    )


def _fit_and_check(model, x, y, epochs=EPOCHS):
    history = model.fit(x, y, batch_size=BATCH, epochs=epochs, verbose=0)
    losses = history.history["loss"]
    assert len(losses) == epochs
    _assert_learned(model, x, y, losses, _untrained_loss(x, y, _sparse_cce))
    return losses


# --------------------------------------------------------------------------- the ways of building a model
class Subclassed(hl.Model):
    """Layers made in ``__init__``, ``call`` in plain Python: built by the first call."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden = hl.layers.Dense(HIDDEN, activation="relu")
        self.out = hl.layers.Dense(10)

    def call(self, x, training=None):
        x = ops.reshape(x, (-1, 64))
        return self.out(self.hidden(x))


class SubclassedWithBuild(hl.Model):
    """Weights and layers made in the model's own ``build`` from the input shape."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.out = hl.layers.Dense(10)

    def build(self, input_shape):
        features = int(np.prod(input_shape[1:]))
        self.kernel = self.add_weight(shape=(features, HIDDEN), initializer="glorot_uniform", name="kernel")
        self.bias = self.add_weight(shape=(HIDDEN,), initializer="zeros", name="bias")
        self.out.build((input_shape[0], HIDDEN))
        self.built = True

    def call(self, x, training=None):
        x = ops.reshape(x, (-1, self.kernel.shape[0]))
        return self.out(ops.relu(ops.matmul(x, self.kernel) + self.bias))


def _mlp_layers():
    return [hl.layers.Flatten(), hl.layers.Dense(HIDDEN, activation="relu"), hl.layers.Dense(10)]


def sequential_with_input():
    return hl.Sequential([hl.Input((8, 8))] + _mlp_layers())


def sequential_without_input():
    return hl.Sequential(_mlp_layers())


def functional():
    inputs = hl.Input((8, 8))
    x = hl.layers.Flatten()(inputs)
    x = hl.layers.Dense(HIDDEN, activation="relu")(x)
    return hl.Model(inputs, hl.layers.Dense(10)(x))


def nested():
    # A subclassed model inside a Sequential inside a Sequential, nothing built before fit.
    inner = hl.Sequential([hl.layers.Flatten(), Subclassed()])
    return hl.Sequential([inner])


BUILDERS = {
    "sequential_input": sequential_with_input,
    "sequential_no_input": sequential_without_input,
    "functional": functional,
    "subclassed": Subclassed,
    "subclassed_build": SubclassedWithBuild,
    "nested": nested,
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("row", BUILDERS)
def test_first_fit_learns(backend, digits, row, mode):
    x, y = digits
    hl.utils.set_random_seed(0)
    model = _compile(BUILDERS[row](), mode)
    assert not model.trainable_weights or row in ("sequential_input", "functional")  # the rest build in fit
    _fit_and_check(model, x, y)


@pytest.mark.parametrize("mode", MODES)
def test_loaded_model_learns(backend, digits, mode, tmp_path):
    x, y = digits
    hl.utils.set_random_seed(0)
    model = _compile(functional(), mode)
    path = tmp_path / "untrained.keras"
    model.save(path)
    loaded = hl.models.load_model(path)
    _compile(loaded, mode)
    _fit_and_check(loaded, x, y)
    # The file itself was not changed by training the loaded copy.
    again = hl.models.load_model(path)
    for a, b in zip(again.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("mode", MODES)
def test_loaded_compiled_model_learns_without_recompiling(backend, digits, mode, tmp_path):
    x, y = digits
    hl.utils.set_random_seed(0)
    model = _compile(sequential_with_input(), mode)
    path = tmp_path / "compiled.keras"
    model.save(path)
    loaded = hl.models.load_model(path)  # compile=True: the saved compile configuration
    _fit_and_check(loaded, x, y, epochs=EPOCHS + 2)


@pytest.mark.parametrize("mode", MODES)
def test_compiled_twice_learns(backend, digits, mode):
    x, y = digits
    hl.utils.set_random_seed(0)
    model = sequential_without_input()
    # The first configuration cannot learn (a zero learning rate); the second must replace it entirely.
    _compile(model, mode, optimizer=hl.optimizers.SGD(learning_rate=0.0))
    _compile(model, mode)
    _fit_and_check(model, x, y)


@pytest.mark.parametrize("mode", MODES)
def test_compiled_again_after_fit_learns_with_the_new_optimizer(backend, digits, mode):
    x, y = digits
    hl.utils.set_random_seed(0)
    model = _compile(Subclassed(), mode, optimizer=hl.optimizers.SGD(learning_rate=0.0))
    history = model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)
    before = [w.copy() for w in model.get_weights()]
    assert all(np.array_equal(a, b) for a, b in zip(before, model.get_weights()))
    _compile(model, mode)
    _fit_and_check(model, x, y)
    assert history.history["loss"][0] > 2.0  # the zero-rate epoch learned nothing, as it should


@pytest.mark.parametrize("mode", MODES)
def test_frozen_and_unfrozen_between_fits(backend, digits, mode):
    x, y = digits
    hl.utils.set_random_seed(0)
    model = sequential_without_input()
    hidden = model.layers[1]
    hidden.trainable = False  # frozen before the first fit: the optimizer is built without its weights
    _compile(model, mode)
    first = model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0).history["loss"][0]
    frozen_kernel = hidden.kernel.numpy().copy()
    out_kernel = model.layers[2].kernel.numpy().copy()

    model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)
    np.testing.assert_array_equal(hidden.kernel.numpy(), frozen_kernel)  # still frozen
    assert not np.array_equal(model.layers[2].kernel.numpy(), out_kernel)  # the rest trained

    hidden.trainable = True  # unfrozen: the same optimizer, no recompile
    losses = model.fit(x, y, batch_size=BATCH, epochs=EPOCHS, verbose=0).history["loss"]
    assert not np.array_equal(hidden.kernel.numpy(), frozen_kernel)
    _assert_learned(model, x, y, [first] + losses, _untrained_loss(x, y, _sparse_cce))

    hidden.trainable = False  # and frozen again
    kernel = hidden.kernel.numpy().copy()
    model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)
    np.testing.assert_array_equal(hidden.kernel.numpy(), kernel)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("row", ["sequential_no_input", "subclassed"])
def test_train_on_batch_first_learns(backend, digits, row, mode):
    x, y = digits
    hl.utils.set_random_seed(0)
    model = _compile(BUILDERS[row](), mode)
    rng = np.random.default_rng(0)
    first = None
    for _ in range(EPOCHS):
        order = rng.permutation(len(x))
        for start in range(0, len(x), BATCH):
            idx = order[start : start + BATCH]
            logs = model.train_on_batch(x[idx], y[idx], return_dict=True)
            if first is None:
                first = logs["loss"]
    # One batch's loss before any update is the untrained model's (about ln 10).
    assert 1.8 < first < 3.0
    _assert_learned(model, x, y, [first], _untrained_loss(x, y, _sparse_cce))


# --------------------------------------------------------------------------- loss / optimizer pairs
def _one_hot(y):
    return np.eye(10, dtype="float32")[y]


PAIRS = {
    "sparse_cce_adam": (lambda: hl.optimizers.Adam(learning_rate=0.02), _sparse_cce, None, False),
    "cce_sgd_momentum": (
        lambda: hl.optimizers.SGD(learning_rate=0.1, momentum=0.9),
        lambda: hl.losses.CategoricalCrossentropy(),
        "softmax",
        True,
    ),
    "mse_rmsprop": (
        lambda: hl.optimizers.RMSprop(learning_rate=0.005),
        lambda: hl.losses.MeanSquaredError(),
        "softmax",
        True,
    ),
    "bce_adagrad": (
        lambda: hl.optimizers.Adagrad(learning_rate=1.0),
        lambda: hl.losses.BinaryCrossentropy(),
        "sigmoid",
        True,
    ),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pair", PAIRS)
def test_loss_optimizer_pair_learns(backend, digits, pair, mode):
    x, y = digits
    make_optimizer, make_loss, activation, one_hot = PAIRS[pair]
    hl.utils.set_random_seed(0)
    model = hl.Sequential(
        [hl.layers.Flatten(), hl.layers.Dense(HIDDEN, activation="relu"), hl.layers.Dense(10, activation=activation)]
    )
    metric = "categorical_accuracy" if one_hot else "sparse_categorical_accuracy"
    _compile(model, mode, optimizer=make_optimizer(), loss=make_loss(), metrics=[metric])
    targets = _one_hot(y) if one_hot else y
    history = model.fit(x, targets, batch_size=BATCH, epochs=EPOCHS, verbose=0)
    _assert_learned(model, x, targets, history.history["loss"], _untrained_loss(x, targets, make_loss, activation))


# --------------------------------------------------------------------------- the guard
def test_a_step_over_no_variables_of_a_trainable_model_is_an_error(backend, digits, monkeypatch):
    """If the step's variable list is ever empty while the model has trainable weights, fit refuses to run it
    (the silent no-op this file guards against), instead of reporting losses of a model that never changes."""
    x, y = digits
    model = _compile(sequential_without_input(), "default")
    from highlevel.trainers import trainer as trainer_module

    monkeypatch.setattr(trainer_module.Trainer, "_step_trainable_variables", lambda self: [])
    with pytest.raises(RuntimeError, match="0 trainable variables"):
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)


def test_a_fully_frozen_model_warns_and_stays_unchanged(backend, digits):
    x, y = digits
    model = _compile(sequential_with_input(), "default")
    model.trainable = False
    before = model.get_weights()
    with pytest.warns(UserWarning, match="no trainable weights"):
        model.fit(x[:128], y[:128], batch_size=BATCH, epochs=1, verbose=0)
    for a, b in zip(before, model.get_weights()):
        np.testing.assert_array_equal(a, b)
