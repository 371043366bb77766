"""The shape of one line of the layer conformance table, and the input generators the lines use.

:mod:`tests.conformance.test_layers` holds the core layers' cases; each further layer family lists its own in
``layer_cases_<family>.py`` (a module-level ``CASES`` list of :class:`LayerCase`), which the test collects.
"""

import dataclasses

import highlevel as hl


# ------------------------------------------------------------------------------------------- inputs
def normal(*shape):
    return lambda rng: rng.normal(size=shape)


def positive(*shape):
    return lambda rng: rng.uniform(0.5, 3.0, size=shape)


def ints(*shape, high=5):
    return lambda rng: rng.integers(0, high, size=shape).astype("int32")


def with_zero_steps(*shape):
    """Normal data of (batch, steps, features) with some time steps all zero (for Masking)."""

    def draw(rng):
        x = rng.normal(size=shape)
        x[:, 1] = 0.0
        x[0, -1] = 0.0
        return x

    return draw


# -------------------------------------------------------------------------------------------- cases
@dataclasses.dataclass
class LayerCase:
    """One layer configuration of the conformance table.

    Attributes:
        id: the test id.
        cls: the class name in ``hl.layers``.
        kwargs: constructor arguments (or a callable returning them, for non-literal ones).
        inputs: input generators; a list means the layer takes a list of inputs.
        like: the op of the tolerance table whose numerics the layer resembles.
        modes: the ``training`` values compared across backends.
        random: the layer draws random numbers in training mode (compared in inference only).
        build: an optional ``(dtype) -> layer`` replacing ``cls(**kwargs, dtype=dtype)``.
    """

    id: str
    cls: str
    kwargs: dict = dataclasses.field(default_factory=dict)
    inputs: object = None
    like: str = "add"
    modes: tuple = (False,)
    random: bool = False
    build: object = None

    @property
    def multi(self):
        return isinstance(self.inputs, list)

    def make(self, dtype):
        if self.build is not None:
            return self.build(dtype)
        kwargs = self.kwargs() if callable(self.kwargs) else dict(self.kwargs)
        return getattr(hl.layers, self.cls)(dtype=dtype, **kwargs)
