"""Hostile model files: each is refused with the library's error, and its payload never runs."""

import json
import os
import stat
import struct
import zipfile

import numpy as np
import pytest

import highlevel as hl
import highlevel.saving  # noqa: F401
from highlevel.saving import InvalidFileError, UnsafeFileError


def _valid_members(tmp_path):
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1, name="d")])
    model.save(tmp_path / "valid.zip")
    with zipfile.ZipFile(tmp_path / "valid.zip") as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def _zip(path, members, infos=None):
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            info = (infos or {}).get(name) or zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return path


def _with_config(tmp_path, mutate, name="hostile.zip"):
    members = _valid_members(tmp_path)
    config = json.loads(members["config.json"])
    mutate(config)
    members["config.json"] = json.dumps(config).encode()
    return _zip(tmp_path / name, members)


@pytest.mark.parametrize(
    "module,cls,argument",
    [
        ("subprocess", "Popen", ["touch", "CANARY"]),
        ("os", "system", "touch CANARY"),
        ("builtins", "eval", "open('CANARY','w')"),
        ("importlib", "import_module", "CANARY"),
    ],
)
def test_foreign_classes_refused(tmp_path, monkeypatch, module, cls, argument):
    monkeypatch.chdir(tmp_path)

    def mutate(config):
        config["model"]["config"]["layers"][1] = {"module": module, "class_name": cls, "config": {"args": argument}}

    path = _with_config(tmp_path, mutate)
    with pytest.raises(UnsafeFileError, match=cls):
        hl.saving.load_model(path)
    assert not os.path.exists(tmp_path / "CANARY")


def test_own_class_name_from_foreign_module_refused(tmp_path):
    def mutate(config):
        config["model"]["config"]["layers"][1]["module"] = "os"

    with pytest.raises(UnsafeFileError):
        hl.saving.load_model(_with_config(tmp_path, mutate))


def test_foreign_function_in_lambda_refused_unless_unsafe(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def mutate(config):
        config["model"]["config"]["layers"].append(
            {
                "module": "highlevel.layers.core.lambda_layer",
                "class_name": "Lambda",
                "config": {
                    "name": "evil",
                    "function": {"class_name": "function", "module": "os", "config": "getcwd"},
                    "arguments": {},
                },
            }
        )

    with pytest.raises(UnsafeFileError, match="os.getcwd"):
        hl.saving.load_model(_with_config(tmp_path, mutate))


def test_lambda_with_python_function_needs_safe_mode_off(tmp_path):
    model = hl.Sequential([hl.Input((2,)), hl.layers.Lambda(np_free_double)])
    model.save(tmp_path / "l.zip")
    with pytest.raises(UnsafeFileError, match="safe_mode=False"):
        hl.saving.load_model(tmp_path / "l.zip")
    loaded = hl.saving.load_model(tmp_path / "l.zip", safe_mode=False)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(loaded(np.ones((1, 2), "float32"))), [[2.0, 2.0]])


def np_free_double(x):
    return x * 2


def test_foreign_optimizer_in_compile_config_refused(tmp_path):
    def mutate(config):
        config["compile_config"] = {"optimizer": {"module": "os", "class_name": "system", "config": {}}}

    with pytest.raises(UnsafeFileError):
        hl.saving.load_model(_with_config(tmp_path, mutate))


@pytest.mark.parametrize("bad_name", ["/etc/passwd", "../escape.json", "a/../../b", "C:\\evil"])
def test_dangerous_member_paths(tmp_path, bad_name):
    members = _valid_members(tmp_path)
    members[bad_name] = b"x"
    with pytest.raises(UnsafeFileError, match="unsafe path"):
        hl.saving.load_model(_zip(tmp_path / "p.zip", members))
    assert not os.path.exists(tmp_path.parent / "escape.json")


def test_symlink_member(tmp_path):
    members = _valid_members(tmp_path)
    info = zipfile.ZipInfo("config.json")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    with pytest.raises(UnsafeFileError, match="link"):
        hl.saving.load_model(_zip(tmp_path / "s.zip", members, {"config.json": info}))


def test_duplicate_members(tmp_path):
    members = _valid_members(tmp_path)
    path = _zip(tmp_path / "d.zip", members)
    with pytest.warns(UserWarning), zipfile.ZipFile(path, "a") as zf:
        zf.writestr("config.json", b"{}")
    with pytest.raises(UnsafeFileError, match="two members"):
        hl.saving.load_model(path)


def test_zip_bomb(tmp_path):
    members = _valid_members(tmp_path)
    members["config.json"] = b" " * (32 * 1024**2)
    with pytest.raises(UnsafeFileError, match="zip bomb"):
        hl.saving.load_model(_zip(tmp_path / "b.zip", members))


def test_member_past_size_bound(tmp_path, monkeypatch):
    from highlevel.saving import archive

    monkeypatch.setattr(archive, "MAX_MEMBER_BYTES", 100)
    members = _valid_members(tmp_path)
    with pytest.raises(UnsafeFileError, match="over the bound"):
        hl.saving.load_model(_zip(tmp_path / "big.zip", members))


def _weights_with_header(tmp_path, header, body=b""):
    members = _valid_members(tmp_path)
    raw = json.dumps(header).encode()
    members["model.weights.safetensors"] = struct.pack("<Q", len(raw)) + raw + body
    return _zip(tmp_path / "w.zip", members)


def test_safetensors_shape_claiming_more_bytes(tmp_path):
    header = {"model/0/d/kernel": {"dtype": "F32", "shape": [100000, 100000], "data_offsets": [0, 8]}}
    with pytest.raises(InvalidFileError, match="claims shape"):
        hl.saving.load_model(_weights_with_header(tmp_path, header, b"\0" * 8))


def test_safetensors_offsets_past_end(tmp_path):
    header = {"model/0/d/kernel": {"dtype": "F32", "shape": [2, 1], "data_offsets": [0, 8]}}
    with pytest.raises(InvalidFileError, match="outside"):
        hl.saving.load_model(_weights_with_header(tmp_path, header, b"\0" * 4))


def test_safetensors_header_length_past_end(tmp_path):
    members = _valid_members(tmp_path)
    members["model.weights.safetensors"] = struct.pack("<Q", 10**6) + b"{}"
    with pytest.raises(InvalidFileError, match="truncated"):
        hl.saving.load_model(_zip(tmp_path / "h.zip", members))


def test_truncated_and_non_zip_files(tmp_path):
    _valid_members(tmp_path)
    data = (tmp_path / "valid.zip").read_bytes()
    for cut in (len(data) // 2, len(data) - 10, 30):
        (tmp_path / "t.zip").write_bytes(data[:cut])
        with pytest.raises(InvalidFileError):
            hl.saving.load_model(tmp_path / "t.zip")
    (tmp_path / "n.zip").write_bytes(b"this is not a zip file at all")
    with pytest.raises(InvalidFileError, match="not a highlevel model file"):
        hl.saving.load_model(tmp_path / "n.zip")


def test_weights_file_hostile(tmp_path):
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1, name="d")])
    (tmp_path / "w.st").write_bytes(struct.pack("<Q", 2**60))
    with pytest.raises(UnsafeFileError):
        model.load_weights(tmp_path / "w.st")
    (tmp_path / "w.st").write_bytes(b"\x01\x02")
    with pytest.raises(InvalidFileError):
        model.load_weights(tmp_path / "w.st")


@pytest.mark.parametrize("activation", ["os.system", "subprocess.Popen", "builtins.eval"])
def test_dotted_activation_names_refused(tmp_path, activation):
    def mutate(config):
        config["model"]["config"]["layers"][1]["config"]["activation"] = activation

    with pytest.raises(InvalidFileError):
        hl.saving.load_model(_with_config(tmp_path, mutate))


def test_unexpected_member_refused(tmp_path):
    members = _valid_members(tmp_path)
    members["payload.py"] = b"import os"
    with pytest.raises(InvalidFileError, match="unexpected members"):
        hl.saving.load_model(_zip(tmp_path / "u.zip", members))
