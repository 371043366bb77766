"""``run_layer_test``: the standard checks every layer passes, on the current backend.

In the spirit of Keras' ``TestCase.run_layer_test`` (shorter, our own): one call builds the layer and checks
its weight counts, its output shape three ways (``compute_output_shape``, a symbolic call on ``hl.Input``, an
eager call), the output values and dtype, the config round trip (same config; same output with the same
weights), a functional model containing it, the number of losses, masking support, and that every trainable
weight receives a finite gradient through ``stateless_call`` under ``hl.ops.value_and_grad``.

>>> import highlevel as hl
>>> with hl.config.backend_scope("native"):
...     _ = run_layer_test(hl.layers.Dense, {"units": 3}, input_shape=(2, 4), expected_output_shape=(2, 3),
...                        expected_num_trainable_weights=2, expected_num_non_trainable_weights=0)
"""

import numpy as np

import highlevel as hl
from highlevel.backends.contract.interop import front_class


def to_numpy(x):
    """A tensor, or a nested list/tuple/dict of tensors, as numpy arrays of the same structure."""
    if isinstance(x, dict):
        return {k: to_numpy(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(to_numpy(v) for v in x)
    if x is None:
        return None
    return np.asarray(hl.ops.convert_to_numpy(x))


def _is_shape(s):
    return isinstance(s, tuple) and all(d is None or (isinstance(d, int) and not isinstance(d, bool)) for d in s)


def _map_shapes(fn, shapes):
    """Applies ``fn`` to each shape tuple of a shape, or of a list/tuple/dict of shapes."""
    if _is_shape(shapes):
        return fn(shapes)
    if isinstance(shapes, dict):
        return {k: _map_shapes(fn, v) for k, v in shapes.items()}
    return [_map_shapes(fn, s) for s in shapes]


def make_input_data(input_shape, input_dtype="float32", seed=0):
    """Random numpy data of ``input_shape`` (a shape or a list/dict of shapes): normal floats; small
    non-negative ints (0..4) for integer dtypes; random bools."""
    rng = np.random.default_rng(seed)

    def one(shape, dtype):
        if dtype == "bool":
            return rng.random(shape) < 0.5
        if np.issubdtype(np.dtype(dtype), np.integer):
            return rng.integers(0, 5, size=shape).astype(dtype)
        return rng.normal(size=shape).astype(dtype)

    if _is_shape(input_shape):
        return one(input_shape, input_dtype)
    if isinstance(input_shape, dict):
        dtypes = input_dtype if isinstance(input_dtype, dict) else {k: input_dtype for k in input_shape}
        return {k: one(s, dtypes[k]) for k, s in input_shape.items()}
    dtypes = input_dtype if isinstance(input_dtype, (list, tuple)) else [input_dtype] * len(input_shape)
    return [one(s, d) for s, d in zip(input_shape, dtypes)]


def shapes_of(data):
    """The shape (or list/dict of shapes) of numpy data or tensors."""
    if isinstance(data, dict):
        return {k: shapes_of(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [shapes_of(v) for v in data]
    return tuple(int(d) for d in np.shape(data))


def _dtypes_of(data):
    if isinstance(data, dict):
        return {k: _dtypes_of(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_dtypes_of(v) for v in data]
    return hl.dtypes.standardize_dtype(np.asarray(data).dtype.name)


def to_tensors(data):
    """numpy data (or a list/dict of it) as tensors of the current backend, dtypes kept."""
    if isinstance(data, dict):
        return {k: to_tensors(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [to_tensors(v) for v in data]
    return hl.ops.convert_to_tensor(np.asarray(data))


def symbolic_inputs(input_shape, input_dtype):
    """``hl.Input`` tensors with the full (batch included) shapes of ``input_shape``."""
    if _is_shape(input_shape):
        return hl.Input(batch_shape=input_shape, dtype=input_dtype)
    if isinstance(input_shape, dict):
        return {k: hl.Input(batch_shape=s, dtype=input_dtype[k], name=k) for k, s in input_shape.items()}
    return [hl.Input(batch_shape=s, dtype=d) for s, d in zip(input_shape, input_dtype)]


def _assert_shapes_equal(got, want, what):
    assert _normalize(got) == _normalize(want), f"{what}: got shape {got}, expected {want}"


def _normalize(shapes):
    if _is_shape(shapes):
        return tuple(shapes)
    if isinstance(shapes, dict):
        return {k: _normalize(v) for k, v in shapes.items()}
    return [_normalize(s) for s in shapes]


def output_shapes(outputs):
    """The shape (or list/dict of shapes) of a layer's output tensors (eager or symbolic)."""
    if isinstance(outputs, dict):
        return {k: output_shapes(v) for k, v in outputs.items()}
    if isinstance(outputs, (list, tuple)):
        return [output_shapes(v) for v in outputs]
    return tuple(outputs.shape)


def _leaves(outputs):
    if isinstance(outputs, dict):
        return [x for k in sorted(outputs) for x in _leaves(outputs[k])]
    if isinstance(outputs, (list, tuple)):
        return [x for v in outputs for x in _leaves(v)]
    return [outputs]


def _assert_close(got, want, atol, rtol, what):
    got_l, want_l = _leaves(to_numpy(got)), _leaves(want if not hl.ops.is_tensor(want) else to_numpy(want))
    assert len(got_l) == len(want_l), f"{what}: {len(got_l)} outputs, expected {len(want_l)}"
    for g, w in zip(got_l, want_l):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape, f"{what}: shape {g.shape}, expected {w.shape}"
        if g.dtype.kind in "fc" or w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, atol=atol, rtol=rtol, err_msg=what)
        else:
            np.testing.assert_array_equal(g, w, err_msg=what)


def _has_training_arg(layer):
    return getattr(layer, "_call_has_training", False)


def gradient_check(layer, inputs, call_kwargs=None, training=None, seed=0):
    """Gradients of ``sum(output * cotangent)`` w.r.t. the trainable weights, via ``stateless_call`` under
    ``hl.ops.value_and_grad``; asserts one finite gradient of the weight's shape per trainable weight and
    that the call changed no variable. Returns the gradients as numpy arrays."""
    call_kwargs = dict(call_kwargs or {})
    if training is not None and _has_training_arg(layer):
        call_kwargs["training"] = training
    trainable = [v.value for v in layer.trainable_variables]
    non_trainable = [v.value for v in layer.non_trainable_variables]
    before = [v.numpy() for v in layer.weights]
    probe, _ = layer.stateless_call(trainable, non_trainable, inputs, **call_kwargs)
    rng = np.random.default_rng(seed)
    float_leaves = [x for x in _leaves(probe) if hl.dtypes.is_float_dtype(hl.ops.dtype(x))]
    cotangents = [
        hl.ops.convert_to_tensor(rng.normal(size=tuple(x.shape)).astype(hl.ops.dtype(x))) for x in float_leaves
    ]

    def loss(weights):
        out, _ = layer.stateless_call(weights, non_trainable, inputs, **call_kwargs)
        outs = [x for x in _leaves(out) if hl.dtypes.is_float_dtype(hl.ops.dtype(x))]
        total = 0.0
        for o, c in zip(outs, cotangents):
            total = hl.ops.add(total, hl.ops.sum(hl.ops.cast(hl.ops.multiply(o, c), "float32")))
        return total

    _, grads = hl.ops.value_and_grad(loss)(trainable)
    assert len(grads) == len(trainable), f"{len(grads)} gradients for {len(trainable)} trainable weights"
    out = []
    for v, g in zip(layer.trainable_variables, grads):
        assert g is not None, f"layer '{layer.name}': no gradient for trainable weight '{v.path}'"
        g = to_numpy(g)
        assert g.shape == tuple(v.shape), f"gradient of '{v.path}' has shape {g.shape}, expected {tuple(v.shape)}"
        assert np.all(np.isfinite(g)), f"gradient of '{v.path}' is not finite: {g}"
        out.append(g)
    for v, b in zip(layer.weights, before):
        np.testing.assert_array_equal(v.numpy(), b, err_msg=f"stateless_call changed '{v.path}'")
    return out


def run_layer_test(
    layer_cls,
    init_kwargs,
    input_shape=None,
    input_data=None,
    expected_output_shape=None,
    expected_num_trainable_weights=None,
    expected_num_non_trainable_weights=None,
    expected_num_losses=0,
    expected_output=None,
    expected_output_dtype=None,
    supports_masking=None,
    run_training_check=True,
    input_dtype="float32",
    call_kwargs=None,
    run_symbolic_check=True,
    run_functional_check=True,
    run_config_check=True,
    atol=1e-6,
    rtol=1e-6,
):
    """Runs the standard checks of a layer on the current backend; raises AssertionError on a failure.

    Args:
        layer_cls: the layer class.
        init_kwargs: constructor arguments.
        input_shape: the full input shape (batch axis included), or a list/dict of shapes for a multi-input
            layer; random data of ``input_dtype`` is drawn. Give this or ``input_data``.
        input_data: numpy input data (or a list/dict of arrays) instead of ``input_shape``.
        expected_output_shape: the full output shape (or a list/dict of shapes).
        expected_num_trainable_weights, expected_num_non_trainable_weights: weight counts once built.
        expected_num_losses: the number of entries in ``layer.losses`` after a call.
        expected_output: numpy values the eager output must match (needs ``input_data``).
        expected_output_dtype: the output's dtype name.
        supports_masking: the expected value of ``layer.supports_masking`` (None: not checked).
        run_training_check: check finite weight gradients through ``stateless_call`` (in training mode
            when the layer's ``call`` takes ``training``).
        input_dtype: the dtype (or list/dict of dtypes) of drawn data and of the symbolic inputs.
        call_kwargs: extra keyword arguments for every call of the layer.
        run_symbolic_check, run_functional_check, run_config_check: turn a group of checks off (say why in
            the test) for layers that cannot take part, e.g. a Lambda whose function is not serializable.
        atol, rtol: tolerances for the value comparisons.

    Returns:
        The built layer (called once on the input data).
    """
    if (input_shape is None) == (input_data is None):
        raise ValueError("run_layer_test needs exactly one of `input_shape` and `input_data`.")
    if expected_output is not None and input_data is None:
        raise ValueError("`expected_output` needs `input_data`, so that the expected values refer to known inputs.")
    call_kwargs = dict(call_kwargs or {})
    if input_data is None:
        input_data = make_input_data(input_shape, input_dtype)
    input_shape = shapes_of(input_data)
    input_dtype = _dtypes_of(input_data)

    def fresh():
        return layer_cls(**init_kwargs)

    # Construction, masking flag and the unbuilt config round trip.
    layer = fresh()
    if supports_masking is not None:
        assert layer.supports_masking == supports_masking, (
            f"{layer_cls.__name__}.supports_masking is {layer.supports_masking}, expected {supports_masking}"
        )
    if run_config_check:
        config = layer.get_config()
        assert layer_cls.from_config(config).get_config() == config, "from_config(get_config()) changed the config"
        again = hl.layers.deserialize(hl.layers.serialize(layer))
        # front_class: on an engine whose layers are also its own objects (torch), the instance's class is a variant
        assert front_class(type(again)) is layer_cls and again.get_config() == config

    # compute_output_shape on a fresh layer, before any call.
    if expected_output_shape is not None and run_symbolic_check:
        predicted = fresh().compute_output_shape(input_shape)
        _assert_shapes_equal(predicted, expected_output_shape, "compute_output_shape")

    # The symbolic call on hl.Input.
    if run_symbolic_check:
        sym_layer = fresh()
        sym_out = sym_layer(symbolic_inputs(input_shape, input_dtype), **call_kwargs)
        assert sym_layer.built, "the layer is not built after a symbolic call"
        if expected_output_shape is not None:
            _assert_shapes_equal(output_shapes(sym_out), expected_output_shape, "symbolic output")
        if expected_output_dtype is not None:
            for t in _leaves(sym_out):
                assert t.dtype == expected_output_dtype, (
                    f"symbolic output dtype {t.dtype}, expected {expected_output_dtype}"
                )
        _check_counts(sym_layer, expected_num_trainable_weights, expected_num_non_trainable_weights)

    # The eager call: build, counts, shape, dtype, values, losses.
    x = to_tensors(input_data)
    out = layer(x, **call_kwargs)
    assert layer.built, "the layer is not built after its first call"
    _check_counts(layer, expected_num_trainable_weights, expected_num_non_trainable_weights)
    if expected_output_shape is not None:
        _assert_shapes_equal(output_shapes(out), expected_output_shape, "eager output")
    if expected_output_dtype is not None:
        for t in _leaves(out):
            assert hl.ops.dtype(t) == expected_output_dtype, (
                f"output dtype {hl.ops.dtype(t)}, expected {expected_output_dtype}"
            )
    if expected_output is not None:
        _assert_close(out, expected_output, atol, rtol, "eager output vs expected_output")
    if expected_num_losses is not None:
        assert len(layer.losses) == expected_num_losses, (
            f"{len(layer.losses)} losses after a call, expected {expected_num_losses}"
        )
    reference = to_numpy(out)

    # The rebuilt layer with the same weights computes the same output.
    if run_config_check:
        clone = layer_cls.from_config(layer.get_config())
        clone(x, **call_kwargs)
        clone.set_weights(layer.get_weights())
        _assert_close(clone(x, **call_kwargs), reference, atol, rtol, "from_config clone with the same weights")

    # A functional model containing the layer replays it on data.
    if run_functional_check:
        inputs = symbolic_inputs(input_shape, input_dtype)
        fn_layer = layer_cls.from_config(layer.get_config()) if run_config_check else fresh()
        model = hl.Model(inputs, fn_layer(inputs, **call_kwargs))
        fn_layer.set_weights(layer.get_weights())
        assert fn_layer in model.layers
        _assert_close(model(x), reference, atol, rtol, "functional model output")

    if run_training_check and layer.trainable_variables:
        gradient_check(layer, x, call_kwargs, training=True)
    return layer


def _check_counts(layer, n_trainable, n_non_trainable):
    if n_trainable is not None:
        got = len(layer.trainable_weights)
        assert got == n_trainable, (
            f"layer '{layer.name}' has {got} trainable weights "
            f"({[v.path for v in layer.trainable_weights]}), expected {n_trainable}"
        )
    if n_non_trainable is not None:
        got = len(layer.non_trainable_weights)
        assert got == n_non_trainable, (
            f"layer '{layer.name}' has {got} non-trainable weights "
            f"({[v.path for v in layer.non_trainable_weights]}), "
            f"expected {n_non_trainable}"
        )
