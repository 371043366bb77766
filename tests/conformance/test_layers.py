"""Cross-backend conformance of every layer in ``hl.layers``.

Each line of :data:`CASES` names a layer, its constructor arguments and its inputs. For each layer and
backend (one test id each) the layer is built on that backend, given the SAME weights (numpy, drawn from a
generator seeded by the case id) and the same inputs, and then:

* its output (and, for stateful layers, the updated non-trainable weights, the losses and the mask) is
  compared with the native engine's float64 run and with the native float32 run, and
* the gradients of ``sum(output * cotangent)`` (fixed cotangent) with respect to the float inputs and the
  trainable weights, taken through ``layer.stateless_call`` under ``hl.ops.value_and_grad``, are compared
  with the native float64 gradients.

Tolerances come from the one table, :mod:`tests.conformance.tolerances`: each case names the op whose
numerics it resembles (``like``: a Dense layer accumulates like ``matmul``, Softmax is ``softmax``).
:data:`LAYER_TOLERANCE_OVERRIDES` below holds layer-specific widenings not (yet) in that table.

Random layers (dropout, noise) are compared in inference mode; in training mode only their shapes and
statistics are checked, since each engine draws from its own generator. BatchNormalization runs in both
modes, including the updated moving statistics. A last test checks that ``hl.utils.set_random_seed`` gives
bitwise-identical initial weights on all four backends.

Paths on an engine that compiles composite functions (JAX): ``test_layer_outputs`` calls each layer eagerly (one
program per op), and ``test_layer_gradients`` takes each case's gradients as ONE compiled program (the
``value_and_grad`` under ``door_composite``), the way a jitted training step differentiates a layer. The other
engines run both op by op.
"""

import functools
import importlib
import pathlib
import zlib

import numpy as np
import pytest

import highlevel as hl

from .harness import compare
from .layer_case import LayerCase, ints, normal, positive, with_zero_steps  # noqa: F401
from .tolerances import tolerance

BACKENDS = ("native", "jax", "torch", "tensorflow")

#: Layer-level tolerance entries, to be merged into tolerances.OVERRIDES by the table's owner. Keyed by the
#: case's ``like`` name; each value is ``{"tol": (rtol, atol), "kind": "forward" | "grad" | None, "reason"}``.
#: Looked up before the table.
LAYER_TOLERANCE_OVERRIDES = {}


def layer_tolerance(like, dtype, backend, kind):
    entry = LAYER_TOLERANCE_OVERRIDES.get(like)
    if entry is not None and entry["kind"] in (None, kind):
        return entry["tol"]
    return tolerance(like, dtype, backend, kind)


def _input_layer_model(dtype):
    """InputLayer has no call of its own: conformance runs it as the start of a small functional model."""
    inp = hl.layers.InputLayer(shape=(5,), dtype=dtype).output_tensor
    return hl.Model(inp, hl.layers.Dense(3, dtype=dtype)(inp))


class _Reversed(hl.layers.Layer):
    """Runs a ReversibleEmbedding in reverse (vectors to logits), the mode a plain case cannot select."""

    def __init__(self, inner):
        super().__init__(dtype=inner.dtype)
        self.inner = inner

    def call(self, inputs):
        return self.inner(inputs, reverse=True)


def _lambda_fn(x):
    return hl.ops.sin(x) * 0.5 + hl.ops.square(x)


L = LayerCase
CASES = [
    L("input_layer", "InputLayer", inputs=normal(4, 5), like="matmul", build=_input_layer_model),
    L("dense", "Dense", {"units": 6}, normal(4, 3), like="matmul"),
    L("dense_tanh_3d", "Dense", {"units": 5, "activation": "tanh"}, normal(2, 3, 4), like="matmul"),
    L("dense_no_bias", "Dense", {"units": 2, "use_bias": False}, normal(3, 4), like="matmul"),
    L(
        "dense_l2",
        "Dense",
        {"units": 3, "kernel_regularizer": "l2", "activity_regularizer": "l1"},
        normal(3, 4),
        like="matmul",
    ),
    L(
        "einsum_dense",
        "EinsumDense",
        {"equation": "abc,cd->abd", "output_shape": (None, 6), "bias_axes": "d"},
        normal(2, 3, 4),
        like="einsum",
    ),
    L(
        "einsum_dense_2d_out",
        "EinsumDense",
        {"equation": "ab,bcd->acd", "output_shape": (3, 2), "bias_axes": "cd", "activation": "relu"},
        normal(4, 5),
        like="einsum",
    ),
    L("activation_gelu", "Activation", {"activation": "gelu"}, normal(3, 4), like="gelu"),
    L("activation_softplus", "Activation", {"activation": "softplus"}, normal(3, 4), like="softplus"),
    L("dropout", "Dropout", {"rate": 0.3, "seed": 1}, normal(4, 5), random=True),
    L("spatial_dropout1d", "SpatialDropout1D", {"rate": 0.3, "seed": 1}, normal(2, 5, 4), random=True),
    L("spatial_dropout2d", "SpatialDropout2D", {"rate": 0.3, "seed": 1}, normal(2, 3, 3, 4), random=True),
    L("spatial_dropout3d", "SpatialDropout3D", {"rate": 0.3, "seed": 1}, normal(2, 2, 2, 2, 3), random=True),
    L("gaussian_noise", "GaussianNoise", {"stddev": 0.5, "seed": 1}, normal(4, 5), random=True),
    L("gaussian_dropout", "GaussianDropout", {"rate": 0.3, "seed": 1}, normal(4, 5), random=True),
    L("alpha_dropout", "AlphaDropout", {"rate": 0.3, "seed": 1}, normal(4, 5), random=True),
    L("flatten", "Flatten", {}, normal(2, 3, 4)),
    L("reshape", "Reshape", {"target_shape": (2, -1)}, normal(3, 4, 3)),
    L("permute", "Permute", {"dims": (2, 1)}, normal(2, 3, 4)),
    L("repeat_vector", "RepeatVector", {"n": 3}, normal(2, 4)),
    L("embedding", "Embedding", {"input_dim": 6, "output_dim": 3}, ints(3, 4, high=6)),
    L("reversible_embedding", "ReversibleEmbedding", {"input_dim": 6, "output_dim": 3}, ints(3, 4, high=6)),
    L(
        "reversible_embedding_reverse",
        "ReversibleEmbedding",
        inputs=normal(3, 4, 3),
        like="matmul",
        build=lambda dtype: _Reversed(hl.layers.ReversibleEmbedding(6, 3, tie_weights=False, dtype=dtype)),
    ),
    L("lambda", "Lambda", {"function": _lambda_fn}, normal(3, 4), like="sin"),
    L("identity", "Identity", {}, normal(3, 4)),
    L("add", "Add", {}, [normal(3, 4), normal(3, 4), normal(3, 4)]),
    L("subtract", "Subtract", {}, [normal(3, 4), normal(3, 4)]),
    L("multiply", "Multiply", {}, [normal(3, 4), normal(3, 4)]),
    L("average", "Average", {}, [normal(3, 4), normal(3, 4)], like="mean"),
    L("maximum", "Maximum", {}, [normal(3, 4), normal(3, 4)]),
    L("minimum", "Minimum", {}, [normal(3, 4), normal(3, 4)]),
    L("concatenate", "Concatenate", {"axis": 1}, [normal(2, 3, 4), normal(2, 2, 4)]),
    L("dot", "Dot", {"axes": 1}, [normal(3, 4), normal(3, 4)], like="matmul"),
    L("dot_normalize", "Dot", {"axes": (2, 2), "normalize": True}, [normal(2, 3, 4), normal(2, 5, 4)], like="matmul"),
    L("relu", "ReLU", {}, normal(3, 4)),
    L("relu_params", "ReLU", {"max_value": 1.0, "negative_slope": 0.1, "threshold": 0.2}, normal(4, 5)),
    L("leaky_relu", "LeakyReLU", {"negative_slope": 0.2}, normal(3, 4)),
    L("elu", "ELU", {"alpha": 0.7}, normal(3, 4), like="elu"),
    L("prelu", "PReLU", {}, normal(3, 4)),
    L("prelu_shared", "PReLU", {"shared_axes": [1]}, normal(2, 3, 4)),
    L("softmax", "Softmax", {}, normal(3, 4), like="softmax"),
    L("softmax_axis1", "Softmax", {"axis": 1}, normal(2, 3, 4), like="softmax"),
    L("layer_normalization", "LayerNormalization", {}, normal(3, 6), like="var"),
    L(
        "layer_normalization_rms",
        "LayerNormalization",
        {"rms_scaling": True, "axis": [1, 2]},
        normal(2, 3, 4),
        like="var",
    ),
    L("batch_normalization", "BatchNormalization", {"momentum": 0.8}, normal(6, 4), like="var", modes=(False, True)),
    L(
        "batch_normalization_axis1",
        "BatchNormalization",
        {"axis": 1, "momentum": 0.5, "center": False},
        normal(3, 4, 2, 2),
        like="var",
        modes=(False, True),
    ),
    L("group_normalization", "GroupNormalization", {"groups": 2}, normal(2, 3, 4), like="var"),
    L("unit_normalization", "UnitNormalization", {}, normal(3, 4), like="sum"),
    L("rms_normalization", "RMSNormalization", {}, normal(3, 4), like="sum"),
    L("rms_normalization_axes", "RMSNormalization", {"axis": [1, 2], "epsilon": 1e-3}, normal(2, 3, 4), like="sum"),
    L(
        "spectral_normalization",
        "SpectralNormalization",
        inputs=normal(4, 5),
        like="matmul",
        build=lambda dtype: hl.layers.SpectralNormalization(hl.layers.Dense(3, dtype=dtype), dtype=dtype),
    ),
    L("rescaling", "Rescaling", {"scale": 1.0 / 255, "offset": -1.0}, normal(3, 4)),
    L(
        "normalization_given",
        "Normalization",
        {"mean": [0.5, -1.0, 2.0], "variance": [1.0, 4.0, 0.25]},
        normal(4, 3),
        like="rsqrt",
    ),
    L("normalization_adapted", "Normalization", {"axis": -1}, normal(4, 3), like="rsqrt"),
    L(
        "normalization_invert",
        "Normalization",
        {"mean": [1.0, 2.0], "variance": [4.0, 9.0], "invert": True},
        normal(3, 2),
        like="rsqrt",
    ),
    L("activity_regularization", "ActivityRegularization", {"l1": 0.01, "l2": 0.02}, normal(3, 4), like="sum"),
    L("masking", "Masking", {"mask_value": 0.0}, with_zero_steps(2, 4, 3)),
]


def _family_cases():
    """The ``CASES`` of every ``layer_cases_<family>.py`` next to this file, in file-name order."""
    out = []
    for path in sorted(pathlib.Path(__file__).parent.glob("layer_cases_*.py")):
        module = importlib.import_module(f"{__package__}.{path.stem}")
        out.extend(module.CASES)
    return out


CASES += _family_cases()

#: Exported Layer subclasses that are not layers to run on data, with the reason.
NOT_CASES = {
    "Layer": "the abstract base; every case exercises it",
    "Merge": "the abstract base of the merging layers (Add, Concatenate, ... are cases)",
    "MaxNumBoundingBoxes": "pads or truncates the bounding boxes of a dict input (no arithmetic); checked against "
    "Keras in tests/layers/preprocessing/test_max_num_bounding_boxes.py on every backend",
    "Wrapper": "the abstract base of the wrapping layers (SpectralNormalization is a case)",
    "FlaxLayer": "runs a Flax module, on the jax backend only (with flax installed); checked in "
    "tests/layers/core/test_jax_layer.py",
    "JaxLayer": "runs JAX functions, on the jax backend only; checked against the functions' own numbers in "
    "tests/layers/core/test_jax_layer.py",
    "HashedCrossing": "hashes on the host (the bins of TensorFlow's cross hashing, computed with numpy), strings "
    "or ints alike; checked against Keras in tests/layers/preprocessing/test_hashed_crossing.py "
    "on every backend",
    "StringLookup": "reads host strings only (no engine has string tensors); checked against Keras in "
    "tests/layers/preprocessing/test_string_lookup.py on every backend",
    "TFSMLayer": "runs a TensorFlow SavedModel, on the tensorflow backend only; checked against the SavedModel's "
    "own numbers in tests/interop/test_tensorflow_loops.py",
    "TextVectorization": "reads host strings only (no engine has string tensors); checked against Keras in "
    "tests/layers/preprocessing/test_text_vectorization.py on every backend",
    "TorchModuleWrapper": "runs a torch.nn.Module, on the torch backend only; checked in "
    "tests/interop/test_torch_modules.py",
}

IDS = [c.id for c in CASES]


def _seed(text):
    return zlib.crc32(text.encode())


def _layer_classes():
    return sorted(
        name
        for name in dir(hl.layers)
        if isinstance(getattr(hl.layers, name), type) and issubclass(getattr(hl.layers, name), hl.layers.Layer)
    )


def test_every_layer_has_a_case():
    covered = {c.cls for c in CASES} | set(NOT_CASES)
    missing = [name for name in _layer_classes() if name not in covered]
    assert not missing, f"layers in hl.layers without a conformance case: {missing}"


# ------------------------------------------------------------------------------------ one backend run
def _masters(case):
    """The float64 master inputs, the weights (numpy) and the cotangent rng seed of ``case``."""
    rng = np.random.default_rng(_seed(case.id))
    gens = case.inputs if case.multi else [case.inputs]
    return [g(rng) for g in gens]


def _cast_inputs(masters, dtype):
    return [m.astype(dtype) if m.dtype.kind == "f" else m for m in masters]


def _weights_for(case, layer):
    """Weights drawn for ``case`` in the shapes of ``layer`` (built): normal for most, positive for
    variances, the initial value for integer weights (e.g. Normalization's sample count)."""
    rng = np.random.default_rng(_seed(case.id + "/weights"))
    out = []
    for v in layer.weights:
        short = v.path.split("/")[-1]
        init = v.numpy()
        if init.dtype.kind != "f":
            out.append(init + 7)
        elif "variance" in short:
            out.append(rng.uniform(0.5, 2.0, size=init.shape))
        else:
            out.append(rng.normal(size=init.shape) * 0.7)
    return out


def _to_numpy(x):
    return None if x is None else np.asarray(hl.ops.convert_to_numpy(x))


def run_case(case, dtype, training, grads=True, whole=False):
    """Runs ``case`` on the current backend in ``dtype``; returns a dict of numpy results.

    ``whole``: the gradients' forward pass and backward pass run as one program where the engine compiles
    composite functions (``door_composite``; JAX: one ``jax.jit`` of the ``value_and_grad``), not op by op.
    """
    masters = _masters(case)
    inputs = _cast_inputs(masters, dtype)
    with hl.config.backend_scope("native"):
        probe = case.make("float64")
        probe([hl.ops.convert_to_tensor(x) for x in masters] if case.multi else hl.ops.convert_to_tensor(masters[0]))
        weights = _weights_for(case, probe)
    layer = case.make(dtype)
    xs = [hl.ops.convert_to_tensor(x) for x in inputs]
    pack = (lambda xs: list(xs)) if case.multi else (lambda xs: xs[0])
    layer(pack(xs), training=False)
    layer.set_weights([w.astype(v.dtype) for w, v in zip(weights, layer.weights)])
    tv = [v.value for v in layer.trainable_variables]
    ntv = [v.value for v in layer.non_trainable_variables]
    out, new_ntv, losses = layer.stateless_call(tv, ntv, pack(xs), training=training, return_losses=True)
    result = {
        "output": _to_numpy(out),
        "non_trainable": [_to_numpy(v) for v in new_ntv],
        "non_trainable_before": [_to_numpy(v) for v in ntv],
        "losses": [_to_numpy(l) for l in losses],
    }
    if getattr(layer, "supports_masking", False) and type(layer).compute_mask is not hl.layers.Layer.compute_mask:
        result["mask"] = _to_numpy(layer.compute_mask(pack(xs)))
    if not grads:
        return result
    cot = np.random.default_rng(_seed(case.id + "/cot")).normal(size=result["output"].shape)
    cot = hl.ops.convert_to_tensor(cot.astype(result["output"].dtype))
    float_pos = [i for i, x in enumerate(inputs) if x.dtype.kind == "f"]

    def loss(weights, float_xs):
        full = list(xs)
        for i, v in zip(float_pos, float_xs):
            full[i] = v
        y, _ = layer.stateless_call(weights, ntv, pack(full), training=training)
        return hl.ops.sum(hl.ops.multiply(y, cot))

    value_and_grad = hl.ops.value_and_grad(loss, argnums=(0, 1))
    if whole:
        # One name for every case: each call replaces the last one's program instead of keeping all of them alive.
        value_and_grad = hl.config.current_backend().door_composite("conformance_layer_value_and_grad", value_and_grad)
    _, (w_grads, x_grads) = value_and_grad(tv, [xs[i] for i in float_pos])
    result["weight_grads"] = [_to_numpy(g) for g in w_grads]
    result["input_grads"] = [_to_numpy(g) for g in x_grads]
    result["weight_paths"] = [v.path.split("/")[-1] for v in layer.trainable_variables]
    return result


@functools.lru_cache(maxsize=None)
def reference(case_id, dtype, training):
    """The native engine's run of a case (float64: the reference; float32: the cross-backend anchor)."""
    case = CASES[IDS.index(case_id)]
    grads = not (case.random and training)
    with hl.config.backend_scope("native"):
        return run_case(case, dtype, training, grads=grads)


def _cases_modes():
    for case in CASES:
        for mode in case.modes:
            yield pytest.param(case, mode, id=f"{case.id}-{'train' if mode else 'infer'}")


# ------------------------------------------------------------------------------------------- tests
def _check(got, want, like, backend, kind, what, widen=1.0):
    rtol, atol = layer_tolerance(like, "float32", backend, kind)
    compare(got, want, rtol * widen, atol * widen, what)


def _flat(x):
    if isinstance(x, dict):
        return [a for k in sorted(x) for a in _flat(x[k])]
    if isinstance(x, (list, tuple)):
        return [a for v in x for a in _flat(v)]
    return [np.asarray(x)]


@pytest.mark.parametrize("case,training", list(_cases_modes()))
def test_layer_outputs(backend, case, training):
    """Outputs, updated non-trainable weights, losses and masks agree with native float64 (and float32)."""
    name = backend.name
    got = run_case(case, "float32", training, grads=False)
    if case.random and training:
        # Each engine draws its own random numbers: only the shapes, dtypes and finiteness can agree here
        # (the statistics are checked by test_random_layer_statistics).
        want = reference(case.id, "float32", training)
        for g, w in zip(_flat(got["output"]), _flat(want["output"])):
            assert g.shape == w.shape and g.dtype == w.dtype, f"{case.id} on {name}: {g.shape} vs {w.shape}"
            assert np.isfinite(g).all(), f"{case.id} on {name}: non-finite output in training mode"
        return
    want = reference(case.id, "float64", training)
    anchor = reference(case.id, "float32", training)
    where = f"{case.id} ({case.cls}, training={training}) on {name}"
    _check(got["output"], want["output"], case.like, name, "forward", f"{where}: output vs native float64")
    _check(got["output"], anchor["output"], case.like, name, "forward", f"{where}: output vs native float32", widen=2.0)
    assert len(got["non_trainable"]) == len(want["non_trainable"])
    for i, (g, w) in enumerate(zip(got["non_trainable"], want["non_trainable"])):
        _check(g, w, case.like, name, "forward", f"{where}: updated non-trainable weight {i}")
    if training and case.cls == "BatchNormalization":  # the moving statistics did move
        moved = [
            not np.allclose(a, b)
            for a, b in zip(got["non_trainable"], got["non_trainable_before"])
            if a.dtype.kind == "f"
        ]
        assert moved and all(moved), f"{where}: training did not update the moving statistics"
    assert len(got["losses"]) == len(want["losses"]), f"{where}: number of losses"
    for i, (g, w) in enumerate(zip(got["losses"], want["losses"])):
        _check(g, w, "sum", name, "forward", f"{where}: loss {i}")
    if "mask" in want:
        compare(got["mask"], want["mask"], 0, 0, f"{where}: mask")


#: Cases whose gradients test_layer_gradients takes op by op, not as one program, and why.
EAGER_GRADIENT_CASES = {
    # The image's extremes map exactly onto the clip bounds (0 and 255), where clip has a kink: one compiled program
    # rounds (x - min) * scale of the maximum a float32 ulp differently, which moves it across the kink and sends
    # its gradient the other way. Both are valid subgradients; the native reference follows the op-by-op order.
    "auto_contrast": "the extremes sit on clip's kink",
}


@pytest.mark.parametrize("case,training", [p for p in _cases_modes() if not (p.values[0].random and p.values[1])])
def test_layer_gradients(backend, case, training):
    """Gradients w.r.t. float inputs and trainable weights agree with native float64."""
    name = backend.name
    got = run_case(case, "float32", training, whole=case.id not in EAGER_GRADIENT_CASES)
    want = reference(case.id, "float64", training)
    where = f"{case.id} ({case.cls}, training={training}) on {name}"
    assert len(got["weight_grads"]) == len(want["weight_grads"])
    for path, g, w in zip(got["weight_paths"], got["weight_grads"], want["weight_grads"]):
        assert g is not None, f"{where}: no gradient for weight {path!r}"
        _check(g, w, case.like, name, "grad", f"{where}: gradient of weight {path!r}")
    for i, (g, w) in enumerate(zip(got["input_grads"], want["input_grads"])):
        assert g is not None, f"{where}: no gradient for input {i}"
        _check(g, w, case.like, name, "grad", f"{where}: gradient of input {i}")


# ------------------------------------------------------------------------ random layers, training mode
def _dropout_stats(y, x, rate, what):
    kept = y != 0
    frac = 1.0 - kept.mean()
    assert abs(frac - rate) < 0.02, f"{what}: dropped fraction {frac:.4f}, expected {rate} +- 0.02"
    np.testing.assert_allclose(y[kept], x[kept] / (1.0 - rate), rtol=1e-6, err_msg=f"{what}: kept values")


RANDOM_TRAINING = [
    ("dropout", lambda: hl.layers.Dropout(0.3, seed=3), (64, 256), ()),
    ("spatial_dropout1d", lambda: hl.layers.SpatialDropout1D(0.3, seed=3), (64, 5, 256), (1,)),
    ("spatial_dropout2d", lambda: hl.layers.SpatialDropout2D(0.3, seed=3), (64, 3, 2, 256), (1, 2)),
    ("spatial_dropout3d", lambda: hl.layers.SpatialDropout3D(0.3, seed=3), (32, 2, 2, 2, 512), (1, 2, 3)),
    ("gaussian_noise", lambda: hl.layers.GaussianNoise(0.5, seed=3), (64, 256), None),
    ("gaussian_dropout", lambda: hl.layers.GaussianDropout(0.3, seed=3), (64, 256), None),
]


@pytest.mark.parametrize("name,make,shape,constant_axes", RANDOM_TRAINING, ids=[r[0] for r in RANDOM_TRAINING])
def test_random_layer_statistics(backend, name, make, shape, constant_axes):
    """In training mode a random layer's output has the right shape and statistics on every backend."""
    layer = make()
    x = np.random.default_rng(0).uniform(0.5, 1.5, size=shape).astype("float32")
    y = _to_numpy(layer(hl.ops.convert_to_tensor(x), training=True))
    assert y.shape == x.shape and y.dtype == np.float32
    where = f"{name} on {backend.name}"
    if name == "gaussian_noise":
        noise = y - x
        assert abs(noise.mean()) < 0.02 and abs(noise.std() - 0.5) < 0.02, (where, noise.mean(), noise.std())
    elif name == "gaussian_dropout":
        factor = y / x
        want_std = np.sqrt(0.3 / 0.7)
        assert abs(factor.mean() - 1.0) < 0.03 and abs(factor.std() - want_std) < 0.03, (
            where,
            factor.mean(),
            factor.std(),
        )
    else:
        _dropout_stats(y, x, 0.3, where)
        kept = y != 0
        for axis in constant_axes:  # spatial dropout: one decision per (sample, channel)
            assert (kept == np.take(kept, [0], axis=axis)).all(), f"{where}: the mask varies along axis {axis}"
    # A second call draws a new mask/noise (the seed generator advances).
    y2 = _to_numpy(layer(hl.ops.convert_to_tensor(x), training=True))
    assert not np.array_equal(y, y2), f"{where}: two training calls drew the same randomness"


# ------------------------------------------------------------------- seeded initial weights, bitwise
def _sequential():
    return hl.Sequential(
        [
            hl.Input((5,)),
            hl.layers.Dense(8, activation="relu"),
            hl.layers.BatchNormalization(gamma_initializer="random_normal", beta_initializer="random_uniform"),
            hl.layers.Dense(4, kernel_initializer="he_normal", bias_initializer="truncated_normal"),
            hl.layers.PReLU(alpha_initializer="random_uniform"),
            hl.layers.Dense(2, kernel_initializer="orthogonal"),
        ]
    )


def _embedding_model():
    tokens = hl.Input((6,), dtype="int32")
    extra = hl.Input((3,))
    e = hl.layers.Embedding(20, 4)(tokens)
    e = hl.layers.LayerNormalization(gamma_initializer="glorot_normal")(e)
    e = hl.layers.EinsumDense("abc,cd->abd", output_shape=(None, 5), bias_axes="d", bias_initializer="lecun_uniform")(e)
    pooled = hl.layers.Flatten()(e)
    h = hl.layers.Concatenate()([pooled, hl.layers.Dense(3, kernel_initializer="variance_scaling")(extra)])
    return hl.Model([tokens, extra], hl.layers.Dense(2, kernel_initializer="lecun_normal")(h))


@pytest.mark.parametrize("seed", [0, 1234])
@pytest.mark.parametrize("build", [_sequential, _embedding_model], ids=["sequential", "embedding_functional"])
def test_seeded_initial_weights_are_bitwise_identical(seed, build):
    """``hl.utils.set_random_seed(s)`` then the same model gives exactly the same weights on every backend."""
    results = {}
    for name in BACKENDS:
        if name not in hl.backends.installed():
            continue
        with hl.config.backend_scope(name):
            hl.utils.set_random_seed(seed)
            model = build()
            results[name] = [(v.path.split("/")[-1], v.numpy()) for v in model.weights]
    ref = results["native"]
    for name, weights in results.items():
        assert len(weights) == len(ref), name
        for (short, w), (ref_short, r) in zip(weights, ref):
            assert short == ref_short and w.dtype == r.dtype and w.shape == r.shape, (name, short, ref_short)
            np.testing.assert_array_equal(w, r, err_msg=f"{name}: initial weight {short!r} differs from native")
    with hl.config.backend_scope("native"):  # a different seed gives different weights
        hl.utils.set_random_seed(seed + 1)
        other = [v.numpy() for v in build().weights]
    assert any(not np.array_equal(a, b[1]) for a, b in zip(other, ref) if b[1].std() > 0)
