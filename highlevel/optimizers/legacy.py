"""``highlevel.optimizers.legacy``: the names of Keras 2's legacy optimizers, kept so that old code fails
with a clear message instead of an ``AttributeError``. As in Keras 3, creating one raises ``ImportError``.

>>> import highlevel as hl
>>> try:
...     hl.optimizers.legacy.Adam(learning_rate=0.01)
... except ImportError as e:
...     print(str(e).split(". ")[1])
Use hl.optimizers.Adam instead: it takes the same main arguments (learning_rate, ...).
"""


def _retired(name):
    def __init__(self, *args, **kwargs):
        raise ImportError(
            f"hl.optimizers.legacy.{name} is a Keras 2 (tf.keras) optimizer, which Keras 3 and highlevel do not "
            f"have. Use hl.optimizers.{name} instead: it takes the same main arguments (learning_rate, ...)."
        )

    return type(name, (), {"__init__": __init__, "__doc__": f"Keras 2's legacy {name}: raises ImportError."})


Adagrad = _retired("Adagrad")
Adam = _retired("Adam")
Ftrl = _retired("Ftrl")
Optimizer = _retired("Optimizer")
RMSprop = _retired("RMSprop")
SGD = _retired("SGD")

__all__ = ["Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop", "SGD"]
