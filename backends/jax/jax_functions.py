"""What a layer needs to run a function written for JAX (``JaxLayer``): pytrees, PRNG keys, abstract evaluation.

>>> spec = JaxFunctions.output_spec(lambda x: x.sum(axis=-1), [(None, 3)], ["float32"])
>>> spec
[((None,), 'float32')]
"""

import jax
import jax.numpy as jnp

from .conversion import dtype_name, jdtype


class JaxFunctions:
    """The JAX engine's answer to :meth:`CoreContract.jax_functions`."""

    @staticmethod
    def tree_map(fn, tree):
        return jax.tree_util.tree_map(fn, tree)

    @staticmethod
    def tree_leaves(tree):
        return jax.tree_util.tree_leaves(tree)

    @staticmethod
    def prng_key(seed):
        """A raw ``uint32[2]`` JAX key from a ``[seed, counter]`` tensor (as ``jax.random.PRNGKey`` makes)."""
        return jnp.asarray(seed).astype(jnp.uint32)

    @staticmethod
    def output_spec(fn, shapes, dtypes):
        """``fn(*inputs)``'s outputs as a flat list of ``(shape, dtype)``, for inputs of ``shapes`` and ``dtypes``.

        An unknown size (None) is tried as 2 and as 3: an output size that follows it is unknown too."""

        def evaluate(size):
            args = [
                jax.ShapeDtypeStruct(tuple(size if d is None else d for d in shape), jdtype(dtype))
                for shape, dtype in zip(shapes, dtypes)
            ]
            return jax.tree_util.tree_leaves(jax.eval_shape(fn, *args))

        first, second = evaluate(2), evaluate(3)
        return [
            (
                tuple(d if d == e else None for d, e in zip(a.shape, b.shape)),
                dtype_name(a),
            )
            for a, b in zip(first, second)
        ]
