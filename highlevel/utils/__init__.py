"""``highlevel.utils``: helpers for users.

>>> import highlevel as hl
>>> hl.utils.set_random_seed(0)
"""

from highlevel.random.host import set_host_seed
from highlevel.random.seed_generator import reset_global_seed_generator
from highlevel.utils.file_utils import get_file


def __getattr__(name):
    # PyDataset lives with the trainer's data adapters: importing it loads the trainer, so it loads on first use.
    if name == "PyDataset":
        from highlevel.trainers.data_adapters.py_dataset import PyDataset

        globals()["PyDataset"] = PyDataset
        return PyDataset
    raise AttributeError(f"module 'highlevel.utils' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"PyDataset"})


def clear_session():
    """Restarts automatic layer naming ("dense", "dense_1", ...) and restores the default dtype policy, as
    ``keras.utils.clear_session`` does."""
    from highlevel.mixed_precision.policy import set_dtype_policy
    from highlevel.naming import reset_names

    reset_names()
    set_dtype_policy(None)


def set_random_seed(seed):
    """Seeds everything highlevel draws: the host stream (initial weights, shuffling) and the global
    seed generator of ``highlevel.random``. Python's ``random`` and numpy's global generator are
    seeded too, for user code that relies on them."""
    import random

    import numpy as np

    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"set_random_seed expects a non-negative int; received {seed!r}.")
    set_host_seed(seed)
    reset_global_seed_generator()
    random.seed(seed)
    np.random.seed(seed % 2**32)


__all__ = ["PyDataset", "clear_session", "get_file", "set_random_seed"]
