"""GPTQ (``model.quantize("gptq", config=GPTQConfig(...))``) on a small token model: the same float weights and
calibration windows give Keras 3's GPTQ variables and outputs, GPTQ beats plain round-to-nearest on the
calibration loss, a GPTQ model saves and loads, and bad requests get clear errors.

Tolerances against Keras: the rounding loop runs in float32 in both, but Keras inverts the Hessian in float32 and
we in float64, so a level may round the other way now and then; we allow 2% of the levels to differ, by one step,
and compare the outputs to 2% of their scale.
"""

import contextlib
import hashlib
import importlib.util
import json
import os

import numpy as np
import pytest

import highlevel as hl
from tests.disk_cache import cache_key, cached_folder

from .keras_gc import young_collections_only
from .keras_oracle import keras_module, to_numpy

needs_keras = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="the Keras oracle (keras) is not installed"
)

VOCAB, WIDTH, SEQ = 64, 48, 6
# name: GPTQConfig arguments (besides the data)
SETTINGS = {
    "4bit_groups": {"weight_bits": 4, "group_size": 16},
    "8bit_symmetric_ordered": {"weight_bits": 8, "group_size": -1, "symmetric": True, "activation_order": True},
}


def _layers(module):
    """An embedding, an MLP block, an attention-like block of EinsumDense projections (to heads and back, with
    the 3-D kernels of attention) and a head."""
    embedding = module.layers.Embedding(VOCAB, WIDTH, name="embedding")
    block1 = module.Sequential(
        [module.layers.Dense(64, activation="relu", name="up"), module.layers.Dense(WIDTH, name="down")],
        name="block1",
    )
    heads = module.Sequential(
        [
            module.layers.EinsumDense("abc,cde->abde", (None, 4, 8), bias_axes="de", name="to_heads"),
            module.layers.EinsumDense("abcd,cde->abe", (None, WIDTH), bias_axes="e", name="from_heads"),
        ],
        name="heads",
    )
    block2 = module.Sequential([module.layers.Dense(10, name="head")], name="block2")
    return embedding, block1, heads, block2


def _model(module, seed=0):
    embedding, block1, heads, block2 = _layers(module)
    inputs = module.Input((SEQ,), dtype="int32")
    model = module.Model(inputs, block2(heads(block1(embedding(inputs)))))
    rng = np.random.default_rng(seed)
    weights = [rng.normal(scale=0.5, size=tuple(w.shape)).astype("float32") for w in model.weights]
    # correlated features (rank 8), as real activations are: what GPTQ's error correction exploits
    weights[0] = (rng.normal(size=(VOCAB, 8)) @ rng.normal(size=(8, WIDTH)) / 3).astype("float32")
    model.set_weights(weights)
    return model, {"pre_block_layers": [embedding], "sequential_blocks": [block1, heads, block2]}


def _dataset(seed=1):
    return [np.random.default_rng(seed).integers(0, VOCAB, size=200)]


def _config(module, name, structure=None, **extra):
    return module.quantizers.GPTQConfig(
        dataset=_dataset(),
        tokenizer=None,
        num_samples=16,
        sequence_length=SEQ,
        quantization_layer_structure=structure,
        **SETTINGS[name],
        **extra,
    )


def _inputs(seed=5):
    return np.random.default_rng(seed).integers(0, VOCAB, size=(4, SEQ)).astype("int32")


def _dense_variables(model, module):
    """``{"<layer>/<variable>": value}`` of the Dense layers (nested paths differ between the two libraries)."""
    return {
        f"{layer.name}/{w.name}": np.asarray(w.numpy())
        for layer in model._flatten_layers()
        if isinstance(layer, (module.layers.Dense, module.layers.EinsumDense))
        for w in layer.weights
    }


def _keras_samples():
    from highlevel.quantizers.gptq_calibration import calibration_samples

    return np.asarray(calibration_samples(_dataset(), None, sequence_length=SEQ, num_samples=16))


def _cached(method, keras, samples, compute):
    """``compute()`` (``{setting: (variables, outputs, dtype policies)}``, Keras's side) once into the suite's
    cache on disk (``tests/disk_cache.py``), keyed by ``method``, this file's source (the model, its weights and
    the settings), the calibration windows themselves, Keras's engine in this process and the packages'
    versions; every xdist worker and later run reads it from there."""
    key = cache_key(
        [method, keras.config.backend(), hashlib.sha256(samples.tobytes()).hexdigest(), str(samples.dtype)],
        files=[__file__],
        packages=("keras", "numpy", "tensorflow", "tensorflow-cpu", "jax", "jaxlib", "torch"),
    )

    def fill(folder):
        with young_collections_only():
            _save(compute(), folder)

    folder = cached_folder(f"{method}_keras", key, fill)
    with open(os.path.join(folder, "index.json")) as f:
        index = json.load(f)
    out = {}
    for setting, (names, policies) in index.items():
        with np.load(os.path.join(folder, f"{setting}.npz")) as arrays:
            out[setting] = ({n: arrays[f"v{i}"] for i, n in enumerate(names)}, arrays["outputs"], policies)
    return out


def _save(results, folder):
    index = {}
    for setting, (variables, outputs, policies) in results.items():
        names = list(variables)
        arrays = {f"v{i}": variables[n] for i, n in enumerate(names)}
        np.savez(os.path.join(folder, f"{setting}.npz"), outputs=outputs, **arrays)
        index[setting] = [names, policies]
    with open(os.path.join(folder, "index.json"), "w") as f:
        json.dump(index, f)


@pytest.fixture(scope="module")
def keras_reference():
    """Keras's GPTQ variables and outputs for each setting, with our calibration windows (cached on disk)."""
    keras = keras_module()
    samples = _keras_samples()

    def compute():
        from keras.src.quantizers import gptq_core

        original = gptq_core.stream_hessians
        gptq_core.stream_hessians = _stream_hessians_into_gptq_call
        try:
            return {name: _keras_gptq(keras, name, gptq_core.apply_gptq_layerwise, samples) for name in SETTINGS}
        finally:
            gptq_core.stream_hessians = original

    return _cached("gptq", keras, samples, compute)


@contextlib.contextmanager
def _stream_hessians_into_gptq_call(layers_map, gptq_objects):
    """Keras 3.15.1 feeds the Hessians from a wrapper of each layer's ``call``, which a layer in GPTQ mode never
    runs (its ``quantized_call`` runs ``_gptq_call``), so every Hessian stays zero and its GPTQ rounds to nearest.
    The oracle wraps ``_gptq_call`` instead: Keras's own GPTQ, with the Hessians it means to use."""
    originals = {}
    for name, layer in layers_map.items():
        originals[name] = layer._gptq_call

        def hooked(inputs, *args, _name=name, _call=layer._gptq_call, **kwargs):
            rows = gptq_objects[_name].rows
            gptq_objects[_name].update_hessian_with_batch(np.reshape(np.asarray(inputs), (-1, rows)))
            return _call(inputs, *args, **kwargs)

        layer._gptq_call = hooked
    try:
        yield
    finally:
        for name, layer in layers_map.items():
            layer._gptq_call = originals[name]


def _keras_gptq(keras, name, apply_gptq_layerwise, samples):
    """Keras's GPTQ of the model, run on our calibration windows ``samples`` (Keras cuts its own at an offset
    drawn from Python's per-process string hash)."""
    model, structure = _model(keras)
    config = _config(keras, name, structure)
    for block in structure["sequential_blocks"]:
        for layer in block.layers:
            layer.quantize("gptq", config=config)
    apply_gptq_layerwise(samples, config, structure)
    policies = {layer.name: layer.dtype_policy.name for b in structure["sequential_blocks"] for layer in b.layers}
    return _dense_variables(model, keras), np.asarray(model(_inputs())), policies


@needs_keras
@pytest.mark.parametrize("name", list(SETTINGS))
def test_gptq_matches_keras(backend, name, keras_reference):
    variables, expected, policies = keras_reference[name]
    model, structure = _model(hl)
    model.quantize("gptq", config=_config(hl, name, structure))
    ours = _dense_variables(model, hl)
    assert sorted(ours) == sorted(variables)
    for path, value in variables.items():
        assert ours[path].shape == value.shape and ours[path].dtype == value.dtype, path
        if value.dtype == np.uint8 and path.endswith("/kernel"):
            from highlevel.quantizers import unpack_int4

            if SETTINGS[name]["weight_bits"] == 4:
                n = variables[path + "_scale"].shape[0]
                ours_q = to_numpy(unpack_int4(ours[path], n, axis=0, dtype="uint8")).astype(int)
                theirs_q = to_numpy(unpack_int4(value, n, axis=0, dtype="uint8")).astype(int)
            else:
                ours_q, theirs_q = ours[path].astype(int), value.astype(int)
            assert np.mean(ours_q != theirs_q) <= 0.02, path
        elif value.dtype == np.uint8:
            assert np.abs(ours[path].astype(int) - value.astype(int)).max() <= 1, path
        else:
            np.testing.assert_allclose(ours[path], value, rtol=1e-3, atol=1e-5, err_msg=path)
    for block in structure["sequential_blocks"]:
        for layer in block.layers:
            assert layer.dtype_policy.name == policies[layer.name]
    got = to_numpy(model(_inputs()))
    np.testing.assert_allclose(got, expected, atol=0.02 * np.abs(expected).max())


def test_gptq_beats_round_to_nearest_on_the_calibration_loss(backend):
    """Each layer's calibration loss, the mean squared error of its outputs on its float inputs from the
    calibration windows, is clearly lower after GPTQ than after plain asymmetric 4-bit rounding to nearest with
    the same groups (GPTQ's rounding with nothing to correct: an identity Hessian)."""
    from highlevel.quantizers.gptq import dequantize, gptq_quantize_kernel
    from highlevel.quantizers.gptq_calibration import calibration_samples

    x = calibration_samples(_dataset(), None, sequence_length=SEQ, num_samples=16)[:, 0]
    reference, structure = _model(hl)
    up, down = structure["sequential_blocks"][0].layers
    hidden = to_numpy(structure["pre_block_layers"][0](x)).reshape(-1, WIDTH)
    inputs = {"up": hidden, "down": to_numpy(up(hidden))}
    model, quantized_structure = _model(hl)
    model.quantize("gptq", config=_config(hl, "4bit_groups", quantized_structure))
    quantized = {layer.name: layer for layer in quantized_structure["sequential_blocks"][0].layers}
    for layer in (up, down):
        x_in, kernel = inputs[layer.name], to_numpy(layer.kernel)
        rtn_kernel = dequantize(*gptq_quantize_kernel(kernel, np.eye(kernel.shape[0]), group_size=16)).T
        gptq_kernel = to_numpy(quantized[layer.name]._gptq_dequantized_kernel())
        gptq_loss = np.mean((x_in @ kernel - x_in @ gptq_kernel) ** 2)
        rtn_loss = np.mean((x_in @ kernel - x_in @ rtn_kernel) ** 2)
        assert 0 < gptq_loss < 0.7 * rtn_loss, (layer.name, gptq_loss, rtn_loss)


def test_gptq_model_saves_and_loads_the_same_predictions(backend, tmp_path):
    model, structure = _model(hl)
    model.quantize("gptq", config=_config(hl, "4bit_groups", structure))
    x = _inputs()
    expected = to_numpy(model.predict(x, verbose=0))
    model.save(tmp_path / "gptq.keras")
    loaded = hl.saving.load_model(tmp_path / "gptq.keras")
    head = loaded.get_layer("block2").get_layer("head")
    assert head.dtype_policy.name == "gptq/4/16_from_float32" and head.is_gptq_calibrated
    assert sorted(w.name for w in head.weights) == ["bias", "g_idx", "kernel", "kernel_scale", "kernel_zero"]
    np.testing.assert_allclose(to_numpy(loaded.predict(x, verbose=0)), expected, rtol=1e-6, atol=1e-6)


def test_gptq_bad_requests_get_clear_errors(backend):
    model, structure = _model(hl)
    before = [to_numpy(w) for w in model.weights]
    with pytest.raises(ValueError, match="dataset=None"):
        model.quantize("gptq", config=hl.quantizers.GPTQConfig(None, None, quantization_layer_structure=structure))
    with pytest.raises(ValueError, match="quantization structure must be provided"):
        model.quantize("gptq", config=hl.quantizers.GPTQConfig(_dataset(), None))
    with pytest.raises(ValueError, match="weight_bits must be one of 2, 3, 4 and 8; received 5"):
        hl.quantizers.GPTQConfig(_dataset(), None, weight_bits=5)
    with pytest.raises(ValueError, match="tokenizer=None"):
        model.quantize(
            "gptq", config=hl.quantizers.GPTQConfig(["some text"], None, quantization_layer_structure=structure)
        )
    # nothing was quantized by the refused requests
    assert all(layer.quantization_mode is None for layer in model._flatten_layers())
    for old, new in zip(before, model.weights):
        np.testing.assert_array_equal(old, to_numpy(new))


def test_a_group_of_positive_weights_keeps_a_zero_point_it_can_store():
    """Unlike Keras 3.15.1, whose zero point of an all-positive group is negative and wraps around in its uint8
    storage, the range of an asymmetric group always holds zero: the zero point is a level and dequantizing
    gives the weights back to within half a step."""
    from highlevel.quantizers.gptq import dequantize, gptq_quantize_kernel

    kernel = np.array([[1.0, -1.0], [2.0, 0.5], [3.0, 1.0], [4.0, 0.25]], "float32")  # (in=4, out=2)
    q, scale, zero, g_idx = gptq_quantize_kernel(kernel, np.eye(4), group_size=2)
    assert zero.dtype == np.uint8 and zero.max() <= 15
    assert zero[0].tolist() == [0, 0]  # output 0: both groups positive
    step = scale[:, g_idx.astype(int)].T
    assert np.all(np.abs(dequantize(q, scale, zero, g_idx).T - kernel) <= step / 2 + 1e-6)


def test_the_model_can_name_its_own_structure_and_other_modes_stay(backend):
    """A model that overrides get_quantization_layer_structure needs no structure in the config; a layer
    quantized to int8 before is left as it is; LoRA is refused on a GPTQ layer."""
    model, structure = _model(hl)
    model.get_quantization_layer_structure = lambda mode: structure if mode == "gptq" else None
    head = structure["sequential_blocks"][-1].layers[0]
    head.quantize("int8")
    model.quantize("gptq", config=_config(hl, "4bit_groups"))
    up = structure["sequential_blocks"][0].layers[0]
    assert up.quantization_mode == "gptq" and up.is_gptq_calibrated and up.kernel is None
    assert head.quantization_mode == "int8" and head.kernel.dtype == "int8"
    with pytest.raises(NotImplementedError, match="LoRA does not combine with GPTQ"):
        up.enable_lora(2)


# ---------------------------------------------------------------- AWQ (the same pass, activation-aware scales)


def _awq_config(module, structure=None, **extra):
    return module.quantizers.AWQConfig(
        dataset=_dataset(),
        tokenizer=None,
        num_samples=16,
        sequence_length=SEQ,
        group_size=16,
        num_grid_points=10,
        quantization_layer_structure=structure,
        **extra,
    )


@contextlib.contextmanager
def _stream_activations_into_awq_call(layers_map, awq_objects):
    """As for GPTQ: Keras 3.15.1 wraps ``call``, which a layer in AWQ mode never runs; the oracle wraps
    ``_awq_call``."""
    originals = {}
    for name, layer in layers_map.items():
        originals[name] = layer._awq_call

        def hooked(inputs, *args, _name=name, _call=layer._awq_call, **kwargs):
            rows = awq_objects[_name].rows
            awq_objects[_name].update_activation_magnitudes(np.reshape(np.asarray(inputs), (-1, rows)))
            return _call(inputs, *args, **kwargs)

        layer._awq_call = hooked
    try:
        yield
    finally:
        for name, layer in layers_map.items():
            layer._awq_call = originals[name]


@pytest.fixture(scope="module")
def keras_awq_reference():
    """Keras's AWQ variables and outputs, with our calibration windows (cached on disk)."""
    keras = keras_module()
    samples = _keras_samples()

    def compute():
        from keras.src.quantizers import awq_core

        theirs_model, structure = _model(keras)
        config = _awq_config(keras, structure)
        for block in structure["sequential_blocks"]:
            for layer in block.layers:
                layer.quantize("awq", config=config)
        original = awq_core.stream_activations
        awq_core.stream_activations = _stream_activations_into_awq_call
        try:
            awq_core.apply_awq_layerwise(samples, config, structure)
        finally:
            awq_core.stream_activations = original
        return {"awq": (_dense_variables(theirs_model, keras), np.asarray(theirs_model(_inputs())), {})}

    return _cached("awq", keras, samples, compute)["awq"]


@needs_keras
def test_awq_matches_keras(backend, keras_awq_reference):
    variables, expected, _ = keras_awq_reference
    model, ours_structure = _model(hl)
    model.quantize("awq", config=_awq_config(hl, ours_structure))
    ours = _dense_variables(model, hl)
    assert sorted(ours) == sorted(variables)
    for path, value in variables.items():
        assert ours[path].shape == value.shape and ours[path].dtype == value.dtype, path
        if path.endswith("/kernel"):
            assert np.mean(ours[path] != value) <= 0.02, path
        elif value.dtype == np.uint8:
            assert np.abs(ours[path].astype(int) - value.astype(int)).max() <= 1, path
        else:
            np.testing.assert_allclose(ours[path], value, rtol=1e-3, atol=1e-5, err_msg=path)
    assert ours_structure["sequential_blocks"][0].layers[0].dtype_policy.name == "awq/4/16_from_float32"
    got = to_numpy(model(_inputs()))
    np.testing.assert_allclose(got, expected, atol=0.02 * np.abs(expected).max())


def test_awq_model_saves_and_loads_and_stays_close(backend, tmp_path):
    reference, _ = _model(hl)
    model, structure = _model(hl)
    model.quantize("awq", config=_awq_config(hl, structure))
    x = _inputs()
    expected = to_numpy(model.predict(x, verbose=0))
    float_out = to_numpy(reference.predict(x, verbose=0))
    assert np.linalg.norm(expected - float_out) / np.linalg.norm(float_out) < 0.2
    model.save(tmp_path / "awq.keras")
    loaded = hl.saving.load_model(tmp_path / "awq.keras")
    up = loaded.get_layer("block1").get_layer("up")
    assert up.dtype_policy.name == "awq/4/16_from_float32" and up.is_awq_calibrated
    assert sorted(w.name for w in up.weights) == [
        "awq_scales",
        "bias",
        "g_idx",
        "kernel",
        "kernel_scale",
        "kernel_zero",
    ]
    np.testing.assert_allclose(to_numpy(loaded.predict(x, verbose=0)), expected, rtol=1e-6, atol=1e-6)


def test_awq_beats_round_to_nearest_where_a_few_channels_carry_large_activations(backend):
    """With a few input channels ten times as active as the rest (the outlier features AWQ targets), the first
    layer's calibration loss is clearly lower after AWQ than after rounding to nearest with the same groups."""
    from highlevel.quantizers.gptq import dequantize, gptq_quantize_kernel
    from highlevel.quantizers.gptq_calibration import calibration_samples

    def with_outliers():
        model, structure = _model(hl)
        embedding = structure["pre_block_layers"][0]
        table = to_numpy(embedding.embeddings).copy()
        table[:, :4] *= 10.0
        embedding.embeddings.assign(table)
        return model, structure

    x = calibration_samples(_dataset(), None, sequence_length=SEQ, num_samples=16)[:, 0]
    _, structure = with_outliers()
    up = structure["sequential_blocks"][0].layers[0]
    hidden = to_numpy(structure["pre_block_layers"][0](x)).reshape(-1, WIDTH)
    model, quantized_structure = with_outliers()
    model.quantize("awq", config=_awq_config(hl, quantized_structure))
    kernel = to_numpy(up.kernel)
    awq_kernel = to_numpy(quantized_structure["sequential_blocks"][0].layers[0]._gptq_dequantized_kernel())
    rtn_kernel = dequantize(*gptq_quantize_kernel(kernel, np.eye(kernel.shape[0]), group_size=16)).T
    awq_loss = np.mean((hidden @ kernel - hidden @ awq_kernel) ** 2)
    rtn_loss = np.mean((hidden @ kernel - hidden @ rtn_kernel) ** 2)
    # AWQ rescales whole channels rather than correcting errors: about a fifth less loss here (0.23 vs 0.30)
    assert 0 < awq_loss < 0.85 * rtn_loss, (awq_loss, rtn_loss)


@needs_keras
@pytest.mark.parametrize("mode", ["gptq", "awq"])
def test_our_calibrated_files_load_in_keras_and_predict_the_same(backend, tmp_path, mode):
    """A file we write holds every variable Keras's loader reads, in its order. (Keras 3.15.1's own saver leaves
    out the zero points of these modes, so its files do not load back, in Keras or here.)"""
    keras = keras_module()
    embedding, first, second = (
        hl.layers.Embedding(VOCAB, WIDTH),
        hl.layers.Dense(32, activation="relu"),
        hl.layers.Dense(8),
    )
    model = hl.Sequential([hl.Input((SEQ,), dtype="int32"), embedding, first, second])
    structure = {"pre_block_layers": [embedding], "sequential_blocks": [first, second]}
    config = _config(hl, "4bit_groups", structure) if mode == "gptq" else _awq_config(hl, structure)
    model.quantize(mode, config=config)
    x = _inputs()
    expected = to_numpy(model(x))
    model.save(tmp_path / f"{mode}.keras")
    theirs = keras.saving.load_model(tmp_path / f"{mode}.keras")
    assert theirs.layers[1].dtype_policy.name == model.layers[1].dtype_policy.name
    np.testing.assert_allclose(np.asarray(theirs(x)), expected, rtol=1e-5, atol=1e-6)


def test_calibration_windows_come_from_tokenized_text_or_token_ids():
    """Strings go through the tokenizer's ``tokenize`` (or the tokenizer itself, if it is a callable); the
    stream repeats until it fills the windows, which start evenly spread from its first token."""
    from highlevel.quantizers.gptq_calibration import calibration_samples

    class Tokenizer:
        def tokenize(self, text):
            return [len(word) for word in text.split()]

    windows = calibration_samples(["a bb ccc", "dddd"], Tokenizer(), sequence_length=3, num_samples=2)
    assert windows.dtype == np.int32 and windows[:, 0].tolist() == [[1, 2, 3], [4, 1, 2]]
    same = calibration_samples(["a bb ccc", "dddd"], Tokenizer().tokenize, sequence_length=3, num_samples=2)
    np.testing.assert_array_equal(same, windows)
    with pytest.raises(TypeError, match="iterable of samples"):
        calibration_samples("just a string", None, sequence_length=3, num_samples=2)
    with pytest.raises(ValueError, match="empty"):
        calibration_samples([], None, sequence_length=3, num_samples=2)
