"""``predict``'s batch-size policy: a short batch is padded up to a bucket, so that compiled programs are reused.

Every engine compiles a step for each input shape it sees (``jax.jit``, ``tf.function``, the native and PyTorch
recordings) and keeps it. Predicting on inputs of many lengths would otherwise compile one program per
distinct last-batch size, each costing time and memory that is never given back. Instead, a batch of ``n``
rows smaller than the batch size is padded to ``min(batch_size, next power of two >= n)`` rows by repeating
its last row, and the padded rows are cut off the outputs. At most ``log2(batch_size) + 2`` programs exist
per batch size, whatever the lengths predicted. Keras compiles one program per shape.

Padding is used only where it cannot change a result: the default ``predict_step``, compiled steps (not
``run_eagerly``), no stateful layer, and all inputs numpy arrays with the same number of rows.

``evaluate`` cannot pad (padded rows would count in the loss and the metrics): it splits a short batch into
pieces of power-of-two sizes instead (23 rows: 16 + 4 + 2 + 1) and runs them one after the other as one batch
for the callbacks. The loss and the built-in metrics average over samples, so the result is the same (up to
float rounding); a custom metric that averages per batch rather than per sample would see more batches.

>>> import numpy as np
>>> bucket(5, 32), bucket(17, 32), bucket(32, 32), bucket(1, 32)
(8, 32, 32, 1)
>>> padded, rows = pad_batch((np.arange(3.0)[:, None],), 32)
>>> padded[0].ravel().tolist(), rows
([0.0, 1.0, 2.0, 2.0], 3)
>>> [len(piece[0]) for piece in split_batch((np.zeros((23, 2)), np.zeros(23)), 32)]
[16, 4, 2, 1]
"""

import numpy as np


def bucket(rows, batch_size):
    """The number of rows a batch of ``rows`` is padded to."""
    if rows >= batch_size:
        return rows
    return min(batch_size, 1 << max(0, int(rows - 1).bit_length()))


def _leaves(value, out):
    if isinstance(value, (list, tuple)):
        for v in value:
            if not _leaves(v, out):
                return False
        return True
    if isinstance(value, dict):
        return all(_leaves(value[k], out) for k in value)
    if value is None:
        return True
    if isinstance(value, np.ndarray) and value.ndim >= 1:
        out.append(value)
        return True
    return False


def _pad(value, target):
    if isinstance(value, (list, tuple)):
        return type(value)(_pad(v, target) for v in value)
    if isinstance(value, dict):
        return {k: _pad(v, target) for k, v in value.items()}
    if value is None:
        return None
    extra = target - value.shape[0]
    return np.concatenate([value, np.repeat(value[-1:], extra, axis=0)], axis=0)


def pad_batch(batch, batch_size):
    """``(padded batch, rows)`` with ``rows`` the true number of rows, or ``(batch, None)`` when the batch is
    full or cannot be padded (not all numpy arrays of one length)."""
    leaves = []
    if not _leaves(batch, leaves) or not leaves:
        return batch, None
    rows = leaves[0].shape[0]
    if rows == 0 or any(a.shape[0] != rows for a in leaves):
        return batch, None
    target = bucket(rows, batch_size)
    if target == rows:
        return batch, None
    return _pad(batch, target), rows


def cut(output, rows, padded):
    """``output``'s arrays without the padded rows (arrays whose first axis is not the batch are kept)."""
    if isinstance(output, (list, tuple)):
        return type(output)(cut(o, rows, padded) for o in output)
    if isinstance(output, dict):
        return {k: cut(v, rows, padded) for k, v in output.items()}
    if isinstance(output, np.ndarray) and output.ndim >= 1 and output.shape[0] == padded:
        return output[:rows]
    return output


def _slice(value, start, stop):
    if isinstance(value, (list, tuple)):
        return type(value)(_slice(v, start, stop) for v in value)
    if isinstance(value, dict):
        return {k: _slice(v, start, stop) for k, v in value.items()}
    if value is None:
        return None
    return value[start:stop]


def split_batch(batch, batch_size):
    """``batch`` as a list of batches whose sizes are powers of two (largest first) when it is shorter than
    ``batch_size``; ``[batch]`` when it is full or cannot be split (not all numpy arrays of one length)."""
    leaves = []
    if not _leaves(batch, leaves) or not leaves:
        return [batch]
    rows = leaves[0].shape[0]
    if rows == 0 or rows >= batch_size or any(a.shape[0] != rows for a in leaves):
        return [batch]
    pieces, start = [], 0
    for bit in reversed(range(rows.bit_length())):
        size = 1 << bit
        if rows & size:
            pieces.append(_slice(batch, start, start + size))
            start += size
    return pieces
