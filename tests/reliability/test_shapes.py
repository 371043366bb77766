"""Shapes do not leak: ``predict`` on hundreds of input lengths reuses a few compiled programs (short batches
are padded to power-of-two buckets, see :mod:`highlevel.trainers.shape_buckets`), with the same outputs as
without padding. Programs are counted by how often the step's Python code runs (once per trace or recording)."""

import gc
import os

import numpy as np

import highlevel as hl


class _Counting(hl.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls, self.rows = 0, []

    def call(self, x):
        self.calls += 1
        self.rows.append(x.shape[0])
        return x


def test_predict_on_hundreds_of_lengths_compiles_a_bounded_number_of_programs(backend):
    counting = _Counting()
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((4,)), counting, hl.layers.Dense(8, activation="relu"), hl.layers.Dense(3)])
    x = np.random.default_rng(0).normal(size=(320, 4)).astype("float32")
    reference = model.predict(x, batch_size=32, verbose=0)  # full batches only
    for n in range(1, 301):
        out = model.predict(x[:n], batch_size=32, verbose=0)
        assert out.shape == (n, 3)
        np.testing.assert_allclose(out, reference[:n], rtol=1e-5, atol=1e-6)
    # one program per bucket (1, 2, 4, 8, 16, 32) plus the model's eager build; without buckets: 33
    assert counting.calls <= 7, counting.rows
    assert set(counting.rows[-6:]) <= {None, 1, 2, 4, 8, 16, 32}, counting.rows


def test_predict_pads_only_where_results_cannot_change(backend):
    class Summing(hl.Model):
        def predict_step(self, data):  # a step of its own: its batches are left as they are
            x = data[0] if isinstance(data, (list, tuple)) else data
            self.seen.append(x.shape[0])
            return self(x) + hl.ops.sum(x) * 0

    inputs = hl.Input((2,))
    model = Summing(inputs, hl.layers.Dense(1)(inputs))
    model.seen = []
    x = np.ones((37, 2), "float32")
    assert model.predict(x, batch_size=32, verbose=0).shape == (37, 1)
    assert 5 in model.seen and 8 not in model.seen
    eager = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    eager.compile(run_eagerly=True)
    assert not eager._pads_predict_batches()


def _evaluated_model(counting=None):
    hl.utils.set_random_seed(0)
    layers = [hl.Input((4,))] + ([counting] if counting is not None else []) + [hl.layers.Dense(3)]
    model = hl.Sequential(layers)
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    return model


def test_evaluate_on_hundreds_of_lengths_compiles_a_bounded_number_of_programs(backend):
    counting = _Counting()
    model = _evaluated_model(counting)
    weighted_model = _evaluated_model()  # the same weights; its programs take sample weights
    rng = np.random.default_rng(0)
    x = rng.normal(size=(300, 4)).astype("float32")
    y = rng.normal(size=(300, 3)).astype("float32")
    weights = rng.uniform(size=300).astype("float32")
    pred_all = weighted_model.predict(x, batch_size=32, verbose=0)
    for n in list(range(1, 40)) + list(range(250, 300)):
        loss, mae = model.evaluate(x[:n], y[:n], batch_size=32, verbose=0)
        pred = pred_all[:n]
        np.testing.assert_allclose(loss, np.mean((pred - y[:n]) ** 2), rtol=1e-4)
        np.testing.assert_allclose(mae, np.mean(np.abs(pred - y[:n])), rtol=1e-4)
        weighted = weighted_model.evaluate(x[:n], y[:n], sample_weight=weights[:n], batch_size=32, verbose=0)[0]
        per_sample = np.mean((pred - y[:n]) ** 2, axis=1) * weights[:n]
        np.testing.assert_allclose(weighted, per_sample.mean(), rtol=1e-4)
    # one program per bucket (1, 2, 4, 8, 16, 32), plus the symbolic and eager calls that build the model and
    # its metrics; without the split: one per distinct length below 32 (39 here)
    assert counting.calls <= 6 + 3, counting.rows


def _resident_bytes():
    """This process's resident memory now (Linux's /proc), or, where there is no /proc, its peak."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def test_predict_on_hundreds_of_lengths_keeps_memory_bounded(backend):
    # Without buckets, 300 lengths grew memory by 256 MB on JAX and 70 MB on TensorFlow (a program per length,
    # never released). With them, after one pass over every bucket, more lengths add no programs.
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((16,)), hl.layers.Dense(64, activation="relu"), hl.layers.Dense(4)])
    x = np.random.default_rng(1).normal(size=(700, 16)).astype("float32")
    for n in (1, 2, 3, 5, 9, 17, 33, 65, 130):  # every bucket of batch_size=128 once
        model.predict(x[:n], batch_size=128, verbose=0)
    gc.collect()
    before = _resident_bytes()
    for n in range(301, 601):
        model.predict(x[:n], batch_size=128, verbose=0)
    gc.collect()
    grown = _resident_bytes() - before
    assert grown < 48 * 1024**2, f"resident memory grew by {grown / 1024**2:.1f} MB over 300 input lengths"
