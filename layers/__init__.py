"""``highlevel.layers``: the layer library, built only from ``highlevel.ops`` (Keras 3 names).

>>> import highlevel as hl
>>> hl.layers.Layer is hl.layers.base.Layer
True
"""

from highlevel import layer as base
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer
from highlevel.models.input_layer import Input, InputLayer

from .activations import *  # noqa: F401,F403
from .attention import *  # noqa: F401,F403
from .convolutional import *  # noqa: F401,F403
from .core import *  # noqa: F401,F403
from .merging import *  # noqa: F401,F403
from .normalization import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .preprocessing import *  # noqa: F401,F403
from .regularization import *  # noqa: F401,F403
from .reshaping import *  # noqa: F401,F403
from .rnn import *  # noqa: F401,F403
from .serialization import deserialize, serialize
