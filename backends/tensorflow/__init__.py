"""The TensorFlow engine: ``highlevel.ops`` on ``tf.*`` ops, gradients by ``tf.GradientTape``.

The registry imports this package only when the ``"tensorflow"`` backend is first asked for, so importing
highlevel with another backend never imports TensorFlow. TensorFlow's C++ logging is quietened
(``TF_CPP_MIN_LOG_LEVEL=2``) unless the user set that variable already.

>>> from highlevel.backends import get
>>> tf_backend = get("tensorflow")
>>> tf_backend.to_numpy(tf_backend.add([1.0, 2.0], 1.0)).tolist()
[2.0, 3.0]
"""

import os

# Must happen before the first `import tensorflow` anywhere in the process to take effect.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from .backend import TensorFlowBackend  # noqa: E402

__all__ = ["TensorFlowBackend"]
