"""``highlevel.ops``: one numpy-like and neural-network op set with the same semantics on every engine.

Names and arguments follow ``keras.ops``; so do the namespaces: ``hl.ops.numpy``, ``hl.ops.nn``,
``hl.ops.linalg`` and ``hl.ops.image`` hold Keras's names of each family, and every name of the first three (and
the core and math ops) is also here, at the top. Each op is a plain function of one of those modules that
checks its arguments once and calls the current engine through the front door (:mod:`highlevel.ops._door`).

>>> import highlevel as hl
>>> x = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
>>> hl.ops.convert_to_numpy(hl.ops.sum(x, axis=0)).tolist()
[4.0, 6.0]
>>> hl.ops.dtype(hl.ops.softmax(x))
'float32'
>>> hl.ops.nn.softmax is hl.ops.softmax
True
"""

# Every public function of each namespace module, by its ``__all__`` (an editor, ``help()`` and static analysis
# read those lists; adding an op to a module's ``__all__`` is all it takes to export it here too).
from . import core, image, linalg, math, nn, numpy  # noqa: E402,F401  (the namespaces, as in keras.ops)
from .core import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .numpy import *  # noqa: F401,F403

__all__ = []
__all__ += core.__all__
__all__ += linalg.__all__
__all__ += math.__all__
__all__ += nn.__all__
__all__ += numpy.__all__
