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
    """Returns the backend object that ops run on now.

    The same backend as :func:`backend` names; library code calls its contract methods.

    Returns:
        The current :class:`~highlevel.backends.Backend` instance.

    >>> import highlevel as hl
    >>> with hl.config.backend_scope("native"):
    ...     hl.config.current_backend().name
    'native'
    """
    b = _scoped.get()
    if b is not None:
        return b
    global _global
    if _global is None:
        _global = _from_environment()
    return _global


def backend():
    """Returns the name of the backend that ops run on now.

    Inside a :func:`backend_scope` block, the block's backend; otherwise the process's, chosen with :func:`set_backend`
    or the ``HIGHLEVEL_BACKEND`` environment variable (default ``"native"``).

    Returns:
        A str: ``"native"``, ``"jax"``, ``"torch"`` or ``"tensorflow"``.

    >>> import highlevel as hl
    >>> with hl.config.backend_scope("native"):
    ...     hl.config.backend()
    'native'
    """
    return current_backend().name


def set_backend(backend):
    """Makes a backend the one of this process (outside any :func:`backend_scope`).

    The names are ``"native"``, ``"jax"``, ``"torch"`` and ``"tensorflow"`` (and any registered third-party
    backend); ``"tf"``, ``"pytorch"``, ``"np"`` and ``"numpy"`` are accepted for the built-in ones, as is any case.
    ``HIGHLEVEL_BACKEND`` takes the same names.

    Unlike Keras, no module is reloaded: layers and models made afterwards run on the new backend, and those made
    before keep the variables of the backend they were built on.

    Args:
        backend: a backend name such as ``"jax"``, ``"torch"``, ``"tensorflow"`` or ``"native"`` (or an alias).

    Returns:
        None.

    Raises:
        ValueError: for an unknown backend or one whose framework is not installed; the message suggests the
            closest known name for a typo, lists the installed backends and the pip extra that adds the missing one.
        RuntimeError: for another engine while ``fit``, ``evaluate`` or ``predict`` run in other threads (their
            operations run on the process-wide backend); ``backend_scope`` is per thread and always allowed.

    >>> import highlevel as hl
    >>> before = hl.config.backend()
    >>> hl.config.set_backend("native"); hl.config.backend()
    'native'
    >>> hl.config.set_backend(before)
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
    """Runs a block of code on another backend, and restores the previous one afterwards.

    A context manager: inside ``with backend_scope("jax"):``, ops, layers and variables created in the block use
    that backend. Scopes nest, and each thread and task has its own.

    Args:
        name: a backend name (``"native"``, ``"jax"``, ``"torch"``, ``"tensorflow"``) or a backend instance.

    Returns:
        A context manager that yields the backend instance.

    Raises:
        ValueError: an unknown backend, or one whose framework is not installed.

    >>> import highlevel as hl
    >>> with hl.config.backend_scope("native") as engine:
    ...     engine.name, hl.config.backend()
    ('native', 'native')
    """
    token = _scoped.set(registry.get(name) if isinstance(name, str) else name)
    try:
        yield current_backend()
    finally:
        _scoped.reset(token)


def floatx():
    """Returns the default float dtype.

    Python floats, initializers and layers without a ``dtype`` use it; change it with :func:`set_floatx`.

    Returns:
        A dtype name, ``"float32"`` unless changed.

    >>> import highlevel as hl
    >>> hl.config.floatx()
    'float32'
    """
    return _dtypes.floatx()


def set_floatx(value):
    """Sets the default float dtype for every backend.

    Args:
        value: ``"float16"``, ``"bfloat16"``, ``"float32"`` or ``"float64"``.

    Returns:
        None.

    >>> import highlevel as hl
    >>> hl.config.set_floatx("float64"); hl.config.floatx()
    'float64'
    >>> hl.config.set_floatx("float32")
    """
    _dtypes.set_floatx(value)


def available_backends():
    """Lists the backends (engines) whose framework is installed.

    ``native`` is always there; ``jax``, ``torch`` and ``tensorflow`` appear when their package imports.

    Returns:
        A list of backend names, ``"native"`` first.

    >>> import highlevel as hl
    >>> "native" in hl.config.available_backends()
    True
    """
    return registry.installed()


_IMAGE_DATA_FORMATS = ("channels_last", "channels_first")
_image_data_format = "channels_last"
_epsilon = 1e-7


def image_data_format():
    """Returns the default layout of image tensors.

    Used wherever a ``data_format`` argument is None (convolutions, pooling, image layers and ops).

    Returns:
        ``"channels_last"`` (``(batch, height, width, channels)``, the default) or ``"channels_first"``.

    >>> import highlevel as hl
    >>> hl.config.image_data_format()
    'channels_last'
    """
    return _image_data_format


def standardize_data_format(data_format, op=None):
    """Checks a ``data_format`` argument and returns it in its standard spelling.

    The one check of a ``data_format`` argument: the ops (``hl.ops``) and the layers call it, and the engines
    receive its result.

    Args:
        data_format: ``"channels_last"``, ``"channels_first"`` (any case), or None for :func:`image_data_format`.
        op: the name of the op or layer, used in the error message.

    Returns:
        ``"channels_last"`` or ``"channels_first"``.

    Raises:
        ValueError: ``data_format`` is neither layout.

    >>> import highlevel as hl
    >>> hl.config.standardize_data_format("Channels_First"), hl.config.standardize_data_format(None)
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
    """Sets the default image layout for the process.

    Args:
        data_format: ``"channels_last"`` or ``"channels_first"`` (case does not matter).

    Returns:
        None.

    Raises:
        ValueError: ``data_format`` is neither layout.

    >>> import highlevel as hl
    >>> hl.config.set_image_data_format("channels_first"); hl.config.image_data_format()
    'channels_first'
    >>> hl.config.set_image_data_format("channels_last")
    """
    global _image_data_format
    value = str(data_format).lower() if isinstance(data_format, str) else data_format
    if value not in _IMAGE_DATA_FORMATS:
        raise ValueError(
            f"set_image_data_format: expected one of {list(_IMAGE_DATA_FORMATS)}; received data_format={data_format!r}."
        )
    _image_data_format = value


def epsilon():
    """Returns the fuzz factor added to denominators by losses, metrics and layers that ask for it.

    It keeps divisions and logarithms finite; change it with :func:`set_epsilon`.

    Returns:
        A float, ``1e-7`` unless changed.

    >>> import highlevel as hl
    >>> hl.config.epsilon()
    1e-07
    """
    return _epsilon


def set_epsilon(value):
    """Sets the fuzz factor that :func:`epsilon` returns.

    Args:
        value: a non-negative float.

    Returns:
        None.

    Raises:
        ValueError: ``value`` is not a non-negative number.

    >>> import highlevel as hl
    >>> hl.config.set_epsilon(1e-5); hl.config.epsilon()
    1e-05
    >>> hl.config.set_epsilon(1e-7)
    """
    global _epsilon
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ValueError(f"set_epsilon: expected a non-negative float; received {value!r}.")
    _epsilon = float(value)


def dtype_policy():
    """Returns the global dtype policy: what layers created without a ``dtype`` use.

    See :mod:`highlevel.mixed_precision` and :func:`set_dtype_policy`.

    Returns:
        A :class:`~highlevel.mixed_precision.DTypePolicy` (``float32`` unless changed).

    >>> import highlevel as hl
    >>> hl.config.dtype_policy().name
    'float32'
    """
    from highlevel.mixed_precision import policy

    return policy.dtype_policy()


def set_dtype_policy(policy):
    """Sets the global dtype policy, which layers created afterwards without a ``dtype`` use.

    ``"mixed_float16"`` and ``"mixed_bfloat16"`` keep float32 weights and compute in half precision.

    Args:
        policy: a name (``"mixed_float16"``, ``"mixed_bfloat16"``, ``"float32"``, ...), a
            :class:`~highlevel.mixed_precision.DTypePolicy`, or None for the default (``floatx``).

    Returns:
        None.

    Raises:
        ValueError: ``policy`` names no dtype or policy.

    >>> import highlevel as hl
    >>> hl.config.set_dtype_policy("mixed_bfloat16")
    >>> layer = hl.layers.Dense(2)
    >>> layer.dtype_policy.compute_dtype, layer.dtype_policy.variable_dtype
    ('bfloat16', 'float32')
    >>> hl.config.set_dtype_policy(None)
    """
    from highlevel.mixed_precision import policy as _policy

    _policy.set_dtype_policy(policy)


def enable_unsafe_deserialization():
    """Lets ``Lambda`` layers be rebuilt from configs that name functions outside highlevel, for the whole process.

    Only for files you trust: a config can then make highlevel import and run any module's function.
    ``hl.models.load_model(..., safe_mode=False)`` allows it for one load only.

    Returns:
        None.

    >>> import highlevel as hl
    >>> callable(hl.config.enable_unsafe_deserialization)
    True
    """
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
    """Lets ``dot_product_attention`` use a fused (flash) attention kernel where the engine has one.

    The results agree with the plain formula up to rounding. :func:`disable_flash_attention` turns it off.

    Returns:
        None.

    >>> import highlevel as hl
    >>> hl.config.enable_flash_attention(); hl.config.is_flash_attention_enabled()
    True
    >>> hl.config.disable_flash_attention()
    """
    _flags.flash_attention = True


def disable_flash_attention():
    """Makes ``dot_product_attention`` use its plain formula everywhere.

    Returns:
        None.

    >>> import highlevel as hl
    >>> hl.config.disable_flash_attention(); hl.config.is_flash_attention_enabled()
    False
    """
    _flags.flash_attention = False


def is_flash_attention_enabled():
    """Tells whether ``dot_product_attention`` may use a fused (flash) attention kernel.

    True or False once set with :func:`enable_flash_attention` / :func:`disable_flash_attention`.

    Returns:
        True, False, or None (the default) when each call decides from the engine and its inputs.

    >>> import highlevel as hl
    >>> hl.config.disable_flash_attention(); hl.config.is_flash_attention_enabled()
    False
    """
    return _flags.flash_attention


def enable_interactive_logging():
    """Progress is shown as a live bar (the default; plain lines where the output is not a terminal).

    Returns:
        None.

    >>> import highlevel as hl
    >>> hl.utils.enable_interactive_logging()
    >>> hl.utils.is_interactive_logging_enabled()
    True
    """
    _flags.interactive_logging = True


def disable_interactive_logging():
    """Progress is written as plain lines (no live bar), e.g. for logs read by other programs.

    Returns:
        None.

    >>> import highlevel as hl
    >>> hl.utils.disable_interactive_logging()
    >>> hl.utils.is_interactive_logging_enabled()
    False
    >>> hl.utils.enable_interactive_logging()
    """
    _flags.interactive_logging = False


def is_interactive_logging_enabled():
    """Whether progress may be shown as a live bar.

    Returns:
        A bool: True unless :func:`disable_interactive_logging` was called last.

    >>> import highlevel as hl
    >>> hl.utils.is_interactive_logging_enabled()
    True
    """
    return _flags.interactive_logging


def enable_traceback_filtering():
    """Turns traceback filtering on; accepted for compatibility with Keras.

    highlevel's errors are raised in the front end, before an engine runs, so there are no framework frames to filter
    out of them; the flag is only recorded.

    Returns:
        None.

    >>> import highlevel as hl
    >>> hl.config.enable_traceback_filtering(); hl.config.is_traceback_filtering_enabled()
    True
    """
    _flags.traceback_filtering = True


def disable_traceback_filtering():
    """Turns traceback filtering off; accepted for compatibility with Keras.

    See :func:`enable_traceback_filtering`.

    Returns:
        None.

    >>> import highlevel as hl
    >>> hl.config.disable_traceback_filtering(); hl.config.is_traceback_filtering_enabled()
    False
    >>> hl.config.enable_traceback_filtering()
    """
    _flags.traceback_filtering = False


def is_traceback_filtering_enabled():
    """Returns the flag set by :func:`enable_traceback_filtering` / :func:`disable_traceback_filtering`.

    Returns:
        A bool.

    >>> import highlevel as hl
    >>> hl.config.is_traceback_filtering_enabled()
    True
    """
    return _flags.traceback_filtering


def is_nnx_enabled():
    """Tells whether Flax NNX is used; always False here.

    Keras can integrate with Flax NNX (a JAX library); highlevel does not, so the answer never changes.

    Returns:
        False.

    >>> import highlevel as hl
    >>> hl.config.is_nnx_enabled()
    False
    """
    return False


def _cap(value, name):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer or None; received {value!r}.")
    return int(value)


def max_epochs():
    """Returns the cap on the epochs of every ``fit``, whatever its ``epochs`` argument.

    Set it with :func:`set_max_epochs`.

    Returns:
        An int, or None when there is no cap (the default).

    >>> import highlevel as hl
    >>> print(hl.config.max_epochs())
    None
    """
    return _flags.max_epochs


def set_max_epochs(max_epochs):
    """Caps the epochs of every ``fit``, whatever its ``epochs`` argument.

    Handy to smoke-test a training script quickly without editing it.

    Args:
        max_epochs: a positive int, or None to remove the cap.

    Returns:
        None.

    Raises:
        ValueError: ``max_epochs`` is not a positive int or None.

    >>> import highlevel as hl
    >>> hl.config.set_max_epochs(1); hl.config.max_epochs()
    1
    >>> hl.config.set_max_epochs(None)
    """
    _flags.max_epochs = _cap(max_epochs, "max_epochs")


def max_steps_per_epoch():
    """Returns the cap on the training steps of every ``fit`` epoch.

    Set it with :func:`set_max_steps_per_epoch`.

    Returns:
        An int, or None when there is no cap (the default).

    >>> import highlevel as hl
    >>> print(hl.config.max_steps_per_epoch())
    None
    """
    return _flags.max_steps_per_epoch


def set_max_steps_per_epoch(max_steps_per_epoch):
    """Caps the training steps of every ``fit`` epoch.

    Args:
        max_steps_per_epoch: a positive int, or None to remove the cap.

    Returns:
        None.

    Raises:
        ValueError: ``max_steps_per_epoch`` is not a positive int or None.

    >>> import highlevel as hl
    >>> hl.config.set_max_steps_per_epoch(2); hl.config.max_steps_per_epoch()
    2
    >>> hl.config.set_max_steps_per_epoch(None)
    """
    _flags.max_steps_per_epoch = _cap(max_steps_per_epoch, "max_steps_per_epoch")


def enable_index_checks():
    """Makes compiled steps check class labels and indices too (they are always checked where their values are
    known: eager calls, ``compile(run_eagerly=True)``, and the numpy batches of ``fit``/``evaluate``; in eager code
    on a GPU too, at the cost of one wait for the device per checked tensor).

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
    """Tells whether ``fit``, ``evaluate`` and ``predict`` refuse batches holding NaN or infinity.

    See :func:`set_check_numerics`.

    Returns:
        A bool, False unless turned on.

    >>> import highlevel as hl
    >>> hl.config.check_numerics()
    False
    """
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

    Args:
        enabled: True to check every batch, False (the default) not to.

    Returns:
        None.

    Raises:
        ValueError: ``enabled`` is not a bool.

    Args:
        enabled: True to check every batch, False (the default) not to.

    Returns:
        None.

    Raises:
        ValueError: ``enabled`` is not a bool.
    """
    if not isinstance(enabled, bool):
        raise ValueError(f"set_check_numerics takes True or False; received {enabled!r}.")
    _flags.check_numerics = enabled
