"""Repeats a vector input n times along a new axis."""

from highlevel import ops
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer


class RepeatVector(Layer):
    """Repeats the input ``n`` times (``keras.layers.RepeatVector``): ``(batch, features)`` becomes
    ``(batch, n, features)``.

    Args:
        n: positive int, the repetition factor.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Raises:
        TypeError: if ``n`` is not an int.
        ValueError: if ``n`` is not positive.

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.layers.RepeatVector(3)(hl.ops.ones((2, 32))))
    (2, 3, 32)
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"Expected an integer value for `n`, got {type(n).__name__}: n={n!r}.")
        if n <= 0:
            raise ValueError(f"Argument `n` should be a positive integer. Received: n={n}")
        self.n = n
        self.input_spec = InputSpec(ndim=2)
        self.built = True

    def call(self, inputs):
        return ops.repeat(ops.expand_dims(inputs, 1), self.n, axis=1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.n, input_shape[1])

    def get_config(self):
        config = super().get_config()
        config["n"] = self.n
        return config
