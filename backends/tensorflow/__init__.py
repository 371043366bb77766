"""The TensorFlow engine: ``highlevel.ops`` on ``tf.*`` ops, gradients by ``tf.GradientTape``.

The registry imports this package only when the ``"tensorflow"`` backend is first asked for, so importing
highlevel with another backend never imports TensorFlow. TensorFlow's C++ logging is quietened
(``TF_CPP_MIN_LOG_LEVEL=2`` unless the user set that variable already, and the lines its import writes to
stderr are dropped); ``HIGHLEVEL_FRAMEWORK_LOGS=1`` shows them again (see ``contract.framework_logs``).

>>> from highlevel.backends import get
>>> tf_backend = get("tensorflow")
>>> tf_backend.to_numpy(tf_backend.add([1.0, 2.0], 1.0)).tolist()
[2.0, 3.0]
"""

import os

from ..contract.framework_logs import framework_logs_wanted, quiet_native_stderr

# Must happen before the first `import tensorflow` anywhere in the process to take effect.
if not framework_logs_wanted():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

with quiet_native_stderr():  # the absl and oneDNN lines TensorFlow's import writes whatever the level
    from .backend import TensorFlowBackend

__all__ = ["TensorFlowBackend"]
