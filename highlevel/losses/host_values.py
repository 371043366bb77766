"""Reading a tensor's values on the host when it has concrete values, for checks that only make sense then.

Inside ``jax.jit`` or ``tf.function`` a tensor is a placeholder: converting it to numpy fails. Checks of
data (labels in range, ...) therefore run only on concrete tensors, detected by *trying* the conversion —
never by asking which backend is active. Under tracing the check is skipped and the computation goes on
as the traced engine defines it. Where reading values waits for the device (``capabilities.host_reads_sync``:
the native engine on CuPy) nothing is read either: the checks are optional, a synchronisation per step is not.

>>> import highlevel as hl
>>> concrete_value(hl.ops.convert_to_tensor([1, 2])).tolist()
[1, 2]
"""


def concrete_value(x):
    """``x`` as a numpy array when its values are known now (eager), else ``None`` (traced, symbolic)."""
    from highlevel import ops
    from highlevel.config import current_backend
    from highlevel.keras_tensor import KerasTensor

    if isinstance(x, KerasTensor):
        return None
    if current_backend().capabilities.host_reads_sync:
        return None  # reading would wait for the device (a GPU): the optional check or shortcut is skipped
    try:
        return ops.convert_to_numpy(x)
    except Exception:  # tracers and graph tensors refuse conversion; each engine raises its own type
        return None
