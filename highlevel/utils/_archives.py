"""Extraction of tar and zip archives that refuses, before writing anything, every member that could land
outside the target folder.

A member is refused when its name is absolute or climbs out with ``..``, when it is a symbolic or hard link
whose target lies outside, when its path (or a link's target) passes through a link of the archive, or when
it is a device or a pipe. One refused member refuses the whole archive: nothing is extracted, and the error
names the member. The archive is unpacked into a fresh folder next to the target and renamed into place at
the end, so an interrupted extraction leaves no half-filled folder behind.

>>> import io, os, pathlib, tarfile, tempfile
>>> folder = tempfile.mkdtemp()
>>> archive = os.path.join(folder, "data.tar.gz")
>>> with tarfile.open(archive, "w:gz") as tar:
...     info = tarfile.TarInfo("inner/hello.txt"); info.size = 5
...     tar.addfile(info, io.BytesIO(b"hello"))
>>> extract_archive(archive, os.path.join(folder, "out"))
'tar'
>>> pathlib.Path(folder, "out", "inner", "hello.txt").read_text()
'hello'
"""

import os
import posixpath
import secrets
import shutil
import tarfile
import zipfile

FORMATS = ("tar", "zip")


class UnsafeArchiveError(ValueError):
    """An archive holds a member that would be written outside the folder it is extracted into."""


def resolve_formats(archive_format):
    """Keras's ``archive_format`` (``"auto"``, ``"tar"``, ``"zip"``, a list of those, or None) as a tuple."""
    if archive_format is None:
        return ()
    if archive_format == "auto":
        return FORMATS
    formats = (archive_format,) if isinstance(archive_format, str) else tuple(archive_format)
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ValueError(
            f"archive_format must be 'auto', 'tar', 'zip', a list of those or None; received "
            f"archive_format={archive_format!r}."
        )
    return formats


def _is_format(path, fmt):
    return tarfile.is_tarfile(path) if fmt == "tar" else zipfile.is_zipfile(path)


def _walk(path, links):
    """Resolves ``path`` (a member's name, or a link's target joined to its folder) one part at a time, as the
    file system would: returns ``(normalized path, None)``, or ``(None, why)`` when the path is absolute,
    climbs out of the folder, or passes through a link member of the archive (whose target could send the
    rest of the path anywhere)."""
    path = path.replace("\\", "/")
    if path.startswith("/") or (len(path) > 1 and path[1] == ":"):
        return None, "is absolute"
    parts = []
    for part in (p for p in path.split("/") if p not in ("", ".")):
        if parts and "/".join(parts) in links:
            return None, f"passes through the link {'/'.join(parts)!r}"
        if part == "..":
            if not parts:
                return None, "climbs out of the folder with '..'"
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts) or ".", None


def _refuse(archive, member, why, target):
    raise UnsafeArchiveError(
        f"Refusing to extract {archive!r}: its member {member!r} {why}, so it could write outside {target!r}. "
        "Nothing was extracted. The archive may be malicious; if you trust it, extract it yourself."
    )


def _check_tar(tar, archive, target):
    members = tar.getmembers()
    links = set()
    for m in members:
        if m.issym() or m.islnk():
            name, _ = _walk(m.name, ())
            links.add(name)
    for m in members:
        name, why = _walk(m.name, links)
        if name is None:
            _refuse(archive, m.name, f"has a path that {why}", target)
        if m.issym() or m.islnk():
            # a symbolic link resolves from its own folder, a hard link from the archive's root
            dest = m.linkname.replace("\\", "/")
            if m.issym() and not (dest.startswith("/") or dest[1:2] == ":"):
                dest = posixpath.join(posixpath.dirname(m.name.replace("\\", "/")), dest)
            _, why = _walk(dest, links)
            if why is not None:
                _refuse(archive, m.name, f"is a link to {m.linkname!r}, a path that {why}", target)
        elif not (m.isfile() or m.isdir()):
            _refuse(archive, m.name, "is a device, a pipe or another special file", target)
    return members


def _check_zip(zf, archive, target):
    for info in zf.infolist():
        _, why = _walk(info.filename, ())
        if why is not None:
            _refuse(archive, info.filename, f"has a path that {why}", target)


def _unpack(path, fmt, folder, target):
    if fmt == "tar":
        with tarfile.open(path) as tar:
            members = _check_tar(tar, path, target)
            # Python's own "data" filter, where it exists, checks again while writing.
            kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(folder, members=members, **kwargs)
    else:
        with zipfile.ZipFile(path) as zf:
            _check_zip(zf, path, target)
            zf.extractall(folder)


def _move_into_place(fresh, target):
    aside = None
    if os.path.lexists(target):
        aside = f"{target}.{secrets.token_hex(4)}.old"
        os.rename(target, aside)
    try:
        os.rename(fresh, target)
    except OSError:
        if aside is not None:
            os.rename(aside, target)
        raise
    if aside is not None:
        if os.path.isdir(aside) and not os.path.islink(aside):
            shutil.rmtree(aside, ignore_errors=True)
        else:
            os.remove(aside)


def extract_archive(path, target, archive_format="auto"):
    """Extracts the archive at ``path`` into the folder ``target``, replacing what was there.

    Args:
        path: the archive: a tar file (plain, gzip, bzip2 or xz) or a zip file.
        target: the folder to extract into; it is created, or replaced once extraction has succeeded.
        archive_format: which formats to try, in order: ``"auto"`` (tar, then zip), ``"tar"``, ``"zip"``
            or a list of those.

    Returns:
        The format that matched, ``"tar"`` or ``"zip"``.

    Raises:
        UnsafeArchiveError: a member would be written outside ``target`` (nothing is extracted).
        ValueError: the file is in none of the formats tried.
    """
    formats = resolve_formats(archive_format)
    if os.path.lexists(target) and not os.path.isdir(target):
        raise ValueError(
            f"Cannot extract {path!r} into {target!r}: a file is there, not a folder. Move it away, or "
            "choose another name (fname=)."
        )
    fmt = next((f for f in formats if _is_format(path, f)), None)
    if fmt is None:
        raise ValueError(
            f"Cannot extract {path!r}: it is not a {' or '.join(formats) or 'known'} archive "
            f"(archive_format={archive_format!r}). Check that the URL gives an archive, or call "
            "get_file without extract=True."
        )
    fresh = f"{target}.{secrets.token_hex(4)}.partial"
    os.makedirs(fresh)
    try:
        _unpack(path, fmt, fresh, target)
        _move_into_place(fresh, target)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return fmt
