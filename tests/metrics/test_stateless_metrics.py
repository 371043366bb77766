"""``Metric.stateless_update_state`` / ``stateless_result`` / ``stateless_reset_state``: the metric's updates as pure
functions of its state values, giving what the stateful methods give and leaving the variables alone."""

import numpy as np
import pytest

import highlevel as hl

Y_TRUE = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0]], "float32")
Y_PRED = np.array([[0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.2, 0.2, 0.6], [0.5, 0.4, 0.1]], "float32")

METRICS = [
    ("CategoricalAccuracy", {}),
    ("MeanSquaredError", {}),
    ("AUC", {"num_thresholds": 20}),
    ("Precision", {"thresholds": 0.5}),
]


@pytest.mark.parametrize("name,kwargs", METRICS, ids=[m for m, _ in METRICS])
def test_stateless_updates_match_stateful_ones(backend, name, kwargs):
    stateful, pure = getattr(hl.metrics, name)(**kwargs), getattr(hl.metrics, name)(**kwargs)
    state = pure.variables
    for lo, hi in ((0, 2), (2, 4)):
        stateful.update_state(Y_TRUE[lo:hi], Y_PRED[lo:hi])
        state = pure.stateless_update_state(state, Y_TRUE[lo:hi], Y_PRED[lo:hi])
    expected = float(stateful.result())
    assert 0.0 < expected  # the batches moved the metric
    assert float(pure.stateless_result(state)) == pytest.approx(expected, rel=1e-6)
    # The variables of the metric used statelessly never changed: its own result is the empty one.
    fresh = getattr(hl.metrics, name)(**kwargs)
    assert float(pure.result()) == pytest.approx(float(fresh.result()))
    reset = pure.stateless_reset_state()
    assert [hl.ops.convert_to_numpy(v).tolist() for v in reset] == [v.numpy().tolist() for v in fresh.variables]
    stateful.reset_state()
    assert float(pure.stateless_result(reset)) == pytest.approx(float(stateful.result()))


def test_stateless_metric_errors(backend):
    m = hl.metrics.Mean()
    with pytest.raises(ValueError, match=r"Mean.stateless_update_state\(\).*one value per variable.*\(2\).*received 1"):
        m.stateless_update_state(m.variables[:1], [1.0])
    with pytest.raises(ValueError, match=r"Mean.stateless_result\(\).*received 3"):
        m.stateless_result(m.variables + m.variables[:1])
