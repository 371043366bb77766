"""The native engine's fused LSTM time loop (ops_recurrent.py) against the op-by-op composition it replaces.

The values and first-order gradients of every case are also in the conformance table (``lstm_sequence`` in
tests/conformance/cases_nn.py: finite differences and every engine); here, what is native-specific: one graph
node per layer, the second-order (graph-mode) rule, and the LSTM layer taking the fused path with the same
results as its generic loop.
"""

import numpy as np
import pytest

import highlevel as hl
from highlevel.backends.contract.fused import FusedContract
from highlevel.backends.native import NativeBackend, Tensor
from highlevel.backends.native import ops_recurrent as R
from highlevel.backends.native.autograd import grad

B = NativeBackend()
SHAPES = [(3, 5, 4), (3, 6), (3, 6), (4, 24), (6, 24), (24,)]


def _leaves(seed=0):
    rng = np.random.default_rng(seed)
    return [Tensor(rng.standard_normal(s) * 0.7, requires_grad=True) for s in SHAPES]


def _packed(outs):
    seq, h, c = outs
    return B.concatenate([seq, B.expand_dims(h, 1), B.expand_dims(c, 1)], axis=1)


def test_fused_values_and_gradients_match_the_composition_in_float64():
    fused, composed = _leaves(), _leaves()
    got = _packed(R.lstm_sequence(*fused))
    want = _packed(FusedContract.lstm_sequence(B, *composed))  # the generic definition
    np.testing.assert_allclose(got.data, want.data, rtol=1e-12, atol=1e-13)
    cot = np.random.default_rng(1).standard_normal(got.shape)
    for a, b in zip(grad([got], fused, [cot]), grad([want], composed, [cot])):
        np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-12)


def test_the_whole_sequence_is_one_graph_node():
    seq, _, _ = R.lstm_sequence(*_leaves())
    (packed,) = seq._node.inputs  # the output is a slice of the packed result of the one node
    assert packed._node.name == "lstm_sequence"
    assert all(t._node is None for t in packed._node.inputs)  # straight on the leaves: no per-step nodes


def test_second_derivatives_match_the_composition():
    def second(fn):
        leaves = _leaves(2)
        x, kernel = leaves[0], leaves[3]
        seq, h, c = fn(*leaves)
        loss = B.sum(B.multiply(seq, seq)) + B.sum(c)
        (gk,) = grad([loss], [kernel], create_graph=True)
        (hx,) = grad([B.sum(B.multiply(gk, gk))], [x])
        return np.asarray(hx)

    generic = lambda *a: FusedContract.lstm_sequence(B, *a)  # noqa: E731
    np.testing.assert_allclose(second(R.lstm_sequence), second(generic), rtol=1e-10, atol=1e-12)


def test_bad_shapes_name_what_was_received():
    leaves = _leaves()
    leaves[4] = Tensor(np.zeros((6, 20)))
    with pytest.raises(ValueError, match=r"recurrent_kernel has shape \(6, 20\); expected \(6, 24\)"):
        R.lstm_sequence(*leaves)
    with pytest.raises(ValueError, match="inputs must be \\(batch, time, features\\)"):
        R.lstm_sequence(Tensor(np.zeros((3, 4))), *leaves[1:])


@pytest.mark.parametrize("go_backwards", [False, True])
def test_lstm_layer_takes_the_fused_path_with_the_generic_loops_results(go_backwards):
    x = np.random.default_rng(3).standard_normal((2, 7, 3)).astype(np.float32)
    with hl.config.backend_scope("native"):
        hl.utils.set_random_seed(0)
        fused = hl.layers.LSTM(5, return_sequences=True, return_state=True, go_backwards=go_backwards)
        generic = hl.layers.LSTM(5, return_sequences=True, return_state=True, go_backwards=go_backwards, unroll=True)
        fused.build((2, 7, 3))
        generic.build((2, 7, 3))
        generic.set_weights(fused.get_weights())
        assert fused._fusable(None, True) and not generic._fusable(None, True)

        def loss_of(layer):
            def loss(xt):
                seq, h, c = layer(xt)
                return hl.ops.sum(seq * seq) + hl.ops.sum(h) + hl.ops.sum(c * c)

            return loss

        xt = hl.ops.convert_to_tensor(x)
        values = [hl.ops.convert_to_numpy(t) for t in fused(xt)]
        expected = [hl.ops.convert_to_numpy(t) for t in generic(xt)]
        g_fused = hl.ops.convert_to_numpy(hl.ops.grad(loss_of(fused))(xt))
        g_generic = hl.ops.convert_to_numpy(hl.ops.grad(loss_of(generic))(xt))
    for a, b in zip(values, expected):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(g_fused, g_generic, rtol=1e-4, atol=1e-5)


def test_dropout_and_masks_keep_the_generic_loop():
    with hl.config.backend_scope("native"):
        layer = hl.layers.LSTM(4, dropout=0.5)
        assert not layer._fusable(None, True) and layer._fusable(None, False)
        assert not hl.layers.LSTM(4)._fusable(hl.ops.ones((2, 3), dtype="bool"), False)
        assert not hl.layers.LSTM(4, activation="relu")._fusable(None, False)
