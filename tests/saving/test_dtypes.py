"""bfloat16, float16 and integer variables save and load bit-exactly, on and across every backend."""

import json
import struct
import zipfile

import numpy as np
import pytest

import highlevel as hl
import highlevel.saving  # noqa: F401
from tests.conftest import selected_backends

ml_dtypes = pytest.importorskip("ml_dtypes")  # numpy holds bfloat16 only through ml_dtypes

_BITS = {"bfloat16": np.uint16, "float16": np.uint16, "float32": np.uint32}


@hl.saving.register_serializable(package="tests_saving")
class IntState(hl.layers.Layer):
    """Passes its input through; holds integer variables of three widths (non-trainable)."""

    def build(self, input_shape):
        self.count = self.add_weight(shape=(3,), dtype="int32", trainable=False, name="count")
        self.small = self.add_weight(shape=(2, 2), dtype="int8", trainable=False, name="small")
        self.octets = self.add_weight(shape=(4,), dtype="uint8", trainable=False, name="octets")

    def call(self, x):
        return x


def _model():
    return hl.Sequential(
        [
            hl.Input((3,)),
            hl.layers.Dense(4, dtype="bfloat16", name="bf16"),
            hl.layers.Dense(2, dtype="float16", name="fp16"),
            IntState(name="ints"),
        ]
    )


def _finite_bits(rng, dtype, shape):
    """Random bit patterns of ``dtype`` (subnormals, -0.0 and the last mantissa bit included), no inf/nan."""
    exponent_mask = {"bfloat16": 0x7F80, "float16": 0x7C00}[dtype]
    bits = rng.integers(0, 2**16, size=shape, dtype=np.uint16)
    bits = np.where((bits & exponent_mask) == exponent_mask, bits ^ 0x4000, bits).astype(np.uint16)
    bits.flat[0] = 0x8000  # -0.0
    bits.flat[-1] = 0x0001  # the smallest subnormal
    return bits.view(ml_dtypes.bfloat16 if dtype == "bfloat16" else np.float16)


def _values(model, seed=0):
    """Assigns deterministic, bit-level-interesting values to every variable; returns them by path."""
    rng = np.random.default_rng(seed)
    out = {}
    for v in model.variables:
        shape = tuple(v.shape)
        if v.dtype in ("bfloat16", "float16"):
            value = _finite_bits(rng, v.dtype, shape)
        else:
            info = np.iinfo(v.dtype)
            value = rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=v.dtype)
        v.assign(value)
        out[v.path] = value
    return out


def _assert_bit_exact(model, expected):
    assert len(model.variables) == len(expected)
    for v in model.variables:
        key = v.path
        want = expected[key]
        got = np.asarray(hl.ops.convert_to_numpy(v.value))
        assert v.dtype == want.dtype.name and got.dtype == want.dtype, (key, v.dtype, got.dtype, want.dtype)
        bits = _BITS.get(want.dtype.name)
        if bits is None:
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_array_equal(got.view(bits), want.view(bits), err_msg=key)


def _header(data):
    (n,) = struct.unpack("<Q", data[:8])
    return json.loads(data[8 : 8 + n])


def test_file_stores_bf16_f16_and_integer_dtypes(backend, tmp_path):
    model = _model()
    _values(model)
    model.save(tmp_path / "m.zip")
    with zipfile.ZipFile(tmp_path / "m.zip") as zf:
        header = _header(zf.read("model.weights.safetensors"))
    dtypes = {key.split("/", 2)[2]: entry["dtype"] for key, entry in header.items() if key != "__metadata__"}
    assert dtypes == {
        "bf16/kernel": "BF16",
        "bf16/bias": "BF16",
        "fp16/kernel": "F16",
        "fp16/bias": "F16",
        "ints/count": "I32",
        "ints/small": "I8",
        "ints/octets": "U8",
    }


@pytest.mark.parametrize("how", ["save", "save_weights"])
def test_roundtrip_is_bit_exact(backend, tmp_path, how):
    model = _model()
    expected = _values(model, seed=1)
    if how == "save":
        model.save(tmp_path / "m.zip")
        loaded = hl.saving.load_model(tmp_path / "m.zip")
    else:
        model.save_weights(tmp_path / "w.safetensors")
        loaded = _model()
        loaded.load_weights(tmp_path / "w.safetensors")
    _assert_bit_exact(loaded, expected)


_SAVED = {}


def _saved(src, folder):
    if src not in _SAVED:
        with hl.config.backend_scope(src):
            model = _model()
            expected = _values(model, seed=2)
            model.save(folder / f"{src}-dtypes.hl.zip")
            model.save_weights(folder / f"{src}-dtypes.safetensors")
        _SAVED[src] = expected
    return folder / f"{src}-dtypes.hl.zip", folder / f"{src}-dtypes.safetensors", _SAVED[src]


@pytest.mark.parametrize("dst", selected_backends())
@pytest.mark.parametrize("src", selected_backends())
def test_every_backend_to_every_backend_bit_exact(src, dst, tmp_path_factory):
    for name in (src, dst):
        if name not in hl.backends.installed():
            pytest.skip(f"backend {name!r} is not installed")
    model_path, weights_path, expected = _saved(src, tmp_path_factory.getbasetemp())
    with hl.config.backend_scope(dst):
        _assert_bit_exact(hl.saving.load_model(model_path), expected)
        fresh = _model()
        fresh.load_weights(weights_path)
        _assert_bit_exact(fresh, expected)


def test_weights_file_reads_in_safetensors_torch(tmp_path):
    # The file is plain safetensors: another library reads the bfloat16 tensors as bfloat16, bit for bit.
    torch = pytest.importorskip("torch")
    from safetensors.torch import load

    model = _model()
    expected = _values(model, seed=3)
    model.save_weights(tmp_path / "w.safetensors")
    tensors = {key.split("/", 2)[2]: t for key, t in load((tmp_path / "w.safetensors").read_bytes()).items()}
    assert tensors["bf16/kernel"].dtype == torch.bfloat16 and tensors["fp16/bias"].dtype == torch.float16
    np.testing.assert_array_equal(
        tensors["bf16/kernel"].view(torch.int16).numpy().view(np.uint16), expected["bf16/kernel"].view(np.uint16)
    )
    np.testing.assert_array_equal(tensors["ints/small"].numpy(), expected["ints/small"])


def test_bf16_without_ml_dtypes_says_what_to_install(tmp_path, monkeypatch):
    import builtins

    from highlevel.saving import safetensors_io

    data = safetensors_io.dumps({"model/0/w": np.ones(2, ml_dtypes.bfloat16)})
    real_import = builtins.__import__

    def no_ml_dtypes(name, *args, **kwargs):
        if name == "ml_dtypes":
            raise ImportError("No module named 'ml_dtypes'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ml_dtypes)
    with pytest.raises(ImportError, match="pip install ml_dtypes"):
        safetensors_io.loads(data)
