"""Seeds for the backends' own generators: a state that advances with every draw.

The state is a Variable (``[seed, counter]``, int32), so a compiled training step can carry it and
dropout masks differ from step to step.

>>> import highlevel as hl
>>> g = hl.random.SeedGenerator(5)
>>> a = hl.random.uniform((3,), seed=g); b = hl.random.uniform((3,), seed=g)
>>> bool((hl.ops.convert_to_numpy(a) != hl.ops.convert_to_numpy(b)).any())
True
"""

from highlevel import pipeline
from highlevel.backends.contract import Variable
from highlevel.config import current_backend

from . import host

_MAX = 2**31 - 1


class SeedGenerator:
    """A stream of seeds for ``highlevel.random`` ops (``keras.random.SeedGenerator``).

    Args:
        seed: an int; None draws one from the host stream (so ``set_random_seed`` fixes it too).

        name: a name for the generator's state variable.

    Raises:
        ValueError: ``seed`` is not an int in ``[0, 2**31 - 1]``.

    >>> import highlevel as hl
    >>> gen = hl.random.SeedGenerator(42)
    >>> a = hl.random.uniform((2,), seed=gen)
    >>> b = hl.random.uniform((2,), seed=gen)
    >>> bool((hl.ops.convert_to_numpy(a) != hl.ops.convert_to_numpy(b)).any())
    True
    >>> again = hl.random.SeedGenerator(42)
    >>> bool((hl.ops.convert_to_numpy(hl.random.uniform((2,), seed=again)) == hl.ops.convert_to_numpy(a)).all())
    True
    """

    def __init__(self, seed=None, name=None):
        config_seed = seed
        if seed is None:
            seed = int(host.host_rng().integers(0, _MAX))
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MAX:
            raise ValueError(f"SeedGenerator seed must be an int in [0, 2**31 - 1]; received seed={seed!r}.")
        self._config_seed = config_seed
        self.initial_seed = seed
        self.name = name or "seed_generator"
        backend = current_backend()
        # Inside a pipeline being traced (tf.data), the state is created outside the graph, so that it persists.
        self.state = backend.outside_pipeline(
            lambda: Variable(
                [seed, 0], dtype="int32", trainable=False, name=name or "seed_generator_state", backend=backend
            )
        )
        self._pipeline_states = {}

    def get_config(self):
        """``{"seed": ..., "name": ...}``: the arguments that rebuild the generator (a None seed stays None)."""
        return {"seed": self._config_seed, "name": self.name}

    @classmethod
    def from_config(cls, config):
        """A generator built from :meth:`get_config`'s dictionary."""
        return cls(**config)

    def next(self, ordered=True):
        """Returns the current ``[seed, counter]`` tensor and advances the counter.

        ``ordered`` is accepted for compatibility with Keras (whose unordered mode hashes the state instead of
        counting); the counter always advances by one here."""
        state = self._state()
        b = state.backend
        # A copy: on engines whose variables are live tensors, the read value would follow the assign.
        value = b.copy(state.value)
        state.assign(b.add(value, b.convert_to_tensor([0, 1], "int32")))
        return value

    def _state(self):
        """The state to draw from: the generator's own, or, inside another engine's data pipeline
        (``highlevel.pipeline``), a state of that engine starting from the current seed and counter, so that each
        run of the pipeline (each element or batch of a ``tf.data`` map) draws anew, reproducibly."""
        engine = pipeline.pipeline_engine()
        if engine is None or engine is self.state.backend:
            return self.state
        state = self._pipeline_states.get(engine.name)
        if state is None:
            start = self.state.backend.to_numpy(self.state.value)
            state = engine.outside_pipeline(
                lambda: Variable(
                    start, dtype="int32", trainable=False, name=f"{self.name}_pipeline_state", backend=engine
                )
            )
            self._pipeline_states[engine.name] = state
        return state


_global_generator = None


def global_seed_generator():
    global _global_generator
    if _global_generator is None or (
        _global_generator.state.backend is not current_backend() and pipeline.pipeline_engine() is None
    ):
        _global_generator = SeedGenerator()
    return _global_generator


def reset_global_seed_generator():
    global _global_generator
    _global_generator = None


def draw_seed(seed):
    """Turns a user's ``seed`` argument into the ``(seed, counter)`` pair that the engines take.

    Random ops call it on their ``seed`` argument; a custom random op can call it too.

    Args:
        seed: an int (the same int gives the same values on every engine), a
            :class:`~highlevel.random.SeedGenerator` (each call draws the next seed from it), or None (default: the
            global generator, fixed by ``hl.utils.set_random_seed``).

    Returns:
        A pair ``(seed, counter)``: the int itself and 0 for an int seed; for a generator, its seed and
        current counter (scalar tensors; the generator then advances).

    Raises:
        ValueError: an int seed outside ``[0, 2**31 - 1]``.
        TypeError: ``seed`` is neither an int, a generator nor None.

    >>> import highlevel as hl
    >>> hl.random.draw_seed(7)
    (7, 0)
    >>> seed, counter = hl.random.draw_seed(hl.random.SeedGenerator(3))
    >>> int(hl.ops.convert_to_numpy(seed)), int(hl.ops.convert_to_numpy(counter))
    (3, 0)
    """
    if seed is None:
        return global_seed_generator().next()
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if isinstance(seed, int) and not isinstance(seed, bool):
        if not 0 <= seed <= _MAX:
            raise ValueError(f"seed must be an int in [0, 2**31 - 1]; received seed={seed}.")
        return (seed, 0)
    raise TypeError(
        f"seed must be an int, a highlevel.random.SeedGenerator or None; received {type(seed).__name__}: {seed!r}."
    )
