"""A cache on disk for the files an oracle writes (real Keras run in a child process, say), shared by the
processes of a test run (the xdist workers) and by later runs on the same machine, as JAX's compilation cache is
(see ``conftest.py``).

An entry is a folder, found by a key that digests everything its files depend on: the sources of the scripts
that write them, their arguments and the versions of the packages involved. A lock on the entry makes one
process compute it while the others wait, and a marker file written last tells a complete entry from one a
killed run left half written. Entries are only ever read once written: a test must not write into one.

>>> key = cache_key(["an argument"], packages=("numpy",))
>>> len(key)
24
"""

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from importlib.metadata import PackageNotFoundError, version

COMPLETE = ".complete"


def _version(package):
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def cache_root():
    """The cache's folder: ``HIGHLEVEL_TEST_ORACLE_CACHE`` if set, else one per user in the system's temporary
    folder."""
    root = os.environ.get("HIGHLEVEL_TEST_ORACLE_CACHE") or os.path.join(
        tempfile.gettempdir(), f"highlevel-tests-oracle-cache-{os.getuid() if hasattr(os, 'getuid') else 0}"
    )
    os.makedirs(os.path.join(root, "locks"), exist_ok=True)
    return root


def cache_key(arguments, files=(), packages=()):
    """A digest of ``arguments`` (anything JSON can write), the contents of ``files`` and the installed
    versions of ``packages``."""
    digest = hashlib.sha256()
    versions = {name: _version(name) for name in packages}
    digest.update(json.dumps([arguments, versions], sort_keys=True).encode())
    for path in files:
        with open(path, "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:24]


@contextlib.contextmanager
def _locked(path):
    """An exclusive lock on ``path`` where the platform has ``fcntl``; elsewhere none (two processes may then
    both compute an entry, and the first to finish wins)."""
    try:
        import fcntl
    except ImportError:  # Windows
        yield
        return
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def cached_folder(name, key, compute):
    """The folder of entry ``name``-``key``, filled by ``compute(folder)`` the first time it is asked for."""
    root = cache_root()
    folder = os.path.join(root, f"{name}-{key}")
    with _locked(os.path.join(root, "locks", f"{name}-{key}")):
        if not os.path.exists(os.path.join(folder, COMPLETE)):
            shutil.rmtree(folder, ignore_errors=True)  # what a killed run left behind
            scratch = tempfile.mkdtemp(prefix=f"{name}-", dir=root)
            try:
                compute(scratch)
                with open(os.path.join(scratch, COMPLETE), "w") as f:
                    f.write("complete")
                if not os.path.exists(os.path.join(folder, COMPLETE)):  # without a lock another may have won
                    os.replace(scratch, folder)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
    return folder
