"""Einsum equations of MultiHeadAttention: the projections and the attention products (Keras' layout, so
that Keras weights load as they are)."""

import string


def projection_equation(free_dims, bound_dims, output_dims):
    """``(equation, bias_axes, output_rank)`` of a projection EinsumDense.

    The input has ``free_dims`` kept axes then ``bound_dims`` contracted ones; the kernel maps the contracted
    axes to ``output_dims`` new axes, which also carry the bias. E.g. ``(2, 1, 2)`` gives
    ``("abc,cde->abde", "de", 4)``: (batch, T, dim) -> (batch, T, heads, head_dim).
    """
    letters = string.ascii_lowercase
    free = letters[:free_dims]
    bound = letters[free_dims : free_dims + bound_dims]
    out = letters[free_dims + bound_dims : free_dims + bound_dims + output_dims]
    return f"{free}{bound},{bound}{out}->{free}{out}", out, len(free) + len(out)


def partial_output_shape(output_rank, known_last_dims):
    """The EinsumDense ``output_shape`` (no batch axis): unknown sizes, then ``known_last_dims``."""
    return [None] * (output_rank - 1 - len(known_last_dims)) + list(known_last_dims)


def normalize_attention_axes(attention_axes, rank):
    """The attention axes of the projected tensors (rank ``rank``: ``(batch, ..., heads, head_dim)``) as a
    tuple of non-negative ints; None means every axis between the batch and the heads."""
    if attention_axes is None:
        return tuple(range(1, rank - 2))
    # Keras counts negative axes from the end of the *unprojected* input (rank - 1).
    return tuple(a if a >= 0 else (rank - 1) + a for a in attention_axes)


def attention_equations(rank, attn_axes):
    """``(dot_product_equation, combine_equation, scores_rank)`` for projected tensors of rank ``rank``.

    Scores are ``einsum(dot, key, query)`` of shape ``(<batch dims>, heads, <query attention dims>,
    <key attention dims>)``; the output is ``einsum(combine, scores, value)`` in the query's layout.
    """
    letters = string.ascii_lowercase
    target = letters[:rank]
    batch_dims = [i for i in range(rank) if i not in attn_axes and i != rank - 1]
    source, offset = "", rank
    for i in range(rank):
        if i in batch_dims or i == rank - 1:
            source += target[i]
        else:
            source += letters[offset]
            offset += 1
    product = "".join([target[i] for i in batch_dims] + [target[i] for i in attn_axes] + [source[i] for i in attn_axes])
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)
