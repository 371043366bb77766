"""Extraction refuses archives with members that would land outside the target folder, before writing
anything."""

import io
import os
import tarfile
import zipfile

import pytest

from highlevel.utils._archives import UnsafeArchiveError, extract_archive
from highlevel.utils.file_utils import get_file


def _tar(path, members, mode="w"):
    """members: (name, kind, payload): kind "file" (payload bytes), "dir", "sym"/"hard" (payload: link target),
    "fifo" or "chr"."""
    with tarfile.open(path, mode) as tar:
        for name, kind, payload in members:
            info = tarfile.TarInfo(name)
            if kind == "file":
                info.size = len(payload)
                tar.addfile(info, io.BytesIO(payload))
                continue
            info.type = {
                "dir": tarfile.DIRTYPE,
                "sym": tarfile.SYMTYPE,
                "hard": tarfile.LNKTYPE,
                "fifo": tarfile.FIFOTYPE,
                "chr": tarfile.CHRTYPE,
            }[kind]
            if kind in ("sym", "hard"):
                info.linkname = payload
            tar.addfile(info)


def _zip(path, names):
    with zipfile.ZipFile(path, "w") as zf:
        for name in names:
            zf.writestr(zipfile.ZipInfo(name), b"payload")


def _only(folder, *names):
    return sorted(os.listdir(folder)) == sorted(names)


def test_a_safe_tar_with_inner_links_extracts(tmp_path):
    archive = tmp_path / "ok.tar"
    _tar(
        archive,
        [
            ("d", "dir", None),
            ("d/a.txt", "file", b"alpha"),
            ("d/link", "sym", "a.txt"),
            ("hard", "hard", "d/a.txt"),
            ("up", "sym", "d/../d/a.txt"),
        ],
    )
    assert extract_archive(str(archive), str(tmp_path / "out")) == "tar"
    out = tmp_path / "out"
    assert (out / "d" / "link").read_bytes() == b"alpha" and (out / "hard").read_bytes() == b"alpha"
    assert os.path.islink(out / "d" / "link")
    assert _only(tmp_path, "ok.tar", "out")


@pytest.mark.parametrize(
    "members, culprit",
    [
        ([("../evil.txt", "file", b"x")], "../evil.txt"),
        ([("ok/../../evil.txt", "file", b"x")], "ok/../../evil.txt"),
        ([("/tmp/evil.txt", "file", b"x")], "/tmp/evil.txt"),
        ([("link", "sym", "/etc/passwd")], "link"),
        ([("link", "sym", "../../outside")], "link"),
        ([("d", "dir", None), ("d/link", "sym", "../../outside")], "d/link"),
        ([("hard", "hard", "../outside")], "hard"),
        # a link to the folder itself, then a file written through it: fine lexically, outside in fact
        ([("here", "sym", "."), ("here/../evil.txt", "file", b"x")], "here/../evil.txt"),
        ([("here", "sym", "."), ("escape", "sym", "here/../outside")], "escape"),
        ([("sub", "sym", "."), ("sub/evil.txt", "file", b"x")], "sub/evil.txt"),
        ([("pipe", "fifo", None)], "pipe"),
        ([("device", "chr", None)], "device"),
        ([("fine.txt", "file", b"ok"), ("..\\evil.txt", "file", b"x")], "..\\evil.txt"),
    ],
)
def test_unsafe_tar_members_refuse_the_whole_archive(tmp_path, members, culprit):
    archive = tmp_path / "bad.tar.gz"
    _tar(archive, [("first.txt", "file", b"written first?")] + members, mode="w:gz")
    target = tmp_path / "sandbox" / "out"
    target.parent.mkdir()
    with pytest.raises(UnsafeArchiveError) as info:
        extract_archive(str(archive), str(target))
    assert repr(culprit) in str(info.value) and "Nothing was extracted" in str(info.value)
    assert _only(target.parent)  # no target folder, no partial folder, nothing beside it
    assert _only(tmp_path, "bad.tar.gz", "sandbox")


@pytest.mark.parametrize("name", ["../evil.txt", "/abs/evil.txt", "a/../../evil.txt", "C:/evil.txt"])
def test_unsafe_zip_members_refuse_the_whole_archive(tmp_path, name):
    archive = tmp_path / "bad.zip"
    _zip(archive, ["first.txt", name])
    with pytest.raises(UnsafeArchiveError, match="Refusing to extract"):
        extract_archive(str(archive), str(tmp_path / "out"))
    assert _only(tmp_path, "bad.zip")


def test_get_file_refuses_a_traversing_archive_and_keeps_the_download(tmp_path):
    archive = tmp_path / "evil.tar"
    _tar(archive, [("../../escaped.txt", "file", b"x")])
    with pytest.raises(UnsafeArchiveError):
        get_file("evil", archive.as_uri(), extract=True, cache_dir=tmp_path / "cache")
    folder = tmp_path / "cache" / "datasets"
    assert _only(folder, "evil_archive")
    assert not (tmp_path / "escaped.txt").exists() and not (tmp_path / "cache" / "escaped.txt").exists()
