"""Ctrl-C (SIGINT) waits for the end of the running step, so that a step is never cut in half.

A step updates the model's variables as one unit: on JAX the old weights are handed to XLA (donated) and only
the step's outputs hold the new ones until they are written back; on the other engines the optimizer assigns
one variable after the other. An interrupt between those points would leave no weights at all (JAX) or a mix
of two steps. While a step runs, a first SIGINT is therefore noted and raised as ``KeyboardInterrupt`` as soon
as the step has finished (a second SIGINT during the same step interrupts at once, for a step that hangs).
The model then holds the weights of the last completed step. Only the main thread receives signals; in other
threads, and where the program installed its own SIGINT handler, nothing changes. Keras does not defer the
signal.

>>> with deferred_interrupt():
...     pass
"""

import contextlib
import signal
import threading


@contextlib.contextmanager
def deferred_interrupt():
    """Runs the block with a first SIGINT deferred to its end (see the module's docstring)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.getsignal(signal.SIGINT)
    except (ValueError, OSError):  # pragma: no cover - an interpreter without signals
        previous = None
    if previous is not signal.default_int_handler:
        yield
        return
    received = []

    def note(signum, frame):
        if received:
            raise KeyboardInterrupt  # a second Ctrl-C: the user insists
        received.append(signum)

    signal.signal(signal.SIGINT, note)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        raise KeyboardInterrupt
