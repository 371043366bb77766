"""``hl.utils.get_file``: cache layout, hashes, atomic downloads, extraction and the offline error, against a
server on 127.0.0.1 (no network)."""

import hashlib
import io
import os
import tarfile
import zipfile

import pytest

import highlevel as hl
from highlevel.utils import file_utils
from highlevel.utils.file_utils import DownloadError, get_file

from .local_server import Truncated, serve, unreachable_url

DATA = b"0123456789" * 1000
SHA256 = hashlib.sha256(DATA).hexdigest()
MD5 = hashlib.md5(DATA).hexdigest()


def _tar_gz(members):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, content in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


def _zip(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, content in members.items():
            zf.writestr(name, content)
    return buffer.getvalue()


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _leftovers(folder):
    return [n for n in os.listdir(folder) if n.endswith((".part", ".partial", ".old"))]


@pytest.fixture
def server():
    with serve(
        {
            "/data.bin": DATA,
            "/bundle.tar.gz": _tar_gz({"inner/a.txt": b"alpha", "b.txt": b"beta"}),
            "/bundle.zip": _zip({"inner/a.txt": b"alpha"}),
            "/cut.bin": Truncated(DATA),
        }
    ) as s:
        yield s


def test_public_name_and_keras_signature():
    import inspect

    assert hl.utils.get_file is get_file
    assert list(inspect.signature(get_file).parameters) == [
        "fname",
        "origin",
        "untar",
        "md5_hash",
        "file_hash",
        "cache_subdir",
        "hash_algorithm",
        "extract",
        "archive_format",
        "cache_dir",
        "force_download",
    ]


def test_download_lands_in_the_cache_and_is_reused(server, tmp_path, capsys):
    path = get_file("data.bin", server.url("/data.bin"), cache_dir=tmp_path)
    assert path == str(tmp_path / "datasets" / "data.bin")
    assert _read(path) == DATA
    assert f"Downloading data from {server.url('/data.bin')}" in capsys.readouterr().out
    assert get_file("data.bin", server.url("/data.bin"), cache_dir=tmp_path) == path
    assert server.hits["/data.bin"] == 1  # the second call used the cache
    assert capsys.readouterr().out == ""
    assert _leftovers(tmp_path / "datasets") == []


def test_default_name_subdir_and_keras_home(server, tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "home"))
    path = get_file(origin=server.url("/data.bin"))
    assert path == str(tmp_path / "home" / "datasets" / "data.bin")
    other = get_file(origin=server.url("/data.bin"), cache_subdir=str(tmp_path / "absolute"))
    assert other == str(tmp_path / "absolute" / "data.bin") and _read(other) == DATA
    nested = get_file(origin=server.url("/data.bin"), cache_subdir=os.path.join("datasets", "nested"))
    assert nested == str(tmp_path / "home" / "datasets" / "nested" / "data.bin")


def test_keras_home_default_is_home_dot_keras(monkeypatch, tmp_path):
    monkeypatch.delenv("KERAS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert file_utils._default_home() == str(tmp_path / ".keras")


def test_an_unwritable_cache_falls_back_to_the_temporary_folder(server, tmp_path, monkeypatch):
    blocker = tmp_path / "a_file"
    blocker.write_bytes(b"")  # a cache_dir under a file cannot be created
    monkeypatch.setattr(file_utils.tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    with pytest.warns(UserWarning, match="cannot write to the cache folder"):
        path = get_file("data.bin", server.url("/data.bin"), cache_dir=blocker / "cache")
    assert path == str(tmp_path / "tmp" / ".keras" / "datasets" / "data.bin") and _read(path) == DATA


@pytest.mark.parametrize(
    "file_hash, algorithm", [(SHA256, "auto"), (MD5, "auto"), (SHA256.upper(), "sha256"), (MD5, "md5")]
)
def test_matching_hashes_are_accepted(server, tmp_path, file_hash, algorithm):
    path = get_file(
        "data.bin", server.url("/data.bin"), file_hash=file_hash, hash_algorithm=algorithm, cache_dir=tmp_path
    )
    assert _read(path) == DATA


def test_deprecated_md5_hash_argument(server, tmp_path):
    with pytest.raises(ValueError, match="md5 hash"):
        get_file("data.bin", server.url("/data.bin"), md5_hash="0" * 32, cache_dir=tmp_path)
    assert get_file("data.bin", server.url("/data.bin"), md5_hash=MD5, cache_dir=tmp_path)


def test_hash_mismatch_caches_nothing(server, tmp_path):
    wrong = "f" * 64
    with pytest.raises(ValueError) as info:
        get_file("data.bin", server.url("/data.bin"), file_hash=wrong, cache_dir=tmp_path)
    message = str(info.value)
    assert SHA256 in message and wrong in message and server.url("/data.bin") in message
    assert os.listdir(tmp_path / "datasets") == []  # neither the file nor a temporary one


def test_stale_cached_file_is_downloaded_again(server, tmp_path, capsys):
    folder = tmp_path / "datasets"
    folder.mkdir()
    (folder / "data.bin").write_bytes(b"an older, truncated copy")
    path = get_file("data.bin", server.url("/data.bin"), file_hash=SHA256, cache_dir=tmp_path)
    assert _read(path) == DATA and server.hits["/data.bin"] == 1
    assert "does not match" in capsys.readouterr().out


def test_force_download_replaces_only_with_a_good_file(server, tmp_path):
    path = get_file("data.bin", server.url("/data.bin"), cache_dir=tmp_path)
    get_file("data.bin", server.url("/data.bin"), cache_dir=tmp_path, force_download=True)
    assert server.hits["/data.bin"] == 2
    # a forced download that fails its hash check leaves the cached file as it was
    server.files["/data.bin"] = b"tampered"
    with pytest.raises(ValueError, match="hash"):
        get_file("data.bin", server.url("/data.bin"), file_hash=SHA256, cache_dir=tmp_path, force_download=True)
    assert _read(path) == DATA and _leftovers(tmp_path / "datasets") == []


def test_a_download_cut_short_leaves_no_cache_entry(server, tmp_path):
    with pytest.raises(DownloadError, match="cut.bin"):
        get_file("cut.bin", server.url("/cut.bin"), cache_dir=tmp_path)
    assert os.listdir(tmp_path / "datasets") == []


def test_an_interrupted_download_leaves_no_cache_entry(server, tmp_path, monkeypatch):
    def interrupt(done, total):
        raise KeyboardInterrupt

    monkeypatch.setattr(file_utils, "_progress", interrupt)
    with pytest.raises(KeyboardInterrupt):
        get_file("data.bin", server.url("/data.bin"), cache_dir=tmp_path)
    assert os.listdir(tmp_path / "datasets") == []


def test_offline_error_names_url_and_cache_path(tmp_path):
    url = unreachable_url("/mnist.npz")
    with pytest.raises(DownloadError) as info:
        get_file("mnist.npz", url, file_hash=SHA256, cache_dir=tmp_path)
    message = str(info.value)
    assert url in message and str(tmp_path / "datasets" / "mnist.npz") in message and SHA256 in message
    assert isinstance(info.value, OSError)
    assert os.listdir(tmp_path / "datasets") == []


def test_offline_error_for_an_archive_names_where_it_goes(tmp_path):
    url = unreachable_url("/photos.tgz")
    with pytest.raises(DownloadError) as info:
        get_file("photos", url, extract=True, cache_dir=tmp_path)
    assert str(tmp_path / "datasets" / "photos_archive") in str(info.value)
    assert str(tmp_path / "datasets" / "photos") in str(info.value)


def test_a_file_put_by_hand_is_used_offline(tmp_path):
    folder = tmp_path / "datasets"
    folder.mkdir()
    (folder / "mnist.npz").write_bytes(DATA)
    path = get_file("mnist.npz", unreachable_url("/mnist.npz"), file_hash=SHA256, cache_dir=tmp_path)
    assert _read(path) == DATA


def test_http_error_is_reported(server, tmp_path):
    with pytest.raises(DownloadError, match="404"):
        get_file("missing.bin", server.url("/missing.bin"), cache_dir=tmp_path)


def test_file_url(tmp_path):
    source = tmp_path / "source.bin"
    source.write_bytes(DATA)
    path = get_file(origin=source.as_uri(), file_hash=SHA256, cache_dir=tmp_path / "cache")
    assert _read(path) == DATA
    with pytest.raises(DownloadError, match="absent.bin"):
        get_file(origin=(tmp_path / "absent.bin").as_uri(), cache_dir=tmp_path / "cache")


@pytest.mark.parametrize(
    "name, fname, kwargs, folder",
    [
        ("/bundle.tar.gz", "bundle", {"extract": True}, "bundle"),
        ("/bundle.tar.gz", "bundle.tar.gz", {"extract": True}, "bundle_extracted"),
        ("/bundle.tar.gz", None, {"extract": True}, "bundle.tar.gz"),
        ("/bundle.tar.gz", "bundle", {"untar": True}, "bundle"),
        ("/bundle.zip", "bundle", {"extract": True, "archive_format": "zip"}, "bundle"),
    ],
)
def test_extraction(server, tmp_path, name, fname, kwargs, folder):
    path = get_file(fname, server.url(name), cache_dir=tmp_path, **kwargs)
    assert path == str(tmp_path / "datasets" / folder)
    assert _read(os.path.join(path, "inner", "a.txt")) == b"alpha"
    archive = {"bundle": "bundle_archive", "bundle.tar.gz": "bundle.tar.gz", None: "bundle.tar.gz_archive"}[fname]
    assert (tmp_path / "datasets" / archive).is_file()
    # a second call finds both the archive and its folder: no download, no second extraction
    marker = os.path.join(path, "marker")
    open(marker, "w").close()
    assert get_file(fname, server.url(name), cache_dir=tmp_path, **kwargs) == path
    assert server.hits[name] == 1 and os.path.exists(marker)
    assert _leftovers(tmp_path / "datasets") == []


def test_extraction_is_redone_after_a_new_download(server, tmp_path):
    path = get_file("bundle", server.url("/bundle.tar.gz"), extract=True, cache_dir=tmp_path)
    server.files["/bundle.tar.gz"] = _tar_gz({"inner/a.txt": b"new"})
    get_file("bundle", server.url("/bundle.tar.gz"), extract=True, cache_dir=tmp_path, force_download=True)
    assert _read(os.path.join(path, "inner", "a.txt")) == b"new"
    assert not os.path.exists(os.path.join(path, "b.txt"))  # the folder was replaced, not merged
    assert _leftovers(tmp_path / "datasets") == []


def test_extraction_never_replaces_a_file_of_the_folder_name(server, tmp_path):
    # "bundle.tar.gz" as a name with a dot keeps the archive at datasets/bundle.tar.gz; without fname, the same
    # URL is extracted to a folder of that name: the archive must survive, and the error says why
    archive = get_file("bundle.tar.gz", server.url("/bundle.tar.gz"), cache_dir=tmp_path)
    with pytest.raises(ValueError, match="a file is there"):
        get_file(origin=server.url("/bundle.tar.gz"), extract=True, cache_dir=tmp_path)
    assert _read(archive) == server.files["/bundle.tar.gz"]


def test_extracting_something_that_is_not_an_archive(server, tmp_path):
    with pytest.raises(ValueError, match="not a tar or zip archive"):
        get_file("data", server.url("/data.bin"), extract=True, cache_dir=tmp_path)
    assert not (tmp_path / "datasets" / "data").exists()


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="origin"):
        get_file("x.bin", cache_dir=tmp_path)
    with pytest.raises(ValueError, match="plain file name"):
        get_file("sub/x.bin", "http://127.0.0.1/x.bin", cache_dir=tmp_path)
    with pytest.raises(ValueError, match="40 characters"):
        get_file("x.bin", "http://127.0.0.1/x.bin", file_hash="a" * 40, cache_dir=tmp_path)
    with pytest.raises(ValueError, match="hash_algorithm"):
        get_file("x.bin", "http://127.0.0.1/x.bin", file_hash=SHA256, hash_algorithm="sha1", cache_dir=tmp_path)
    with pytest.raises(ValueError, match="not a md5 hash"):
        get_file("x.bin", "http://127.0.0.1/x.bin", file_hash=SHA256, hash_algorithm="md5", cache_dir=tmp_path)
    with pytest.raises(ValueError, match="archive_format"):
        get_file("x", "http://127.0.0.1/x.tgz", extract=True, archive_format="rar", cache_dir=tmp_path)
    with pytest.raises(ValueError, match="file name"):
        get_file(origin="http://127.0.0.1/", cache_dir=tmp_path)


def test_same_cache_layout_as_keras(server, tmp_path):
    os.environ.setdefault("KERAS_BACKEND", "jax")
    keras = pytest.importorskip("keras")
    cases = [
        ("data.bin", {}),
        (None, {}),
        ("bundle", {"extract": True}),
        ("bundle.tar.gz", {"extract": True}),
        (None, {"extract": True}),
    ]
    for i, (fname, kwargs) in enumerate(cases):
        name = "/bundle.tar.gz" if kwargs else "/data.bin"
        ours_root, theirs_root = tmp_path / f"ours{i}", tmp_path / f"keras{i}"
        theirs_root.mkdir(exist_ok=True)  # Keras falls back to /tmp/.keras for a cache_dir that does not exist
        ours = get_file(fname, server.url(name), cache_dir=ours_root, **kwargs)
        theirs = keras.utils.get_file(fname, server.url(name), cache_dir=str(theirs_root), **kwargs)
        assert os.path.relpath(ours, ours_root) == os.path.relpath(theirs, theirs_root)
        assert sorted(os.listdir(ours_root / "datasets")) == sorted(os.listdir(theirs_root / "datasets"))
