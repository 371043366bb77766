"""Keeping a framework's own start-up log lines out of the user's terminal and notebook cells.

TensorFlow's C++ side writes lines such as ``oneDNN custom operations are on`` and ``All log messages before
absl::InitializeLog() is called are written to STDERR`` straight to the process's stderr while it is imported;
``TF_CPP_MIN_LOG_LEVEL`` no longer hides all of them, and in Jupyter they land in the cell that first trains.
An engine imports its framework inside :func:`quiet_native_stderr`, which points file descriptor 2 at the null
device for that import only (Python exceptions still propagate and are reported as usual).

Set ``HIGHLEVEL_FRAMEWORK_LOGS=1`` (before the engine is first used) to see the frameworks' logs again.

>>> import os
>>> with quiet_native_stderr():
...     _ = os.write(2, b"this line is dropped\\n")
"""

import contextlib
import os
import sys


def framework_logs_wanted():
    """Whether the user asked for the frameworks' own logs (``HIGHLEVEL_FRAMEWORK_LOGS`` set to 1/true/yes)."""
    return os.environ.get("HIGHLEVEL_FRAMEWORK_LOGS", "").strip().lower() in ("1", "true", "yes", "on")


@contextlib.contextmanager
def quiet_native_stderr():
    """Drops what native code writes to file descriptor 2 inside the block (unless the logs are wanted)."""
    if framework_logs_wanted():
        yield
        return
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):  # no real stderr descriptor (an embedded interpreter)
        yield
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        try:
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)
