"""The random samplers of the JAX engine that the contract cannot compose: gamma, binomial and categorical,
on ``jax.random`` with the key of the contract seed (also a traced one, inside ``jax.jit``)."""

import jax
import jax.numpy as jnp

from highlevel.backends.contract.random import draw_dtype

from . import conversion as cv
from .core import _key


class JaxRandomOps:
    """Contract random samplers on ``jax.random``."""

    def random_gamma(self, shape, alpha, dtype, seed=None):
        work = cv.jdtype(draw_dtype(dtype))
        alpha = jnp.broadcast_to(jnp.asarray(cv.convert(alpha), work), shape)
        return jax.random.gamma(_key(seed), alpha, shape, work).astype(cv.jdtype(dtype))

    def random_binomial(self, shape, counts, probabilities, dtype, seed=None):
        work = cv.jdtype(draw_dtype(dtype))
        n = jnp.broadcast_to(jnp.asarray(cv.convert(counts), work), shape)
        p = jnp.broadcast_to(jnp.asarray(cv.convert(probabilities), work), shape)
        return jax.random.binomial(_key(seed), n, p, shape, work).astype(cv.jdtype(dtype))

    def random_categorical(self, logits, num_samples, dtype="int32", seed=None):
        logits = cv.convert(logits)
        logits = logits.astype(cv.jdtype(draw_dtype(str(logits.dtype))))
        draws = jax.random.categorical(_key(seed), logits, axis=-1, shape=(num_samples, logits.shape[0]))
        return jnp.transpose(draws).astype(cv.jdtype(dtype))
