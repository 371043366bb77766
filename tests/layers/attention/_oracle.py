"""Shared pieces of the attention tests: seeded data, masks that leave every row something to attend to,
and real Keras 3 (TensorFlow backend, in-process) as the oracle."""

import numpy as np

import highlevel as hl

ATOL = 1e-5


def data(*shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape).astype("float32")


def padding_mask(batch, steps, lengths):
    """``(batch, steps)`` bool mask: True for the first ``lengths[b]`` steps of each sample."""
    return np.arange(steps)[None, :] < np.asarray(lengths)[:, None]


def random_attention_mask(batch, t, s, seed=0):
    """A random ``(batch, t, s)`` bool mask whose every row has at least one True (its first column)."""
    m = np.random.default_rng(seed).random((batch, t, s)) < 0.6
    m[:, :, 0] = True
    return m


def to_numpy(x):
    if isinstance(x, (list, tuple)):
        return [to_numpy(v) for v in x]
    return np.asarray(hl.ops.convert_to_numpy(x))


def keras():
    import keras as k

    return k


def assert_close(ours, theirs, what, atol=ATOL):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.shape == theirs.shape, f"{what}: shape {ours.shape}, Keras {theirs.shape}"
    np.testing.assert_allclose(ours, theirs, atol=atol, rtol=atol, err_msg=what)
