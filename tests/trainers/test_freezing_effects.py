"""``trainable = False`` freezes, bit for bit, on every engine and in every step mode; unfreezing trains again.

Frozen before the first fit, frozen between two fits (the compiled step is made again), frozen by a callback
during fit, with ``train_on_batch``, and a whole nested model with a batch normalization (whose moving statistics
a frozen model must not update either: it runs in inference mode, as in Keras).
"""

import warnings

import numpy as np

import highlevel as hl

RNG = np.random.default_rng(0)
X = RNG.normal(size=(8, 3)).astype("float32")
Y = RNG.normal(size=(8, 1)).astype("float32")


def same(a, b):
    return len(a) == len(b) and all(np.array_equal(u, v) for u, v in zip(a, b))


def none_same(a, b):
    return all(not np.array_equal(u, v) for u, v in zip(a, b))


def test_frozen_before_between_and_during_fit(backend, step_mode):
    hl.utils.set_random_seed(0)
    first, second = hl.layers.Dense(4), hl.layers.Dense(1)
    model = hl.Sequential([hl.Input((3,)), first, second])
    first.trainable = False  # before the model is built and trained
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="mse", **step_mode)
    w1, w2 = first.get_weights(), second.get_weights()
    model.fit(X, Y, batch_size=4, epochs=2, verbose=0)
    assert same(first.get_weights(), w1) and none_same(second.get_weights(), w2)

    first.trainable = True  # unfrozen: trains (the optimizer gains slots for it)
    w1 = first.get_weights()
    model.fit(X, Y, batch_size=4, epochs=1, verbose=0)
    assert none_same(first.get_weights(), w1)

    second.trainable = False  # frozen between two fits, without compiling again
    w1, w2 = first.get_weights(), second.get_weights()
    model.fit(X, Y, batch_size=4, epochs=1, verbose=0)
    assert same(second.get_weights(), w2) and none_same(first.get_weights(), w1)

    second.trainable, first.trainable = True, False  # swapped, then one train_on_batch
    w1, w2 = first.get_weights(), second.get_weights()
    model.train_on_batch(X, Y)
    assert same(first.get_weights(), w1) and none_same(second.get_weights(), w2)

    first.trainable = True  # frozen by a callback at the end of epoch 0: epochs 1 and 2 leave it as it was
    after_epoch = []

    def freeze(epoch, logs):
        after_epoch.append(first.get_weights())
        first.trainable = False

    model.fit(X, Y, batch_size=4, epochs=3, verbose=0, callbacks=[hl.callbacks.LambdaCallback(on_epoch_end=freeze)])
    assert none_same(after_epoch[0], w1) and same(first.get_weights(), after_epoch[0])


def test_a_frozen_nested_model_and_its_batch_norm_stay_as_they_were(backend, step_mode):
    hl.utils.set_random_seed(0)
    inner = hl.Sequential([hl.Input((3,)), hl.layers.Dense(4), hl.layers.BatchNormalization(momentum=0.5)])
    model = hl.Sequential([hl.Input((3,)), inner, hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse", **step_mode)
    model.fit(X, Y, batch_size=4, epochs=1, verbose=0)
    inner.trainable = False
    frozen, head = inner.get_weights(), model.layers[-1].get_weights()
    history = model.fit(X, Y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    assert same(inner.get_weights(), frozen)  # kernel, bias, gamma, beta and the moving statistics
    assert none_same(model.layers[-1].get_weights(), head)
    # the frozen batch norm normalized with its moving statistics, not the batch's: the loss shows it
    kernel, bias, gamma, beta, mean, var = frozen
    hidden = ((X @ kernel + bias) - mean) / np.sqrt(var + 1e-3) * gamma + beta
    np.testing.assert_allclose(history.history["loss"][0], np.mean((hidden @ head[0] + head[1] - Y) ** 2), rtol=1e-5)

    inner.trainable = True  # unfrozen: every weight trains again, and the moving statistics move
    model.fit(X, Y, batch_size=8, epochs=1, verbose=0)
    assert none_same(inner.get_weights(), frozen)


def test_a_model_with_nothing_to_train_keeps_its_weights(backend, step_mode):
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
    model.trainable = False
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse", **step_mode)
    weights = model.get_weights()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no trainable weights"
        model.fit(X, Y, batch_size=4, epochs=1, verbose=0)
    assert same(model.get_weights(), weights)
    model.trainable = True
    model.fit(X, Y, batch_size=4, epochs=1, verbose=0)
    assert none_same(model.get_weights(), weights)


def test_freezing_sets_the_weights_trainable_flags_and_the_engines_gradient_flags(backend):
    # As in Keras 3: a frozen layer's weights read trainable=False; weights made non-trainable (the moving
    # statistics) stay so when it is unfrozen. Engines with a per-weight gradient flag (PyTorch's
    # requires_grad, the native tape's) are told, so no gradient is computed for a frozen weight.
    conv, norm = hl.layers.Conv2D(2, 3), hl.layers.BatchNormalization()
    model = hl.Sequential([hl.Input((5, 5, 1)), conv, norm, hl.layers.Flatten(), hl.layers.Dense(1)])

    def flags(layer):
        return [(v.trainable, getattr(v.handle, "requires_grad", v.trainable)) for v in layer.weights]

    model.trainable = False
    assert flags(conv) == [(False, False), (False, False)]
    assert flags(norm) == [(False, False)] * 4
    model.trainable = True
    assert flags(conv) == [(True, True), (True, True)]
    assert flags(norm) == [(True, True), (True, True), (False, False), (False, False)]
    # a frozen base under a trained head: the base stays bit for bit, the head learns
    conv.trainable = False
    x = RNG.normal(size=(16, 5, 5, 1)).astype("float32")
    y = RNG.normal(size=(16, 1)).astype("float32")
    model.compile(optimizer=hl.optimizers.SGD(0.05), loss="mse")
    before, head = conv.get_weights(), model.layers[-1].get_weights()
    losses = model.fit(x, y, batch_size=8, epochs=8, verbose=0, shuffle=False).history["loss"]
    assert same(conv.get_weights(), before) and none_same(model.layers[-1].get_weights(), head)
    assert losses[-1] < losses[0], losses
    # a layer made frozen builds frozen weights, which unfreezing the layer trains
    dense = hl.layers.Dense(2, trainable=False)
    dense.build((None, 3))
    assert [v.trainable for v in dense.weights] == [False, False]
    dense.trainable = True
    assert [(v.trainable, getattr(v.handle, "requires_grad", True)) for v in dense.weights] == [(True, True)] * 2
