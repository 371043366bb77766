"""Models under the mixed policies: float32 variables, half-precision outputs, training, loss scaling in a
compiled fit, and saving."""

import numpy as np
import pytest

import highlevel as hl

POLICIES = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}


def _data(n=32, shape=(4,), seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n,) + shape).astype("float32")
    y = (x.reshape(n, -1).sum(axis=1, keepdims=True) * 0.5).astype("float32")
    return x, y


def _dense_model():
    return hl.Sequential(
        [hl.Input((4,)), hl.layers.Dense(8, activation="tanh"), hl.layers.BatchNormalization(), hl.layers.Dense(1)]
    )


def _conv_model():
    return hl.Sequential(
        [
            hl.Input((6, 6, 2)),
            hl.layers.Conv2D(3, 3, activation="relu"),
            hl.layers.LayerNormalization(),
            hl.layers.Flatten(),
            hl.layers.Dense(1),
        ]
    )


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("kind", ["dense", "conv"])
def test_mixed_model_trains(backend, policy, kind):
    hl.mixed_precision.set_dtype_policy(policy)
    model = _dense_model() if kind == "dense" else _conv_model()
    x, y = _data(shape=(4,) if kind == "dense" else (6, 6, 2))
    half = POLICIES[policy]
    assert all(v.dtype == "float32" for v in model.weights)
    assert model.outputs[0].dtype == half
    assert hl.ops.dtype(model(x[:2])) == half
    for layer in model.layers:
        assert layer.compute_dtype == half and layer.variable_dtype == "float32"
    model.compile(optimizer=hl.optimizers.Adam(0.01), loss="mse")
    # Keras wraps only float16 models' optimizers: bfloat16 has float32's range.
    assert isinstance(model.optimizer, hl.optimizers.LossScaleOptimizer) == (policy == "mixed_float16")
    history = model.fit(x, y, batch_size=8, epochs=6, verbose=0, shuffle=False)
    losses = history.history["loss"]
    assert np.all(np.isfinite(losses)) and losses[-1] < losses[0]
    assert all(v.dtype == "float32" for v in model.weights)
    assert str(model.predict(x[:3], verbose=0).dtype) == half


def test_weights_read_in_compute_dtype_and_get_gradients(backend):
    """Inside call a float32 kernel is read as float16 (type promotion does not bring float32 back), and the
    gradient still reaches the float32 variable."""
    dense = hl.layers.Dense(2, dtype="mixed_float16", kernel_initializer="ones", bias_initializer="zeros")
    x = hl.ops.ones((3, 4))
    out = dense(x)
    assert hl.ops.dtype(out) == "float16"
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(out), np.full((3, 2), 4.0, "float16"))

    def loss_fn():
        y = dense(x)
        return hl.ops.sum(hl.ops.cast(y, "float32")), None

    (_, _), grads = hl.config.current_backend().variables_value_and_grad(loss_fn, dense.trainable_weights)
    assert [hl.ops.dtype(g) for g in grads] == ["float32", "float32"]
    np.testing.assert_allclose(hl.ops.convert_to_numpy(grads[0]), np.full((4, 2), 3.0))
    assert dense.kernel.dtype == "float32"


def test_batch_norm_statistics_stay_float32(backend):
    bn = hl.layers.BatchNormalization(dtype="mixed_float16", momentum=0.5)
    x = np.arange(12, dtype="float32").reshape(6, 2) / 7.0
    out = bn(x, training=True)
    assert hl.ops.dtype(out) == "float16"
    assert bn.moving_mean.dtype == "float32"
    # The input is autocast to float16 first (as in Keras); the statistics are then computed in float32.
    seen = x.astype("float16").astype("float32")
    np.testing.assert_allclose(bn.moving_mean.numpy(), 0.5 * seen.mean(axis=0), rtol=1e-6)


def test_auto_scale_loss_options(backend):
    hl.mixed_precision.set_dtype_policy("mixed_float16")
    model = _dense_model()
    model.compile(optimizer="sgd", loss="mse")
    assert isinstance(model.optimizer, hl.optimizers.LossScaleOptimizer)
    assert model.optimizer.initial_scale == 2.0**15
    assert type(model.optimizer.inner_optimizer) is hl.optimizers.SGD
    model.compile(optimizer="sgd", loss="mse", auto_scale_loss=False)
    assert type(model.optimizer) is hl.optimizers.SGD
    own = hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD(), initial_scale=4.0)
    model.compile(optimizer=own, loss="mse")
    assert model.optimizer is own  # not wrapped twice


def test_compiled_fit_skips_non_finite_batches(backend):
    """A batch with a NaN input gives NaN gradients: in the compiled step it is skipped and the scale halved;
    two finite steps in a row double it (dynamic_growth_steps=2)."""
    hl.mixed_precision.set_dtype_policy("mixed_float16")
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
    opt = hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD(0.01), initial_scale=16.0, dynamic_growth_steps=2)
    model.compile(optimizer=opt, loss="mse")
    x, y = _data(n=8)
    x[2, 1] = np.nan  # in the second batch of two
    model.fit(x[:2], y[:2], batch_size=2, epochs=1, verbose=0)  # builds; one finite step
    before = [w.numpy() for w in model.weights]
    assert (float(opt.dynamic_scale.numpy()), int(opt.step_counter.numpy())) == (16.0, 1)
    model.fit(x[2:4], y[2:4], batch_size=2, epochs=1, verbose=0)  # NaN: skipped
    for w, b in zip(model.weights, before):
        np.testing.assert_array_equal(w.numpy(), b)
    assert (float(opt.dynamic_scale.numpy()), int(opt.step_counter.numpy())) == (8.0, 0)
    assert int(opt.iterations.numpy()) == 1
    model.fit(x[4:], y[4:], batch_size=2, epochs=1, verbose=0, shuffle=False)  # two finite steps: doubled
    assert (float(opt.dynamic_scale.numpy()), int(opt.step_counter.numpy())) == (16.0, 0)
    assert int(opt.iterations.numpy()) == 3
    assert all(np.all(np.isfinite(w.numpy())) for w in model.weights)


def test_loss_is_scaled_for_the_gradients_only(backend):
    """The trainer differentiates scale * loss and the wrapper divides by the scale: one fit step equals plain
    SGD; the logged loss is the unscaled one."""
    x, y = _data(n=4)
    results = []
    for wrap in (False, True):
        hl.utils.set_random_seed(3)
        model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
        opt = hl.optimizers.SGD(0.05)
        if wrap:
            opt = hl.optimizers.LossScaleOptimizer(opt, initial_scale=1024.0)
        model.compile(optimizer=opt, loss="mse")
        logs = model.fit(x, y, batch_size=4, epochs=1, verbose=0).history["loss"]
        results.append((logs, [w.numpy() for w in model.weights]))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-6)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


def test_save_and_load_mixed_model(backend, tmp_path):
    hl.mixed_precision.set_dtype_policy("mixed_float16")
    model = _dense_model()
    model.compile(
        optimizer=hl.optimizers.LossScaleOptimizer(
            hl.optimizers.Adam(0.01), initial_scale=64.0, dynamic_growth_steps=3
        ),
        loss="mse",
    )
    x, y = _data()
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    opt = model.optimizer
    opt.dynamic_scale.assign(512.0)
    opt.step_counter.assign(2)
    path = str(tmp_path / "mixed.keras")
    hl.saving.save_model(model, path)
    hl.mixed_precision.set_dtype_policy(None)  # the file, not the global policy, decides the dtypes
    loaded = hl.saving.load_model(path)
    assert [layer.dtype_policy.name for layer in loaded.layers] == ["mixed_float16"] * 3
    assert all(v.dtype == "float32" for v in loaded.weights)
    for a, b in zip(model.weights, loaded.weights):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    lopt = loaded.optimizer
    assert type(lopt) is hl.optimizers.LossScaleOptimizer and type(lopt.inner_optimizer) is hl.optimizers.Adam
    assert (lopt.initial_scale, lopt.dynamic_growth_steps) == (64.0, 3)
    assert (float(lopt.dynamic_scale.numpy()), int(lopt.step_counter.numpy())) == (512.0, 2)
    assert int(lopt.iterations.numpy()) == int(opt.iterations.numpy()) == 4
    for a, b in zip(opt.variables, lopt.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_recurrent_and_attention_layers_train(backend):
    """RNN cells run through the RNN's loop (not their own __call__) and MultiHeadAttention builds sub-layers:
    both must compute in float16 under the policy, traced (jax scan, tf while loop) too."""
    hl.mixed_precision.set_dtype_policy("mixed_float16")
    inp = hl.Input((5, 3))
    h = hl.layers.LSTM(4, return_sequences=True)(inp)
    h = hl.layers.MultiHeadAttention(2, 2)(h, h)
    out = hl.layers.Dense(1)(hl.layers.GRU(3)(h))
    model = hl.Model(inp, out)
    assert out.dtype == "float16"
    model.compile(optimizer=hl.optimizers.Adam(0.01), loss="mse")
    x = np.random.default_rng(1).random((16, 5, 3)).astype("float32")
    y = x.sum(axis=(1, 2))[:, None] / 5.0
    losses = model.fit(x, y, batch_size=8, epochs=3, verbose=0).history["loss"]
    assert np.all(np.isfinite(losses)) and losses[-1] < losses[0]
    assert model.predict(x[:2], verbose=0).dtype == np.float16
    assert all(v.dtype == "float32" for v in model.weights)


class _CountingScale(hl.layers.Layer):
    """A float32 weight read in the compute dtype, and a float32 state variable assigned in call."""

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
        self.total = self.add_weight(shape=(), initializer="zeros", trainable=False, name="total")

    def call(self, x):
        assert hl.ops.dtype(self.w) == self.compute_dtype  # reads are autocast
        self.total.assign(self.total + hl.ops.cast(hl.ops.sum(x), "float32"))
        return hl.ops.multiply(x, self.w)

    def compute_output_spec(self, x):
        return hl.KerasTensor(x.shape, self.compute_dtype)  # the symbolic build must not assign


def test_assignments_in_an_autocast_call_take_effect(backend):
    """Assignments made inside the autocast block reach the variable, eagerly and in a compiled fit: the same
    totals as under the float32 policy (where no autocast block is entered)."""
    totals = {}
    for policy in ("float32", "mixed_bfloat16"):
        hl.mixed_precision.set_dtype_policy(policy)
        layer = _CountingScale()
        model = hl.Sequential([hl.Input((2,)), layer, hl.layers.Dense(1)])
        x = np.ones((4, 2), "float32")
        model(x)
        assert float(layer.total.numpy()) == 8.0 and layer.total.dtype == "float32"
        model.compile(optimizer="sgd", loss="mse")
        model.fit(x, np.zeros((4, 1), "float32"), batch_size=2, epochs=2, verbose=0)
        totals[policy] = float(layer.total.numpy())
    assert totals["mixed_bfloat16"] == totals["float32"] > 8.0
