"""Reading a tensor's values on the host when it has concrete values, for checks that only make sense then.

Inside ``jax.jit`` or ``tf.function`` a tensor is a placeholder: converting it to numpy fails. Checks of
data (labels in range, ...) therefore run only on concrete tensors, detected by *trying* the conversion —
never by asking which backend is active. Under tracing the check is skipped and the computation goes on
as the traced engine defines it. Where reading values waits for the device (``capabilities.host_reads_sync``:
the native engine on CuPy) the optional shortcuts read nothing (a synchronisation per step is not worth them),
while the data checks (``wait=True``: label and index ranges) still read in eager code: a wrong label costs a
silent wrong answer, a check one wait for the device. Compiled steps never read here (see ``hl.config``'s
``enable_index_checks`` for checks inside them).

>>> import highlevel as hl
>>> concrete_value(hl.ops.convert_to_tensor([1, 2])).tolist()
[1, 2]
"""


def concrete_value(x, wait=False):
    """``x`` as a numpy array when its values are known now (eager), else ``None`` (traced, symbolic).

    ``wait=True`` reads even where reading waits for the device (a check of the data, not a shortcut)."""
    from highlevel import ops
    from highlevel.config import current_backend
    from highlevel.keras_tensor import KerasTensor

    if isinstance(x, KerasTensor):
        return None
    if not wait and current_backend().capabilities.host_reads_sync:
        return None  # reading would wait for the device (a GPU): the optional shortcut is skipped
    try:
        return ops.convert_to_numpy(x)
    except Exception:  # tracers and graph tensors refuse conversion; each engine raises its own type
        return None
