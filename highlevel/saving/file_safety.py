"""What every save and load does to a path before touching its bytes.

A loader reads only a regular file: a folder, a device such as ``/dev/zero`` (which never ends), a FIFO (which
blocks until someone writes) or a socket is refused before a byte is read. A save through a symbolic link
writes the file the link points to (the link stays a link); a new file gets the permissions the umask allows
(as ``open()`` would), a replaced file keeps its mode; the temporary files of a save that was killed are removed
by the next save to the same place.

>>> import tempfile
>>> from highlevel.saving import file_safety
>>> try:
...     file_safety.check_regular_file(tempfile.mkdtemp(), "a model file")
... except ValueError as e:
...     print(str(e).split(": ", 1)[1])
it is a folder, not a regular file. Pass the path of the file itself.
"""

import os
import shutil
import stat
import threading

from .errors import InvalidFileError

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device (such as /dev/zero), which may never end"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO), which blocks until something writes to it"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode):
    for test, words in _KINDS:
        if test(mode):
            return words
    return "not a regular file"


def check_regular_file(path, what):
    """Raises unless ``path`` (links followed) is a regular file.

    Args:
        path: the path a loader is about to read.
        what: what the caller reads, for the message (``"a model file"``, ``"a weights file"``).

    Raises:
        FileNotFoundError: nothing is there.
        InvalidFileError: something that is not a regular file is there (folder, device, FIFO, socket).
    """
    path = os.fspath(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise FileNotFoundError(f"Cannot read {what} from {path!r}: no such file.") from None
    if not stat.S_ISREG(mode):
        hint = " Pass the path of the file itself." if stat.S_ISDIR(mode) else " Pass the path of a saved file."
        raise InvalidFileError(f"Cannot read {what} from {path!r}: it is {_kind(mode)}, not a regular file.{hint}")


def save_target(path):
    """The path a save to ``path`` replaces: the file a symbolic link points to (followed to its end), so that the
    link survives the save; ``path`` itself otherwise. An existing target that is not a regular file is refused:
    a save replaces files, not devices or pipes."""
    path = os.fspath(path)
    target = os.path.realpath(path) if os.path.islink(path) else path
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target
    if not stat.S_ISREG(mode):
        message = (
            f"Cannot save to {path!r}: it is {_kind(mode)}, not a regular file; nothing was written. "
            "Choose a file path."
        )
        raise IsADirectoryError(message) if stat.S_ISDIR(mode) else InvalidFileError(message)
    return target


_umask_lock = threading.Lock()


def _umask():
    # Python cannot read the umask without setting it: set and restore it under a lock.
    with _umask_lock:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def mode_for(target):
    """The permission bits the file written at ``target`` gets: those of the file it replaces, or ``0o666`` less
    the umask for a new file (what ``open(target, "w")`` gives)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return 0o666 & ~_umask()


def temporary_prefix(target):
    """The name prefix of the temporary files a save to ``target`` makes next to it: it holds the saving process's
    id, so that a later save can tell a dead process's leftovers from a save still running."""
    return f".{os.path.basename(target)}.{os.getpid()}."


def remove_stale_temporaries(target):
    """Removes the temporary files and folders that saves to ``target`` left behind when their process died (killed
    between creating and renaming them). Those of live processes, this one included, are left alone."""
    folder = os.path.dirname(os.path.abspath(target))
    start = f".{os.path.basename(target)}."
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not name.startswith(start) or not (name.endswith(".tmp") or ".old-" in name):
            continue
        pid_text = name[len(start) :].split(".", 1)[0]
        if not pid_text.isdigit():
            continue
        pid = int(pid_text)
        if pid == os.getpid() or _alive(pid):
            continue
        full = os.path.join(folder, name)
        try:
            if os.path.isdir(full) and not os.path.islink(full):
                shutil.rmtree(full, ignore_errors=True)
            else:
                os.unlink(full)
        except OSError:
            pass


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, owned by someone else
    return True
