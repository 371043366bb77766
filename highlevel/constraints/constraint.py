"""The base class of every constraint: a projection ``constraint(w) -> w'`` applied after each update.

>>> import highlevel as hl
>>> hl.ops.convert_to_numpy(Constraint()(hl.ops.convert_to_tensor([1.0, -1.0]))).tolist()
[1.0, -1.0]
"""


class Constraint:
    """Constraint base class (``keras.constraints.Constraint``): the identity projection.

    A subclass implements ``__call__(w)`` returning the projected weight (same shape), and
    ``get_config()`` when its constructor takes arguments.

    >>> import highlevel as hl
    >>> class NonNegative(hl.constraints.Constraint):
    ...     def __call__(self, w):
    ...         return hl.ops.maximum(w, 0.0)
    >>> w = NonNegative()(hl.ops.convert_to_tensor([-1.0, 2.0]))
    >>> hl.ops.convert_to_numpy(w).tolist()
    [0.0, 2.0]
    """

    def __call__(self, w):
        """Returns ``w`` projected onto the constraint set; the base class returns it unchanged."""
        return w

    def get_config(self):
        """The constructor arguments as a JSON-serializable dict."""
        return {}

    @classmethod
    def from_config(cls, config):
        """Builds a constraint from the output of :meth:`get_config`."""
        return cls(**config)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"
