"""``highlevel.datasets``: small datasets shipped with the package.

>>> from highlevel import datasets
>>> datasets.digits.NUM_SAMPLES
1797
"""

from . import digits

__all__ = ["digits"]
