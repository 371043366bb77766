"""The orthogonal initializer: a random orthogonal matrix from the QR decomposition of a normal one.

>>> import numpy as np, highlevel as hl
>>> q = hl.ops.convert_to_numpy(Orthogonal(seed=1)((4, 4))).astype("float64")
>>> bool(np.allclose(q.T @ q, np.eye(4), atol=1e-5))
True
"""

import numpy as np

from .host_values import to_tensor
from .random_initializers import RandomInitializer


class Orthogonal(RandomInitializer):
    """An orthogonal matrix times ``gain``, computed on the host as Keras computes it.

    The shape is flattened to ``(prod(shape[:-1]), shape[-1])``; the QR decomposition of a standard
    normal matrix of the taller orientation gives Q, whose columns are multiplied by the signs of R's
    diagonal (so the result is uniformly distributed); Q is transposed back when there are fewer rows
    than columns. Rows (or columns, whichever are fewer) are then orthonormal.

    Args:
        gain: the multiplicative factor.
        seed: None, an int or a ``SeedGenerator`` (see ``RandomInitializer``).

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_numpy(hl.initializers.Orthogonal(seed=0)((3, 3)))
    >>> bool(np.allclose(w @ w.T, np.eye(3), atol=1e-5))
    True
    """

    def __init__(self, gain=1.0, seed=None):
        self.gain = gain
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        shape, dtype, rng = self._draw(shape, dtype)
        if len(shape) < 2:
            raise ValueError(
                f"The Orthogonal initializer needs a shape of rank >= 2; received shape={shape} of rank {len(shape)}."
            )
        num_rows = int(np.prod(shape[:-1]))
        num_cols = shape[-1]
        flat_shape = (max(num_rows, num_cols), min(num_rows, num_cols))
        q, r = np.linalg.qr(rng.standard_normal(flat_shape))
        q = q * np.sign(np.diag(r))
        if num_rows < num_cols:
            q = q.T
        return to_tensor(self.gain * q.reshape(shape), dtype)

    def get_config(self):
        return {"gain": self.gain, **super().get_config()}
