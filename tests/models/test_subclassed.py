"""Subclassed models: layers created in __init__ (attributes, lists, dicts) are tracked, call() is plain
Python (control flow included), and the ``training`` flag reaches nested layers. Every test runs on every
backend."""

import numpy as np

import highlevel as hl

L = hl.layers


def _np(x):
    return np.asarray(hl.ops.convert_to_numpy(x))


def _x(*shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape).astype("float32")


class Recorder(L.Layer):
    """Records the ``training`` value each call receives."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seen = []

    def call(self, inputs, training=None):
        self.seen.append(training)
        return inputs


class Block(L.Layer):
    """A layer with a sub-layer that itself takes ``training``; it does not pass ``training`` on."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = L.Dense(3)
        self.recorder = Recorder()

    def call(self, inputs):
        return self.recorder(self.dense(inputs))


class Tower(hl.Model):
    def __init__(self, depth=3, use_head=True):
        super().__init__()
        self.stack = [L.Dense(4, activation="relu", name=f"stack_{i}") for i in range(depth)]
        self.heads = {"main": L.Dense(2, name="main"), "aux": L.Dense(1, name="aux")}
        self.use_head = use_head
        self.block = Block()
        self.dropout = L.Dropout(0.5, seed=2)

    def call(self, x, training=None):
        for layer in self.stack:  # a Python loop over a tracked list
            x = layer(x)
        x = self.block(x)
        if training:  # Python control flow on the flag
            x = self.dropout(x)
        if not self.use_head:
            return x
        return {"main": self.heads["main"](x), "aux": self.heads["aux"](x)}


def test_tracking_of_attributes_lists_and_dicts(backend):
    model = Tower(depth=3)
    assert not model.built
    out = model(_x(5, 6))
    assert model.built and out["main"].shape == (5, 2) and out["aux"].shape == (5, 1)
    names = [l.name for l in model.layers]
    assert names[:5] == ["stack_0", "stack_1", "stack_2", "main", "aux"]
    assert model.block in model.layers and model.dropout in model.layers
    # 3 stack Dense + 2 heads + the block's Dense, each a kernel and a bias
    assert len(model.trainable_weights) == 12 and model.non_trainable_weights == []
    assert model.count_params() == (6 * 4 + 4) + 2 * (4 * 4 + 4) + (3 * 2 + 2) + (3 + 1) + (4 * 3 + 3)
    assert model.get_layer("main") is model.heads["main"]


def test_control_flow_matches_manual_computation(backend):
    model = Tower(depth=2, use_head=False)
    x = _x(3, 5)
    got = _np(model(x))
    h = x
    for layer in model.stack:
        h = layer(h)
    np.testing.assert_allclose(got, _np(model.block.dense(h)), rtol=1e-5, atol=1e-6)
    deeper = Tower(depth=1)
    assert len(deeper(x)) == 2 and len(deeper.trainable_weights) == 8


def test_training_flag_propagates(backend):
    model = Tower(depth=1, use_head=False)
    x = np.abs(_x(64, 5)) + 0.1
    model(x)
    model(x, training=True)
    model(x, training=False)
    # The Recorder is two levels down and Block.call never passes `training`: it comes from the outer call.
    assert model.block.recorder.seen == [None, True, False]
    # An explicit argument to an inner call wins over the outer value.
    rec = Recorder()

    class Explicit(hl.Model):
        def __init__(self):
            super().__init__()
            self.rec = rec

        def call(self, x, training=None):
            return self.rec(x, training=False)

    Explicit()(x, training=True)
    assert rec.seen == [False]


def test_training_flag_passes_through_a_call_without_the_argument(backend):
    # Block.call(self, inputs) takes no `training`: the value given to the call still reaches the Recorder inside
    # it, when Block is called directly and when it is the model (fit calls the model with training=True).
    block = Block()
    x = _x(4, 3)
    block(x, training=True)
    block(x)
    block(x, training=False)
    assert block.recorder.seen == [True, None, False]

    class Bare(hl.Model):
        def __init__(self):
            super().__init__()
            self.block = Block()

        def call(self, x):
            return self.block(x)

    model = Bare()
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    model.fit(x, np.zeros((4, 3), "float32"), verbose=0)
    model.predict(x, verbose=0)
    assert model.block.recorder.seen[-2:] == [True, False]


def test_training_changes_dropout_output(backend):
    model = Tower(depth=1, use_head=False)
    x = np.abs(_x(64, 5)) + 0.1
    inference = _np(model(x))
    np.testing.assert_array_equal(_np(model(x, training=False)), inference)
    trained = _np(model(x, training=True))
    assert trained.shape == inference.shape
    kept = trained != 0
    np.testing.assert_allclose(trained[kept], 2.0 * inference[kept], rtol=1e-5, atol=1e-6)


def test_weights_round_trip_and_stateless_call(backend):
    model = Tower(depth=2)
    x = _x(4, 3)
    first = model(x)["main"]
    clone = Tower(depth=2)
    clone(x)
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(_np(clone(x)["main"]), _np(first), rtol=1e-6, atol=1e-6)
    values = [v.value for v in model.trainable_variables]
    state = [v.value for v in model.non_trainable_variables]  # the dropout's seed-generator state

    def loss(ws):
        out, _ = model.stateless_call(ws, state, x)
        return hl.ops.sum(out["main"]) + hl.ops.sum(out["aux"])

    _, grads = hl.ops.value_and_grad(loss)(values)
    assert len(grads) == len(values)
    for v, g in zip(model.trainable_variables, grads):
        assert g is not None and tuple(g.shape) == tuple(v.shape), v.path
        assert np.isfinite(_np(g)).all()
