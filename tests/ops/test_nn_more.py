"""The rest of ``keras.ops.nn`` (``backends/contract/nn_more.py``) beyond the conformance tables: the ops in
functional models (symbolic shapes, then ``predict``, compiled on JAX and TensorFlow), CTC inside a training step,
the gradient conventions at the kinks of the new activations, and the front door's errors."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops


def _np(x):
    return np.asarray(ops.convert_to_numpy(x))


RNG = np.random.default_rng(0)


# ------------------------------------------------------------------------------------------- symbolic use
def _attention_model():
    x = hl.Input((6, 8))
    lengths = hl.Input((), dtype="int32")
    h = ops.layer_normalization(x)
    g = ops.glu(h)  # (None, 6, 4)
    q = ops.reshape(g, (-1, 6, 2, 2))
    att = ops.reshape(ops.dot_product_attention(q, q, q, is_causal=True), (-1, 6, 4))
    pooled = ops.adaptive_average_pool(att, 3)  # (None, 3, 4)
    paths, scores = ops.ctc_decode(att, lengths, strategy="beam_search", beam_width=4, top_paths=2)
    return hl.Model([x, lengths], [pooled, paths, scores]), (h, g, att, pooled, paths, scores)


def test_symbolic_shapes_and_dtypes():
    _, (h, g, att, pooled, paths, scores) = _attention_model()
    assert tuple(h.shape) == (None, 6, 8) and tuple(g.shape) == (None, 6, 4)
    assert tuple(att.shape) == (None, 6, 4) and tuple(pooled.shape) == (None, 3, 4)
    assert tuple(paths.shape) == (2, None, 6) and paths.dtype == "int32"
    assert tuple(scores.shape) == (None, 2) and scores.dtype == "float32"
    x = hl.Input((4, 4, 8))
    assert tuple(ops.depth_to_space(x, 2).shape) == (None, 8, 8, 2)
    assert tuple(ops.unfold(hl.Input((2, 5, 5)), 3).shape) == (None, 18, 9)
    assert tuple(ops.multi_hot(hl.Input((3,), dtype="int32"), 5).shape) == (None, 5)


def test_functional_model_predicts_like_eager_calls(backend):
    model, _ = _attention_model()
    x = RNG.standard_normal((5, 6, 8)).astype("float32")
    lengths = np.array([6, 5, 4, 6, 3], np.int32)
    pooled, paths, scores = model.predict([x, lengths], batch_size=5, verbose=0)
    t = ops.convert_to_tensor(x)
    g = ops.glu(ops.layer_normalization(t))
    q = ops.reshape(g, (-1, 6, 2, 2))
    att = ops.reshape(ops.dot_product_attention(q, q, q, is_causal=True), (-1, 6, 4))
    want_paths, want_scores = ops.ctc_decode(att, lengths, strategy="beam_search", beam_width=4, top_paths=2)
    np.testing.assert_allclose(pooled, _np(ops.adaptive_average_pool(att, 3)), rtol=1e-5, atol=1e-6)
    # predict stacks the batches along axis 0: the path axis comes first in ctc_decode's output
    np.testing.assert_array_equal(np.asarray(paths).reshape(_np(want_paths).shape), _np(want_paths))
    np.testing.assert_allclose(scores, _np(want_scores), rtol=1e-5, atol=1e-5)


def test_model_with_normalizations_and_cross_entropy_survives_a_config_round_trip(backend):
    x = hl.Input((4, 3))
    y = ops.rms_normalization(x, axis=(1, 2))
    y = ops.soft_shrink(ops.hard_silu(y), 0.1)
    probs = ops.sparsemax(ops.reshape(y, (-1, 12)))
    loss = ops.categorical_crossentropy(probs, probs)
    model = hl.Model(x, [probs, loss])
    again = hl.Model.from_config(model.get_config())
    data = RNG.standard_normal((3, 4, 3)).astype("float32")
    for got, want in zip(again(data), model(data)):
        np.testing.assert_allclose(_np(got), _np(want), rtol=1e-6)
    np.testing.assert_allclose(_np(model(data)[0]).sum(axis=-1), 1.0, rtol=1e-5)


# ---------------------------------------------------------------------------------------- CTC in training
def test_ctc_loss_trains_a_model_until_greedy_decoding_reads_the_targets(backend):
    steps, classes = 6, 4
    targets = np.array([[1, 2], [3, 1], [2, 2], [1, 3]], np.int32)  # "2 2" needs a blank between the two
    # each step sees which sample it is and where it is in time
    features = np.concatenate(
        [
            np.eye(4, dtype="float32")[:, None, :].repeat(steps, axis=1),
            np.eye(steps, dtype="float32")[None].repeat(4, axis=0),
        ],
        axis=2,
    )

    def ctc(y_true, y_pred):
        batch = ops.shape(y_pred)[0]
        return ops.ctc_loss(
            ops.cast(y_true, "int32"), y_pred, ops.full((batch,), 2, "int32"), ops.full((batch,), steps, "int32")
        )

    hl.utils.set_random_seed(1)
    inputs = hl.Input((steps, 4 + steps))
    hidden = hl.layers.Dense(16, activation="tanh")(inputs)
    model = hl.Model(inputs, hl.layers.Dense(classes)(hidden))
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss=ctc)
    history = model.fit(features, targets, batch_size=4, epochs=80, verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < 0.05 * losses[0], losses[::10]
    paths, _ = ops.ctc_decode(model.predict(features, verbose=0), np.full(4, steps, np.int32))
    np.testing.assert_array_equal(_np(paths)[0, :, :2], targets)
    assert (_np(paths)[0, :, 2:] == -1).all()


def test_ctc_loss_gradient_is_finite_where_the_alignment_is_impossible(backend):
    logits = ops.convert_to_tensor(RNG.standard_normal((2, 3, 3)).astype("float32"))
    target = np.array([[1, 1, 2], [1, 2, 0]], np.int32)  # row 0 needs 4 steps ("1 - 1 2"): impossible in 3

    def total(z):
        loss = ops.ctc_loss(target, z, np.array([3, 2], np.int32), np.array([3, 3], np.int32))
        return ops.sum(ops.where(ops.isfinite(loss), loss, 0.0))

    value, grad = ops.value_and_grad(total)(logits)
    g = _np(grad)
    assert np.isinf(_np(ops.ctc_loss(target, logits, np.array([3, 2]), np.array([3, 3])))[0])
    assert np.isfinite(g).all() and (g[0] == 0).all() and np.abs(g[1]).sum() > 0


# ---------------------------------------------------------------------------------- conventions at kinks
# name -> (function, inputs, expected gradient): JAX's choices where Keras's backends differ, see each comment
KINKS = {
    # JAX and TensorFlow (clip_by_value) give 1 at the bounds; PyTorch's hardtanh gives 0
    "hard_tanh-bounds": (ops.hard_tanh, [-1.0, 1.0, 2.0], [1.0, 1.0, 0.0]),
    # Keras's TensorFlow, PyTorch and NumPy backends (a `where` form) give 0 at -1 and 1; JAX's
    # 0.5 * clip(x + 1, 0, 2) splits its clip's tie to 0.25; we keep the saturated side's 0, as relu6's
    "sparse_sigmoid-saturation": (ops.sparse_sigmoid, [-1.0, 0.0, 1.0], [0.0, 0.5, 0.0]),
    "hard_shrink-threshold": (ops.hard_shrink, [-0.5, 0.5, 0.6], [0.0, 0.0, 1.0]),  # every engine agrees
    "soft_shrink-threshold": (ops.soft_shrink, [-0.5, 0.5, 0.6], [0.0, 0.0, 1.0]),
    "threshold-at-threshold": (lambda x: ops.threshold(x, 0.5, -1.0), [0.5, 0.6], [0.0, 1.0]),
    "sparse_plus-smooth": (ops.sparse_plus, [-1.0, 0.0, 1.0], [0.0, 0.5, 1.0]),  # its slope is continuous
    "celu-smooth": (ops.celu, [0.0], [1.0]),
    "hard_silu-ends": (ops.hard_silu, [-3.0, 3.0], [0.0, 1.0]),  # from hard_sigmoid's relu6: 0 at its kinks
    "binary_crossentropy-logit-0": (
        lambda x: ops.binary_crossentropy(ops.convert_to_tensor([1.0, 0.0, 0.3]), x, from_logits=True),
        [0.0, 0.0, 0.0],
        [-0.5, 0.5, 0.2],
    ),  # sigmoid(0) - target, exactly
    "normalize-zero-vector": (lambda x: ops.normalize(ops.reshape(x, (1, 3))), [0.0, 0.0, 0.0], [1e7, 1e7, 1e7]),
}


@pytest.mark.parametrize("name", list(KINKS))
def test_gradient_at_kinks(backend, name):
    fn, x, want = KINKS[name]
    _, g = ops.value_and_grad(lambda t: ops.sum(fn(t)))(ops.convert_to_tensor(np.array(x, np.float32)))
    np.testing.assert_allclose(_np(g), want, rtol=1e-6, err_msg=f"{backend.name} {name}")


@pytest.mark.parametrize("op", ["hard_tanh", "hard_shrink", "soft_shrink", "sparse_sigmoid", "threshold"])
def test_piecewise_linear_second_derivative_is_zero_off_the_kinks(backend, op):
    x = np.array([-4.0, -2.5, -0.7, 0.3, 2.0, 5.0], np.float32)  # no entry on a kink (+-0.5, +-1)
    fn = (lambda t: ops.threshold(t, 0.5, -1.0)) if op == "threshold" else getattr(ops, op)
    d2 = ops.grad(lambda t: ops.sum(ops.grad(lambda u: ops.sum(fn(u)))(t)))(ops.convert_to_tensor(x))
    assert _np(d2).tolist() == [0.0] * len(x), f"{backend.name}: {op}''"


# ----------------------------------------------------------------------------------------------- errors
X4 = np.zeros((1, 4, 4, 4), np.float32)


@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda: ops.glu(np.zeros((2, 3))), ValueError, "even"),
        (lambda: ops.celu(np.zeros(2), alpha=0), ValueError, "nonzero"),
        (lambda: ops.squareplus(np.zeros(2), b=-1), ValueError, ">= 0"),
        (lambda: ops.threshold(np.zeros(2), "a", 0.0), TypeError, "number"),
        (lambda: ops.batch_normalization(np.zeros((2, 3)), np.zeros(2), np.ones(3), axis=1), ValueError, "vector of"),
        (lambda: ops.layer_normalization(np.zeros(3), center=True), TypeError, "center"),
        (lambda: ops.normalize(np.zeros(3), order=0), ValueError, "order"),
        (lambda: ops.normalize(np.zeros(3), order=2.5), ValueError, "order"),
        (lambda: ops.binary_crossentropy(np.zeros(3), np.zeros(4)), ValueError, "same shape"),
        (lambda: ops.sparse_categorical_crossentropy(np.zeros((2, 3)), np.zeros((2, 3))), ValueError, "one-hot"),
        (lambda: ops.multi_hot(np.zeros(2, np.int32)), ValueError, "num_classes"),
        (lambda: ops.multi_hot(np.zeros(2, np.int32), 3, sparse=True), ValueError, "sparse"),
        (lambda: ops.psnr(np.zeros(3), np.zeros(4), 1.0), ValueError, "same shape"),
        (lambda: ops.adaptive_max_pool(np.zeros((4, 4)), 2), ValueError, "rank"),
        (lambda: ops.adaptive_average_pool(X4, (2, 2, 2)), ValueError, "output_size"),
        (lambda: ops.separable_conv(X4, np.zeros((3, 3, 4, 1)), np.zeros((4, 2))), ValueError, "rank 4"),
        (lambda: ops.unfold(np.zeros((4, 4, 4)), 2), ValueError, "4-D"),
        (lambda: ops.unfold(X4, 5), ValueError, "spans"),
        (lambda: ops.fold(np.zeros((1, 8, 5)), 4, 2), ValueError, "blocks"),
        (lambda: ops.fold(np.zeros((1, 6, 9)), 4, 2), ValueError, "multiple"),
        (lambda: ops.depth_to_space(np.zeros((1, 2, 2, 6)), 2), ValueError, "multiple of block_size"),
        (lambda: ops.depth_to_space(X4, 1), ValueError, "block_size"),
        (lambda: ops.space_to_depth(np.zeros((1, 3, 4, 1)), 2), ValueError, "multiples"),
        (lambda: ops.dot_product_attention(X4, X4[:, :, :3], X4[:, :, :3]), ValueError, "multiple"),
        (lambda: ops.dot_product_attention(X4, X4[..., :2], X4[..., :2]), ValueError, "head size"),
        (lambda: ops.dot_product_attention(X4[0], X4[0], X4[0]), ValueError, "4-D"),
        (lambda: ops.dot_product_attention(X4, X4, X4, attn_logits_soft_cap=0), ValueError, "positive"),
        (
            lambda: ops.ctc_loss(np.zeros((2, 3)), np.zeros((2, 5, 4)), np.zeros(3), np.zeros(2)),
            ValueError,
            "target_length",
        ),
        (
            lambda: ops.ctc_loss(np.zeros((2, 3)), np.zeros((2, 5, 4)), np.zeros(2), np.zeros(2), mask_index=4),
            ValueError,
            "mask_index",
        ),
        (lambda: ops.ctc_decode(np.zeros((2, 5, 4)), np.zeros(2), strategy="beam"), ValueError, "strategy"),
        (
            lambda: ops.ctc_decode(np.zeros((2, 5, 4)), np.zeros(2), strategy="beam_search", beam_width=2, top_paths=3),
            ValueError,
            "top_paths",
        ),
    ],
)
def test_errors_name_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_layer_normalization_rms_scaling_is_deprecated_but_computes(backend):
    x = np.array([[1.0, 2.0, 4.0]], np.float32)
    with pytest.warns(UserWarning, match="deprecated"):
        got = _np(ops.layer_normalization(x, gamma=np.array([1.0, 2.0, 3.0], np.float32), rms_scaling=True))
    np.testing.assert_allclose(got, x / np.sqrt(x.var() + 1e-7) * [1.0, 2.0, 3.0], rtol=1e-6)


def test_ctc_decode_mask_index_counts_from_the_end(backend):
    logits = RNG.standard_normal((2, 5, 4)).astype("float32")
    for strategy in ("greedy", "beam_search"):
        a = ops.ctc_decode(logits, [5, 3], strategy=strategy, beam_width=3, mask_index=-1)
        b = ops.ctc_decode(logits, [5, 3], strategy=strategy, beam_width=3, mask_index=None)
        c = ops.ctc_decode(logits, [5, 3], strategy=strategy, beam_width=3, mask_index=3)
        for x, y, z in zip(a, b, c):
            np.testing.assert_array_equal(_np(x), _np(y))
            np.testing.assert_array_equal(_np(x), _np(z))
