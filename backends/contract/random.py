"""The backend contract, random part: draws from the gamma, beta, binomial and categorical distributions.

Two samplers are primitives, because no fixed-size composition of uniform draws is exact for them:
:meth:`RandomContract.random_gamma` and :meth:`RandomContract.random_binomial` (each engine has its own:
``jax.random``, ``torch._standard_gamma`` / ``torch.binomial``, ``tf.random.stateless_*``, numpy's
``Generator``). The other two are generic, written on the contract's own methods:

* :meth:`RandomContract.random_beta` from two gammas, ``X / (X + Y)``, computed in log space
  (``gamma(a) = gamma(a + 1) * U ** (1 / a)``) so that small parameters, whose gamma draws underflow, still
  give finite values;
* :meth:`RandomContract.random_categorical` by the Gumbel-max trick: ``argmax(logits + G)`` with ``G`` standard
  Gumbel noise is a draw from ``softmax(logits)``.

Arguments arrive in canonical form (``highlevel.random`` checks them once): ``shape`` a tuple of ints,
``dtype`` a dtype name, the distribution parameters tensors of a float dtype (the one the draw is made in),
broadcastable to ``shape``; ``seed`` a ``(seed, counter)`` pair as for the core random ops.
:meth:`RandomContract.derive_seed` turns one seed into the seeds of independent streams, also when the seed is
a traced tensor (a ``SeedGenerator``'s state inside a compiled step).

>>> import highlevel as hl
>>> b = hl.config.current_backend()
>>> x = b.random_beta((4,), b.convert_to_tensor(2.0), b.convert_to_tensor(3.0), "float32", seed=(1, 0))
>>> bool(((b.to_numpy(x) > 0) & (b.to_numpy(x) < 1)).all())
True
"""

import abc

import numpy as np

_MASK32 = 0xFFFFFFFF
_STREAM_STRIDE = 2**28  # counters of derived streams lie this far apart: a SeedGenerator never gets there


def _as_int32(value):
    """A uint32 value as the int32 with the same bits."""
    value &= _MASK32
    return value - 2**32 if value >= 2**31 else value


def draw_dtype(dtype):
    """The dtype a float draw is made in: float64 stays, narrower floats draw in float32."""
    return "float64" if dtype == "float64" else "float32"


class RandomContract(abc.ABC):
    """Seeded draws from the gamma, beta, binomial and categorical distributions."""

    def derive_seed(self, seed, stream):
        """The seed of independent stream ``stream`` (a small positive int) derived from ``seed``.

        The counter half of the pair is moved by ``stream * 2**28``, with tensors' own arithmetic when the seed
        is a tensor, so the derivation also works on a traced seed."""
        if seed is None:
            return None
        offset = stream * _STREAM_STRIDE
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            seed = (int(seed), 0)
        if isinstance(seed, (tuple, list)) and all(isinstance(v, (int, np.integer)) for v in seed):
            if len(seed) != 2:
                raise ValueError(f"A seed must be a pair (seed, counter); received {seed!r}.")
            return int(seed[0]), (int(seed[1]) + offset) & _MASK32
        value = getattr(seed, "value", seed)  # a Variable's current value
        value = self.convert_to_tensor(value)
        step = self.convert_to_tensor(np.asarray([0, _as_int32(offset)], dtype="int64"), self.dtype(value))
        return self.add(value, step)

    @abc.abstractmethod
    def random_gamma(self, shape, alpha, dtype, seed=None):
        """Draws of ``shape`` from the gamma distribution of shape ``alpha`` (a float tensor broadcastable to
        ``shape``) and scale 1, returned as ``dtype`` (a float dtype)."""

    @abc.abstractmethod
    def random_binomial(self, shape, counts, probabilities, dtype, seed=None):
        """Draws of ``shape`` from the binomial distribution: the number of successes in ``counts`` trials of
        probability ``probabilities`` (float tensors broadcastable to ``shape``), returned as ``dtype`` (a float
        or integer dtype)."""

    def random_beta(self, shape, alpha, beta, dtype, seed=None):
        """Draws of ``shape`` from the beta distribution with parameters ``alpha`` and ``beta`` (float tensors
        broadcastable to ``shape``), returned as ``dtype``.

        ``X / (X + Y)`` for ``X ~ gamma(alpha)``, ``Y ~ gamma(beta)``, as ``sigmoid(log X - log Y)`` with
        ``log X = log gamma(alpha + 1) + log(U) / alpha``: exact in distribution, and finite where a direct gamma
        draw of a small ``alpha`` would underflow to 0 (and ``0 / 0`` give NaN)."""
        work = draw_dtype(dtype)
        alpha = self.broadcast_to(self.cast(self.convert_to_tensor(alpha), work), shape)
        beta = self.broadcast_to(self.cast(self.convert_to_tensor(beta), work), shape)
        tiny = float(np.finfo(work).tiny)

        def log_gamma_draw(a, first_stream):
            one = self.convert_to_tensor(1.0, work)
            g = self.random_gamma(shape, self.add(a, one), work, seed=self.derive_seed(seed, first_stream))
            u = self.random_uniform(
                shape, minval=tiny, maxval=1.0, dtype=work, seed=self.derive_seed(seed, first_stream + 1)
            )
            return self.add(self.log(g), self.divide(self.log(u), a))

        log_x = log_gamma_draw(alpha, 1)
        log_y = log_gamma_draw(beta, 3)
        return self.cast(self.sigmoid(self.subtract(log_x, log_y)), dtype)

    def random_categorical(self, logits, num_samples, dtype="int32", seed=None):
        """``num_samples`` class indices per row of ``logits`` (``(batch, num_classes)``, unnormalized log
        probabilities), as a ``(batch, num_samples)`` tensor of ``dtype``.

        The Gumbel-max trick: ``argmax(logits + G)`` over the classes, ``G = -log(-log(U))`` standard Gumbel
        noise, is a draw from ``softmax(logits)``; one noise row per sample."""
        logits = self.convert_to_tensor(logits)
        work = draw_dtype(self.dtype(logits))
        logits = self.cast(logits, work)
        batch, classes = self.shape(logits)
        u = self.random_uniform(
            (batch, num_samples, classes), minval=float(np.finfo(work).tiny), maxval=1.0, dtype=work, seed=seed
        )
        gumbel = self.negative(self.log(self.negative(self.log(u))))
        scores = self.add(self.expand_dims(logits, 1), gumbel)
        return self.cast(self.argmax(scores, axis=-1), dtype)


__all__ = ["RandomContract", "draw_dtype"]
