"""Reading a model archive (a zip) defensively, and writing any file atomically.

The reader never extracts to disk; it still refuses members whose names or attributes would be dangerous
for a tool that does (absolute paths, ``..``, links, duplicates), and bounds every size before reading so a
crafted archive cannot exhaust memory (zip bombs, members claiming gigabytes).

>>> import os, tempfile
>>> from highlevel.saving import archive
>>> path = os.path.join(tempfile.mkdtemp(), "a.zip")
>>> archive.write_archive(path, {"config.json": b"{}"})
>>> archive.read_archive(path, expected={"config.json"})
{'config.json': b'{}'}
"""

import io
import os
import shutil
import stat
import struct
import tempfile
import zipfile
import zlib

from . import file_safety
from .errors import InvalidFileError, UnsafeFileError

# What zipfile raises on a corrupt or truncated archive (it has no single error type).
_ZIP_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    EOFError,
    ValueError,
    OSError,
    OverflowError,
    NotImplementedError,
    KeyError,
    IndexError,
    RuntimeError,
    struct.error,
)

MAX_MEMBER_BYTES = 4 * 1024**3  # one member, uncompressed
MAX_TOTAL_BYTES = 8 * 1024**3
MAX_COMPRESSION_RATIO = 200  # deflate reaches ~1000x on zeros; real weights and JSON stay far below this
RATIO_CHECK_FROM_BYTES = 1024**2  # tiny members may compress very well and are harmless


def _save_error(error, path, step):
    """``error`` (an ``OSError``) restated to name the destination; same errno, so the same subclass
    (``PermissionError``, ``FileNotFoundError``...) and the same ``errno`` for callers that test it."""
    reason = error.strerror or str(error) or type(error).__name__
    message = f"Cannot save to {path!r}: {reason} (while {step}). Nothing was written there"
    message += "; the existing file is unchanged." if os.path.exists(path) else "."
    if error.errno is None:
        return OSError(message)
    return OSError(error.errno, message, path)


def atomic_write(path, data):
    """Writes ``data`` (bytes, or a callable taking a binary file) to ``path`` atomically.

    The bytes go to a temporary file in the destination's folder (so the final rename stays on one file
    system), which is flushed and fsynced, then ``os.replace``-d over ``path``; the folder is fsynced too
    where the OS allows, so the rename survives a power loss. A process killed at any moment leaves either
    the old file or the new one at ``path``, never a mix.

    Raises:
        OSError: the write failed (no space, no permission, ...), naming ``path``, with the original errno.
            The destination is untouched and the temporary file removed.
    """
    path = os.fspath(path)
    target = file_safety.save_target(path)  # through a link: the file it points to
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"Cannot save to {path!r}: the folder {folder!r} does not exist.")
    file_safety.remove_stale_temporaries(target)
    mode = file_safety.mode_for(target)
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=file_safety.temporary_prefix(target), suffix=".tmp")
    except OSError as e:
        raise _save_error(e, path, f"creating a temporary file in {folder!r}") from e
    step = "writing"
    try:
        with os.fdopen(fd, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data)
            step = "flushing"
            f.flush()
            step = "setting the permissions"
            os.fchmod(f.fileno(), mode)  # mkstemp makes 0600: give what open() would, or what the old file had
            step = "syncing to disk"
            os.fsync(f.fileno())
        step = "replacing the destination"
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise _save_error(e, path, step) from e
        raise
    _fsync_folder(folder)


def _fsync_folder(folder):
    """Makes a rename in ``folder`` durable; not every platform lets a folder be opened or synced."""
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def write_archive(path, members, stored=()):
    """Writes ``members`` (``{name: bytes}``) as a zip at ``path``, atomically.

    Members named in ``stored`` are written uncompressed: weights barely compress (float bits look random)
    and, when they do (constant or zero-initialized tensors), their ratio would trip the reader's zip-bomb
    bound; storing them also saves the deflate time on large models. The others are deflated.
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, payload in members.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            zf.writestr(info, payload)
    atomic_write(path, buffer.getvalue())


def write_folder(path, members):
    """Writes ``members`` (``{name: bytes}``, names with ``/`` for sub-folders) as files of the folder ``path``.

    The files are written in a new folder next to ``path`` which then takes its place, so a crash leaves the old
    folder or the new one at ``path`` (the old one may be left beside it as ``<path>.old-*`` if the crash strikes
    between the two renames). An existing ``path`` that is a file, not a folder, is refused.
    """
    path = os.path.abspath(os.fspath(path))
    parent = os.path.dirname(path)
    if not os.path.isdir(parent):
        raise FileNotFoundError(f"Cannot save to {path!r}: the folder {parent!r} does not exist.")
    if os.path.exists(path) and not os.path.isdir(path):
        raise FileExistsError(
            f"Cannot save an unzipped model to {path!r}: a file of that name exists. Pass "
            "zipped=True (or None) to write one file, or choose another path."
        )
    file_safety.remove_stale_temporaries(path)
    new = tempfile.mkdtemp(dir=parent, prefix=file_safety.temporary_prefix(path), suffix=".tmp")
    try:
        for name, payload in members.items():
            target = os.path.join(new, *name.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(payload)
                f.flush()
                os.fsync(f.fileno())
        old = None
        if os.path.exists(path):
            old = tempfile.mkdtemp(dir=parent, prefix=file_safety.temporary_prefix(path) + "old-")
            os.rmdir(old)
            os.replace(path, old)
        os.replace(new, path)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    _fsync_folder(parent)


def read_folder(path, expected, required=None, prefixes=()):
    """Returns ``{name: bytes}`` for the files of the folder ``path`` that :func:`write_folder` wrote, with the
    checks of :func:`read_archive` (allowed names only, no links, bounded sizes)."""
    path = os.fspath(path)
    required = set(expected if required is None else required)
    out, total = {}, 0
    for root, dirs, files in os.walk(path, followlinks=False):
        for d in dirs:
            if os.path.islink(os.path.join(root, d)):
                raise UnsafeFileError(f"{path!r} holds a link {os.path.join(root, d)!r}; links are refused.")
        for name in files:
            full = os.path.join(root, name)
            rel = os.path.relpath(full, path).replace(os.sep, "/")
            if os.path.islink(full) or not os.path.isfile(full):
                raise UnsafeFileError(f"{path!r}: {rel!r} is a link or not a plain file; refused.")
            if not _allowed(rel, expected, prefixes):
                raise InvalidFileError(
                    f"{path!r} holds an unexpected file {rel!r}; a saved highlevel model holds only {sorted(expected)}."
                )
            size = os.path.getsize(full)
            total += size
            if size > MAX_MEMBER_BYTES or total > MAX_TOTAL_BYTES:
                raise UnsafeFileError(f"{path!r}: {rel!r} takes the folder over the size bounds.")
            with open(full, "rb") as f:
                out[rel] = f.read()
    missing = required - set(out)
    if missing:
        raise InvalidFileError(f"{path!r} lacks the files {sorted(missing)}: it is not a complete highlevel model.")
    return out


def _check_member(info, names_seen, path):
    name = info.filename
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":") or ".." in parts:
        raise UnsafeFileError(
            f"{path!r} holds a member with an unsafe path {name!r} (absolute or with '..'); "
            "highlevel refuses such archives."
        )
    if name in names_seen:
        raise UnsafeFileError(
            f"{path!r} holds two members named {name!r}; an archive with duplicate names is ambiguous and refused."
        )
    names_seen.add(name)
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise UnsafeFileError(f"{path!r}: member {name!r} is a symbolic link; links are refused.")
    if info.file_size > MAX_MEMBER_BYTES:
        raise UnsafeFileError(
            f"{path!r}: member {name!r} claims {info.file_size} bytes, over the bound of {MAX_MEMBER_BYTES}."
        )
    if info.file_size > RATIO_CHECK_FROM_BYTES and info.file_size > MAX_COMPRESSION_RATIO * max(info.compress_size, 1):
        raise UnsafeFileError(
            f"{path!r}: member {name!r} expands {info.file_size} bytes from "
            f"{info.compress_size} (ratio over {MAX_COMPRESSION_RATIO}): a likely zip bomb."
        )


def _allowed(name, expected, prefixes):
    return name in expected or any(name.startswith(p) and len(name) > len(p) for p in prefixes)


def read_archive(path, expected, required=None, prefixes=()):
    """Returns ``{name: bytes}`` for the members of the zip at ``path``, after the safety checks.

    Args:
        path: the archive.
        expected: the member names allowed; any other name is an ``InvalidFileError``.
        required: the names that must be present (default: all of ``expected``).
        prefixes: folders whose members are allowed too (``"assets/"``).

    Raises:
        InvalidFileError: not a zip, truncated or corrupt, or unexpected/missing members.
        UnsafeFileError: dangerous paths, links, duplicate names, or sizes past the bounds.
    """
    path = os.fspath(path)
    required = set(expected if required is None else required)
    file_safety.check_regular_file(path, "a model file")
    try:
        zf = zipfile.ZipFile(path, "r")
    except _ZIP_ERRORS as e:
        raise InvalidFileError(f"{path!r} is not a highlevel model file (not a readable zip archive: {e}).") from e
    try:
        with zf:
            infos = zf.infolist()
            seen = set()
            total = 0
            for info in infos:
                _check_member(info, seen, path)
                total += info.file_size
            if total > MAX_TOTAL_BYTES:
                raise UnsafeFileError(f"{path!r} expands to {total} bytes, over the bound of {MAX_TOTAL_BYTES}.")
            unexpected = {n for n in seen if not _allowed(n, expected, prefixes)}
            if unexpected:
                raise InvalidFileError(
                    f"{path!r} holds unexpected members {sorted(unexpected)}; a highlevel file "
                    f"holds only {sorted(expected)}."
                )
            missing = required - seen
            if missing:
                raise InvalidFileError(
                    f"{path!r} lacks the members {sorted(missing)}: it is not a complete highlevel model file."
                )
            out = {}
            for info in infos:
                if info.is_dir():
                    raise InvalidFileError(f"{path!r}: member {info.filename!r} is a folder.")
                with zf.open(info) as f:
                    data = f.read(info.file_size + 1)
                if len(data) != info.file_size:
                    raise InvalidFileError(
                        f"{path!r}: member {info.filename!r} does not hold the size its header declares."
                    )
                out[info.filename] = data
            return out
    except (UnsafeFileError, InvalidFileError):
        raise
    except _ZIP_ERRORS as e:
        raise InvalidFileError(f"{path!r} is corrupt or truncated ({type(e).__name__}: {e}).") from e
