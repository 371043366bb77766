"""``get_file``: a file from a URL, kept in a cache on disk, checked against its hash, extracted when asked.

The cache is laid out as Keras lays it out, so a file either library downloaded serves both:
``<cache_dir>/<cache_subdir>/<fname>``, where ``cache_dir`` is, in order, the ``cache_dir`` argument, the
``KERAS_HOME`` environment variable (read at each call) or ``~/.keras``, and ``cache_subdir`` is
``"datasets"`` unless told otherwise.

A download is written to a temporary file next to its cache entry, checked against ``file_hash``, and only
then renamed into place: an interrupted or corrupted download never leaves a cache entry behind, and a file
that was cached before stays as it was.

>>> import os, tempfile, pathlib
>>> folder = tempfile.mkdtemp()
>>> source = pathlib.Path(folder, "hello.txt"); _ = source.write_text("hello")
>>> path = get_file(origin=source.as_uri(), cache_dir=os.path.join(folder, "cache"))  # doctest: +ELLIPSIS
Downloading data from file://...
>>> os.path.relpath(path, folder)
'cache/datasets/hello.txt'
"""

import hashlib
import os
import secrets
import sys
import tempfile
import urllib.parse
import warnings

from highlevel.utils import _archives

_CHUNK = 1 << 20
_TIMEOUT_S = 60  # seconds without a byte from the server before a download is given up


class DownloadError(OSError):
    """A file could not be fetched from its URL (no network, a server error, a timeout)."""


def _default_home():
    home = os.environ.get("KERAS_HOME")
    if home:
        return os.path.expanduser(home)
    base = os.path.expanduser("~")
    if not os.access(base, os.W_OK):
        base = tempfile.gettempdir()
    return os.path.join(base, ".keras")


def _cache_folder(cache_dir, cache_subdir):
    """Creates and returns ``<cache_dir>/<cache_subdir>``; falls back to the temporary folder, with a warning,
    when the cache folder cannot be written (as Keras does)."""
    base = _default_home() if cache_dir is None else os.path.expanduser(os.fspath(cache_dir))
    folder = os.path.join(base, os.fspath(cache_subdir))
    try:
        os.makedirs(folder, exist_ok=True)
        if os.access(folder, os.W_OK):
            return folder
    except OSError:
        pass
    fallback = os.path.join(tempfile.gettempdir(), ".keras", os.fspath(cache_subdir))
    warnings.warn(f"get_file: cannot write to the cache folder {folder!r}; using {fallback!r} instead.", stacklevel=3)
    os.makedirs(fallback, exist_ok=True)
    return fallback


def _hash_name(file_hash, algorithm):
    """The hashlib name (``"sha256"`` or ``"md5"``) for ``file_hash`` under ``hash_algorithm``."""
    algorithm = algorithm.lower() if isinstance(algorithm, str) else algorithm
    if algorithm not in ("auto", "sha256", "md5"):
        raise ValueError(f"hash_algorithm must be 'auto', 'sha256' or 'md5'; received hash_algorithm={algorithm!r}.")
    digits = len(file_hash)
    if algorithm == "auto":
        if digits not in (64, 32):
            raise ValueError(
                f"file_hash has {digits} characters; expected 64 hex digits (sha256) or 32 (md5). "
                f"Received file_hash={file_hash!r}."
            )
        algorithm = "sha256" if digits == 64 else "md5"
    expected = 64 if algorithm == "sha256" else 32
    if digits != expected or any(c not in "0123456789abcdefABCDEF" for c in file_hash):
        raise ValueError(
            f"file_hash is not a {algorithm} hash ({expected} hex digits); received file_hash={file_hash!r}."
        )
    return algorithm


def hash_file(path, algorithm="sha256"):
    """The hex digest of the file at ``path`` (``algorithm``: ``"sha256"`` or ``"md5"``).

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(delete=False) as f:
    ...     _ = f.write(b"")
    >>> hash_file(f.name)[:16]
    'e3b0c44298fc1c14'
    """
    hasher = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def _hash_matches(path, file_hash, algorithm):
    return hash_file(path, algorithm) == file_hash.lower()


def _fname_from(fname, origin):
    if fname is None or fname == "":
        fname = os.path.basename(urllib.parse.urlsplit(origin).path)
        if not fname:
            raise ValueError(f"get_file cannot take a file name from origin={origin!r}; pass fname= as well.")
    fname = os.fspath(fname)
    if not isinstance(fname, str):
        raise TypeError(f"fname must be a string; received {type(fname).__name__}.")
    if "/" in fname or os.sep in fname or (os.altsep and os.altsep in fname) or fname in (".", ".."):
        raise ValueError(
            f"fname must be a plain file name, without folders; received fname={fname!r}. To choose "
            "the folder, pass cache_dir= (and cache_subdir=)."
        )
    return fname


def _progress(done, total):
    if not sys.stdout.isatty():
        return
    if total:
        sys.stdout.write(f"\r{done / total:7.1%} of {total:,} bytes")
    else:
        sys.stdout.write(f"\r{done:,} bytes")
    sys.stdout.flush()


def _network_error(origin, hint, e):
    import urllib.error

    if isinstance(e, urllib.error.HTTPError):
        reason = f"HTTP error {e.code} ({e.reason})"
    elif isinstance(e, urllib.error.URLError):
        reason = str(e.reason)
    else:
        reason = f"{type(e).__name__}: {e}"
    return DownloadError(f"Could not download {origin}: {reason}. {hint}")


def _fetch(origin, target, hint):
    """Streams ``origin`` into a new file next to ``target``; returns that file's path. Network failures
    become a :class:`DownloadError` that names the URL and where the file can be put by hand."""
    import http.client
    import urllib.request

    # URLError, HTTPError, timeouts and refused connections are OSErrors; a cut connection can be an HTTPException
    errors = (OSError, http.client.HTTPException)
    part = f"{target}.{secrets.token_hex(4)}.part"
    try:
        with open(part, "xb") as out:
            try:
                response = urllib.request.urlopen(origin, timeout=_TIMEOUT_S)
            except errors as e:
                raise _network_error(origin, hint, e) from e
            with response:
                total = response.headers.get("Content-Length")
                total = int(total) if total and total.isdigit() else None
                done = 0
                while True:
                    try:
                        chunk = response.read(_CHUNK)
                    except errors as e:
                        raise _network_error(origin, hint, e) from e
                    if not chunk:
                        break
                    out.write(chunk)
                    done += len(chunk)
                    _progress(done, total)
        if total is not None and done != total:
            raise DownloadError(
                f"Could not download {origin}: the connection closed after {done:,} of {total:,} bytes. {hint}"
            )
        if total is not None and sys.stdout.isatty():
            sys.stdout.write("\n")
        return part
    except BaseException:
        if os.path.exists(part):
            os.remove(part)
        raise


def get_file(
    fname=None,
    origin=None,
    untar=False,
    md5_hash=None,
    file_hash=None,
    cache_subdir="datasets",
    hash_algorithm="auto",
    extract=False,
    archive_format="auto",
    cache_dir=None,
    force_download=False,
):
    """Downloads a file from a URL unless it is already in the cache; returns its path.

    The file lands at ``<cache_dir>/<cache_subdir>/<fname>`` (by default ``~/.keras/datasets/<fname>``; the
    ``KERAS_HOME`` environment variable moves ``~/.keras``), the same place ``keras.utils.get_file`` puts it.
    A cached file is used as it is, after a check of its hash when ``file_hash`` is given (a mismatch
    downloads it again). Downloads go to a temporary file that is renamed into place once complete and
    checked, so nothing half-written is ever cached.

    Where it differs from Keras, on purpose: an archive with a member that would land outside its folder is
    refused as a whole (Keras skips such members with a warning), and a file that is no archive raises (Keras
    warns and returns a folder that does not exist); an extraction folder that exists is reused unless the
    archive was downloaded again (Keras extracts on every call); ``KERAS_HOME`` is read at each call (Keras
    reads it once, at import); a ``cache_dir`` that does not exist yet is created (Keras then falls back to
    the temporary folder); a hash of neither 64 nor 32 hex digits, or an unknown ``hash_algorithm``, is an
    error (Keras silently compares it as md5, so it never matches).

    Args:
        fname: the file's name in the cache; by default the last part of the URL's path. With
            ``extract=True`` and a name without a dot it names the folder the archive is extracted to (the
            archive is kept as ``<fname>_archive``); a name with a dot (``"photos.tgz"``) is the archive's
            name, and it is extracted to ``<name up to the first dot>_extracted``.
        origin: the URL (``https://``, ``http://``, ``ftp://`` or ``file://``).
        untar: deprecated spelling of ``extract=True, archive_format="tar"``.
        md5_hash: deprecated spelling of ``file_hash=..., hash_algorithm="md5"``.
        file_hash: the expected hex digest of the file, sha256 (64 digits) or md5 (32 digits).
        cache_subdir: the folder under the cache root; an absolute path is used as it is.
        hash_algorithm: ``"auto"`` (by the digest's length), ``"sha256"`` or ``"md5"``.
        extract: extracts the archive (tar, tar.gz, tar.bz2, tar.xz or zip) and returns the folder.
            Members that would be written outside that folder (absolute paths, ``..``, links pointing out)
            make the whole extraction fail, before anything is written.
        archive_format: ``"auto"`` (tar, then zip), ``"tar"``, ``"zip"`` or a list of those.
        cache_dir: the cache root; by default ``$KERAS_HOME`` or ``~/.keras``. When it cannot be written,
            the temporary folder's ``.keras`` is used, with a warning.
        force_download: downloads even when the file is cached (the cached file is replaced only by a
            complete download that passes the hash check).

    Returns:
        The path of the file, or of the extraction folder with ``extract=True``.

    Raises:
        DownloadError: the file is not cached and cannot be downloaded (offline, a server error); the
            message names the URL and the exact path where the file can be put by hand.
        ValueError: the downloaded file's hash differs from ``file_hash`` (nothing is cached); bad arguments.
        UnsafeArchiveError: an archive member would be written outside the extraction folder.

    Example:

    >>> import hashlib, os, tempfile, pathlib
    >>> folder = tempfile.mkdtemp()
    >>> source = pathlib.Path(folder, "numbers.csv"); _ = source.write_text("1,2,3")
    >>> digest = hashlib.sha256(b"1,2,3").hexdigest()
    >>> path = get_file("numbers.csv", source.as_uri(), file_hash=digest,
    ...                 cache_dir=os.path.join(folder, "cache"))  # doctest: +ELLIPSIS
    Downloading data from file://...
    >>> pathlib.Path(path).read_text()
    '1,2,3'
    """
    if origin is None:
        raise ValueError("get_file needs origin=, the URL of the file to download.")
    origin = os.fspath(origin) if isinstance(origin, os.PathLike) else origin
    if not isinstance(origin, str):
        raise TypeError(f"origin must be a URL string; received {type(origin).__name__}.")
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    if file_hash is not None:
        hash_algorithm = _hash_name(str(file_hash), hash_algorithm)
        file_hash = str(file_hash).lower()
    if untar:
        extract, archive_format = True, "tar"
    if extract:
        formats = _archives.resolve_formats(archive_format)
        if not formats:
            raise ValueError(f"extract=True needs an archive format; received archive_format={archive_format!r}.")

    given = fname is not None and fname != ""
    fname = _fname_from(fname, origin)
    folder = _cache_folder(cache_dir, cache_subdir)
    extraction_dir = None
    if extract:
        if given and "." in fname:
            target = os.path.join(folder, fname)
            extraction_dir = os.path.join(folder, fname[: fname.find(".")] + "_extracted")
        else:
            target = os.path.join(folder, fname + "_archive")
            extraction_dir = os.path.join(folder, fname)
    else:
        target = os.path.join(folder, fname)

    stale = None
    if os.path.isfile(target) and not force_download:
        if file_hash is None or _hash_matches(target, file_hash, hash_algorithm):
            download = False
        else:
            stale = (
                f"The cached file {target} does not match the expected {hash_algorithm} hash {file_hash} "
                "(incomplete or outdated)"
            )
            print(f"{stale}; downloading it again.")
            download = True
    else:
        download = True

    if download:
        hint = f"If this machine is offline, download {origin} elsewhere and put it at {target}"
        if file_hash is not None:
            hint += f" (its {hash_algorithm} hash must be {file_hash})"
        if extraction_dir is not None:
            hint += f"; it is extracted to {extraction_dir} on the next call"
        hint += "."
        if stale:
            hint = f"{stale}. {hint}"
        print(f"Downloading data from {origin}")
        part = _fetch(origin, target, hint)
        try:
            if file_hash is not None:
                actual = hash_file(part, hash_algorithm)
                if actual != file_hash:
                    raise ValueError(
                        f"The file downloaded from {origin} has {hash_algorithm} hash {actual}, but {file_hash} "
                        f"was expected: it is incomplete, corrupted or not the expected file. Nothing was saved "
                        f"at {target}. Retry, or check origin= and file_hash=."
                    )
            os.replace(part, target)
        finally:
            if os.path.exists(part):
                os.remove(part)

    if extraction_dir is not None:
        if download or not os.path.isdir(extraction_dir) or not os.listdir(extraction_dir):
            _archives.extract_archive(target, extraction_dir, formats)
        return extraction_dir
    return target


UnsafeArchiveError = _archives.UnsafeArchiveError

__all__ = ["DownloadError", "UnsafeArchiveError", "get_file", "hash_file"]
