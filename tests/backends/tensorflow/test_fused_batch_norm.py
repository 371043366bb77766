"""The TensorFlow engine's batch_normalization of channels-last float32 images: the inference batch-norm kernel,
folded by Grappler into the convolution before it, with a gradient for every input (the kernel's own has none
for the mean and the variance) that matches the composite form's, to second order."""

import numpy as np
import pytest

from highlevel.backends.contract.nn_more import NNMoreContract

RNG = np.random.default_rng(11)
X = RNG.standard_normal((2, 5, 5, 3)).astype("float32")
K = RNG.standard_normal((1, 1, 3, 4)).astype("float32")
VECTORS = {
    "mean": RNG.standard_normal(4).astype("float32"),
    "variance": RNG.uniform(0.5, 2.0, 4).astype("float32"),
    "offset": RNG.standard_normal(4).astype("float32"),
    "scale": RNG.standard_normal(4).astype("float32"),
}


def _composite(tfb, x, mean, variance, offset, scale):
    # The contract's form (the multiply-add), which the fused path must match.
    return NNMoreContract.batch_normalization(tfb, x, mean, variance, -1, offset=offset, scale=scale, epsilon=1e-3)


@pytest.mark.parametrize("affine", [True, False])
def test_gradients_of_all_inputs_match_the_composite_form(tfb, tf, affine):
    x = tf.constant(np.einsum("nhwc,ck->nhwk", X, K[0, 0]))
    vec = {k: tf.constant(v) for k, v in VECTORS.items()}
    if not affine:
        vec.pop("offset"), vec.pop("scale")
    names = ["x", *vec]
    results = {}
    for form, fn in (("fused", tfb.batch_normalization), ("composite", None)):
        inputs = [x, *vec.values()]
        with tf.GradientTape(persistent=True) as outer:
            outer.watch(inputs)
            with tf.GradientTape() as tape:
                tape.watch(inputs)
                kw = dict(zip(names[1:], inputs[1:]))
                if fn is None:
                    y = _composite(tfb, inputs[0], kw["mean"], kw["variance"], kw.get("offset"), kw.get("scale"))
                else:
                    y = fn(inputs[0], kw["mean"], kw["variance"], -1, offset=kw.get("offset"), scale=kw.get("scale"))
                loss = tf.reduce_sum(tf.sin(y))
            grads = tape.gradient(loss, inputs)
            # a second-order term: the gradient of the squared gradient norm with respect to every input
            second = tf.add_n([tf.reduce_sum(g * g) for g in grads])
        results[form] = (y, grads, outer.gradient(second, inputs))
    (yf, gf, hf), (yc, gc, hc) = results["fused"], results["composite"]
    np.testing.assert_allclose(yf.numpy(), yc.numpy(), rtol=1e-5, atol=1e-5)
    for name, a, b in zip(names, gf, gc):
        assert a is not None, name
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-4, err_msg=name)
    for name, a, b in zip(names, hf, hc):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-3, atol=1e-3, err_msg=name)


def test_inference_batch_norm_is_the_fused_kernel_and_other_inputs_fall_back(tfb, tf):
    @tf.function(autograph=False)
    def run(x):
        v = VECTORS
        return tfb.batch_normalization(x, v["mean"], v["variance"], 3, offset=v["offset"], scale=v["scale"])

    x4 = tf.constant(np.einsum("nhwc,ck->nhwk", X, K[0, 0]))
    types = {op.type for op in run.get_concrete_function(x4).graph.get_operations()}
    assert "FusedBatchNormV3" in types
    # rank 2, channels-first and float64 inputs keep the multiply-add form
    x2 = tf.constant(x4.numpy().reshape(-1, 4))
    assert "FusedBatchNormV3" not in {op.type for op in run.get_concrete_function(x2).graph.get_operations()}
    v = VECTORS
    want = (x2.numpy() - v["mean"]) / np.sqrt(v["variance"] + 1e-3) * v["scale"] + v["offset"]
    np.testing.assert_allclose(run(x2).numpy(), want, rtol=1e-5, atol=1e-5)
    x64 = tf.constant(x4.numpy().astype("float64"))
    y64 = tfb.batch_normalization(x64, *(v[k].astype("float64") for k in ("mean", "variance")), -1)
    np.testing.assert_allclose(y64.numpy(), (x64.numpy() - v["mean"]) / np.sqrt(v["variance"] + 1e-3), rtol=1e-6)


def test_a_batch_norm_layer_after_a_convolution_folds_into_it(tfb, tf):
    import highlevel as hl

    with hl.config.backend_scope("tensorflow"):
        inputs = hl.Input((6, 6, 3))
        x = hl.layers.Conv2D(4, 1, use_bias=False)(inputs)
        x = hl.layers.BatchNormalization()(x)
        model = hl.Model(inputs, hl.layers.ReLU(6.0)(x))
        bn = model.layers[2]
        bn.moving_mean.assign(VECTORS["mean"])
        bn.moving_variance.assign(VECTORS["variance"])
        bn.gamma.assign(VECTORS["scale"])
        bn.beta.assign(VECTORS["offset"])
        x = RNG.standard_normal((2, 6, 6, 3)).astype("float32")
        conv = np.einsum("nhwc,ck->nhwk", x, hl.ops.convert_to_numpy(model.layers[1].kernel)[0, 0])
        v = VECTORS
        want = np.clip((conv - v["mean"]) / np.sqrt(v["variance"] + 1e-3) * v["scale"] + v["offset"], 0, 6)
        np.testing.assert_allclose(model.predict(x, verbose=0), want, rtol=1e-5, atol=1e-5)
