"""Which engine runs ``highlevel.ops``: the environment variable, a setter and a scoped switch.

The backend is chosen by ``HIGHLEVEL_BACKEND`` (``native`` when unset) the first time it is needed;
:func:`set_backend` changes it for the process and :func:`backend_scope` for a block, so one process can
run the same computation on several engines side by side. Names are case-blind and the built-in engines also
answer to ``tf``, ``pytorch``, ``np`` and ``numpy``; a mistyped name gets the closest one suggested.

The frameworks' own start-up log lines (TensorFlow's absl and oneDNN notices) are kept out of stderr and
notebook cells; set ``HIGHLEVEL_FRAMEWORK_LOGS=1`` before the engine is first used to see them.

>>> import highlevel as hl
>>> with hl.config.backend_scope("native"):
...     hl.config.backend()
'native'
"""

import contextlib
import contextvars
import os
import threading

from highlevel.backends import registry
from highlevel.backends.contract import dtypes as _dtypes

_scoped = contextvars.ContextVar("highlevel_backend", default=None)
_global = None


def _from_environment():
    name = os.environ.get("HIGHLEVEL_BACKEND", "").strip() or "native"
    return registry.get(name)  # aliases ("tf", "pytorch", "np") and any case are accepted


def current_backend():
    """The :class:`~highlevel.backends.Backend` instance that ops run on now."""
    b = _scoped.get()
    if b is not None:
        return b
    global _global
    if _global is None:
        _global = _from_environment()
    return _global


def backend():
    """The name of the current backend, e.g. ``"native"``."""
    return current_backend().name


def set_backend(backend):
    """Makes ``backend`` (a name such as ``"jax"``) the backend of this process (outside any :func:`backend_scope`).

    The names are ``"native"``, ``"jax"``, ``"torch"`` and ``"tensorflow"`` (and any registered third-party
    backend); ``"tf"``, ``"pytorch"``, ``"np"`` and ``"numpy"`` are accepted for the built-in ones, as is any case.
    ``HIGHLEVEL_BACKEND`` takes the same names.

    Unlike Keras, no module is reloaded: layers and models made afterwards run on the new backend, and
    those made before keep the variables of the backend they were built on.

    Raises:
        ValueError: for an unknown backend or one whose framework is not installed; the message suggests the
            closest known name for a typo, lists the installed backends and the pip extra that adds the missing one.
        RuntimeError: for another engine while ``fit``, ``evaluate`` or ``predict`` run in other threads (their
            operations run on the process-wide backend); ``backend_scope`` is per thread and always allowed.
    """
    global _global
    chosen = registry.get(backend)
    with _steps_lock:
        others = sum(n for thread, n in _running_steps.items() if thread != threading.get_ident())
        process_wide = _global if _global is not None else _from_environment()
        if others and chosen is not process_wide:
            raise RuntimeError(
                f"set_backend({backend!r}): {others} training, evaluation or prediction call(s) (fit, evaluate, "
                f"predict...) are running in other threads on the process-wide backend '{process_wide.name}', which "
                "their operations run on. Switch once they end, or use "
                f"hl.config.backend_scope({backend!r}) in this thread: a scope is per thread."
            )
        _global = chosen


_running_steps = {}  # thread id -> steps running in it (see _running_step)
_steps_lock = threading.Lock()


@contextlib.contextmanager
def _running_step():
    """Marks a step running in this thread: :func:`set_backend` refuses to switch engines under it."""
    thread = threading.get_ident()
    with _steps_lock:
        _running_steps[thread] = _running_steps.get(thread, 0) + 1
    try:
        yield
    finally:
        with _steps_lock:
            left = _running_steps.pop(thread) - 1
            if left:
                _running_steps[thread] = left


@contextlib.contextmanager
def backend_scope(name):
    """Runs the block on backend ``name`` (or on a backend instance) and restores the previous one afterwards."""
    token = _scoped.set(registry.get(name) if isinstance(name, str) else name)
    try:
        yield current_backend()
    finally:
        _scoped.reset(token)


def floatx():
    """The default float dtype (``"float32"``)."""
    return _dtypes.floatx()


def set_floatx(value):
    """Sets the default float dtype for every backend.

    Args:
        value: ``"float16"``, ``"bfloat16"``, ``"float32"`` or ``"float64"``.

    >>> import highlevel as hl
    >>> hl.config.set_floatx("float64"); hl.config.floatx()
    'float64'
    >>> hl.config.set_floatx("float32")
    """
    _dtypes.set_floatx(value)


def available_backends():
    """The backends whose framework is installed."""
    return registry.installed()


_IMAGE_DATA_FORMATS = ("channels_last", "channels_first")
_image_data_format = "channels_last"
_epsilon = 1e-7


def image_data_format():
    """The default layout of image tensors: ``"channels_last"`` (``(batch, height, width, channels)``, the
    default) or ``"channels_first"``; used wherever a ``data_format`` argument is None."""
    return _image_data_format


def standardize_data_format(data_format, op=None):
    """``data_format`` as ``"channels_last"`` or ``"channels_first"``; None gives :func:`image_data_format`.

    The one check of a ``data_format`` argument: the ops (``hl.ops``) and the layers call it, and the engines receive
    its result. ``op`` names the op or layer in the error message.

    >>> standardize_data_format("Channels_First"), standardize_data_format(None)
    ('channels_first', 'channels_last')
    """
    if data_format is None:
        return _image_data_format
    if isinstance(data_format, str) and data_format.lower() in _IMAGE_DATA_FORMATS:
        return data_format.lower()
    where = f"{op}: " if op else ""
    raise ValueError(
        f"{where}`data_format` must be 'channels_last' or 'channels_first'; received data_format={data_format!r}."
    )


def set_image_data_format(data_format):
    """Sets the default image layout (``"channels_last"`` or ``"channels_first"``) for the process."""
    global _image_data_format
    value = str(data_format).lower() if isinstance(data_format, str) else data_format
    if value not in _IMAGE_DATA_FORMATS:
        raise ValueError(
            f"set_image_data_format: expected one of {list(_IMAGE_DATA_FORMATS)}; received data_format={data_format!r}."
        )
    _image_data_format = value


def epsilon():
    """The fuzz factor added to denominators by losses, metrics and layers that ask for it (``1e-7``)."""
    return _epsilon


def set_epsilon(value):
    """Sets the fuzz factor :func:`epsilon` returns."""
    global _epsilon
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ValueError(f"set_epsilon: expected a non-negative float; received {value!r}.")
    _epsilon = float(value)


def dtype_policy():
    """The global dtype policy (see :mod:`highlevel.mixed_precision`): what layers created without a ``dtype`` use."""
    from highlevel.mixed_precision import policy

    return policy.dtype_policy()


def set_dtype_policy(policy):
    """Sets the global dtype policy: a name (``"mixed_float16"``, ``"mixed_bfloat16"``, ``"float32"``, ...), a
    ``DTypePolicy``, or None for the default."""
    from highlevel.mixed_precision import policy as _policy

    _policy.set_dtype_policy(policy)


def enable_unsafe_deserialization():
    """Lets ``Lambda`` layers be rebuilt from configs that name functions outside highlevel, for the whole process.

    Only for files you trust: a config can then make highlevel import and run any module's function."""
    from highlevel.layers.core import lambda_layer

    lambda_layer.enable_unsafe_deserialization()


class _Flags:
    flash_attention = None  # None: use it where the engine has it and the inputs allow it
    interactive_logging = True
    traceback_filtering = True
    max_epochs = None
    max_steps_per_epoch = None
    check_numerics = False


_flags = _Flags()


def enable_flash_attention():
    """Lets ``dot_product_attention`` use a fused (flash) attention kernel where the engine has one."""
    _flags.flash_attention = True


def disable_flash_attention():
    """Makes ``dot_product_attention`` use its plain formula everywhere."""
    _flags.flash_attention = False


def is_flash_attention_enabled():
    """True or False when set with :func:`enable_flash_attention` / :func:`disable_flash_attention`; None (the
    default) when each call decides from the engine and its inputs."""
    return _flags.flash_attention


def enable_interactive_logging():
    """Progress is shown as a live bar (the default; plain lines where the output is not a terminal)."""
    _flags.interactive_logging = True


def disable_interactive_logging():
    """Progress is written as plain lines (no live bar), e.g. for logs read by other programs."""
    _flags.interactive_logging = False


def is_interactive_logging_enabled():
    """Whether progress may be shown as a live bar."""
    return _flags.interactive_logging


def enable_traceback_filtering():
    """Accepted for compatibility with Keras. highlevel's errors are raised in the front end, before an engine runs,
    so there are no framework frames to filter out of them."""
    _flags.traceback_filtering = True


def disable_traceback_filtering():
    """Accepted for compatibility with Keras (see :func:`enable_traceback_filtering`)."""
    _flags.traceback_filtering = False


def is_traceback_filtering_enabled():
    """The flag set by :func:`enable_traceback_filtering` / :func:`disable_traceback_filtering`."""
    return _flags.traceback_filtering


def is_nnx_enabled():
    """False: highlevel does not use Flax NNX (a JAX library Keras can integrate with)."""
    return False


def _cap(value, name):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer or None; received {value!r}.")
    return int(value)


def max_epochs():
    """The most epochs any ``fit`` runs, whatever its ``epochs`` argument (None: no cap)."""
    return _flags.max_epochs


def set_max_epochs(max_epochs):
    """Caps the epochs of every ``fit`` (handy to smoke-test a training script quickly); None removes the cap."""
    _flags.max_epochs = _cap(max_epochs, "max_epochs")


def max_steps_per_epoch():
    """The most training steps any ``fit`` epoch runs (None: no cap)."""
    return _flags.max_steps_per_epoch


def set_max_steps_per_epoch(max_steps_per_epoch):
    """Caps the steps of every ``fit`` epoch; None removes the cap."""
    _flags.max_steps_per_epoch = _cap(max_steps_per_epoch, "max_steps_per_epoch")


def enable_index_checks():
    """Makes compiled steps check class labels and indices too (they are always checked where their values are
    known: eager calls, ``compile(run_eagerly=True)``, and the numpy batches of ``fit``/``evaluate``).

    With it on, a label of a sparse loss or metric outside ``[0, num_classes)`` (its ``ignore_class`` apart) or
    an ``Embedding``/``take`` index out of range stops a compiled step before it updates a weight, with an
    :class:`~highlevel.index_range.IndexRangeError` (a ValueError and an IndexError) that names the argument,
    the received range and the valid one. It matters for tensors that reach the step already on a device, a
    ``tf.data`` pipeline, a custom ``train_step``, or indices computed inside the model. Cost: a minimum and a
    maximum per checked tensor and step, a wait for the device on JAX and GPUs, and on JAX the weights are
    not donated to the step (one extra copy of the state). Keras has no such switch: there, such a label gives
    NaN (JAX), a plausible loss (TensorFlow) or an engine error. Under TensorFlow's XLA
    (``jit_compile=True``) assertions are dropped and nothing is checked.

    >>> import highlevel as hl
    >>> hl.config.enable_index_checks()
    >>> hl.config.is_index_checks_enabled()
    True
    >>> hl.config.disable_index_checks()

    Returns:
        None.
    """
    from highlevel.backends.contract import index_checks

    index_checks.set_enabled(True)


def disable_index_checks():
    """Compiled steps check no labels or indices (the default; eager calls still do): see
    :func:`enable_index_checks`.

    Returns:
        None.

    >>> import highlevel as hl
    >>> hl.config.disable_index_checks()
    >>> hl.config.is_index_checks_enabled()
    False
    """
    from highlevel.backends.contract import index_checks

    index_checks.set_enabled(False)


def is_index_checks_enabled():
    """Whether compiled steps check class labels and indices (:func:`enable_index_checks`).

    Returns:
        True or False.

    >>> import highlevel as hl
    >>> hl.config.is_index_checks_enabled()
    False
    """
    from highlevel.backends.contract import index_checks

    return index_checks.enabled()


def check_numerics():
    """Whether ``fit``, ``evaluate`` and ``predict`` refuse batches holding NaN or infinity (see
    :func:`set_check_numerics`)."""
    return _flags.check_numerics


def set_check_numerics(enabled):
    """Turns on (True) or off (False, the default) the check of every batch's inputs, targets and sample weights
    for NaN and infinity.

    When on, ``fit``, ``evaluate``, ``predict`` and the ``*_on_batch`` methods look at each batch's numpy arrays
    before its step runs and raise a ValueError naming the array, the batch and how many values are not finite,
    so that no update is made from them. The cost is one pass over the batch on the host. Keras has no such
    switch (TensorFlow's ``tf.debugging.enable_check_numerics`` checks every op of the graph instead, and other
    engines have nothing): there, a NaN in the data silently turns the weights into NaN.

    >>> import highlevel as hl
    >>> hl.config.set_check_numerics(True)
    >>> hl.config.check_numerics()
    True
    >>> hl.config.set_check_numerics(False)
    """
    if not isinstance(enabled, bool):
        raise ValueError(f"set_check_numerics takes True or False; received {enabled!r}.")
    _flags.check_numerics = enabled
