"""The base class of every initializer: ``initializer(shape, dtype) -> tensor``.

>>> from highlevel.initializers import Initializer
>>> class Fives(Initializer):
...     def __call__(self, shape, dtype=None):
...         import highlevel as hl
...         return hl.ops.full(shape, 5.0, dtype=dtype)
>>> import highlevel as hl
>>> hl.ops.convert_to_numpy(Fives()((2,))).tolist()
[5.0, 5.0]
"""


class Initializer:
    """Initializer base class (``keras.initializers.Initializer``).

    A subclass implements ``__call__(shape, dtype=None)`` returning a tensor of that shape and dtype, and
    ``get_config()`` when its constructor takes arguments, so that ``from_config(get_config())``
    rebuilds an equal initializer.

    >>> import highlevel as hl
    >>> class Halves(hl.initializers.Initializer):
    ...     def __call__(self, shape, dtype=None):
    ...         return hl.ops.full(shape, 0.5, dtype=dtype)
    >>> layer = hl.layers.Dense(2, kernel_initializer=Halves())
    >>> _ = layer(hl.ops.ones((1, 3)))
    >>> hl.ops.convert_to_numpy(layer.kernel).tolist()
    [[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]
    """

    def __call__(self, shape, dtype=None):
        """Returns a tensor of ``shape`` and ``dtype`` (default floatx) with the initial values."""
        raise TypeError(
            f"{type(self).__name__} subclasses Initializer but does not define __call__(shape, dtype=None); "
            "define it to return the initial values."
        )

    def get_config(self):
        """The constructor arguments as a JSON-serializable dict."""
        return {}

    @classmethod
    def from_config(cls, config):
        """Builds an initializer from the output of :meth:`get_config`."""
        return cls(**config)

    def clone(self):
        """A new initializer with the same configuration."""
        return self.__class__.from_config(self.get_config())

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"
