"""Operand order of a two-operand einsum on TensorFlow: the order its output needs no transpose in.

TensorFlow runs a two-operand einsum as one batched matrix product whose result holds the batch indices, then
the first operand's free indices, then the second's; when the requested output lists the second operand's
free indices first, a transpose of the whole result follows. For attention scores written key-first
(``"aecd,abcd->acbe"``: key, query -> batch, heads, query, key; MultiHeadAttention's Keras layout) that
transpose of the ``(batch, heads, T, T)`` scores cost more than the product itself: about 6 of 8 ms per call
at batch 32, 4 heads, sequence 128 on one CPU thread. The product does not depend on the operand order, so
:func:`transpose_free_order` puts the operand whose free indices come first in the output first.

>>> transpose_free_order("aecd,abcd->acbe")
('abcd,aecd->acbe', True)
>>> transpose_free_order("abcd,aecd->acbe")
('abcd,aecd->acbe', False)
"""


def transpose_free_order(subscripts):
    """``(subscripts, swapped)``: ``subscripts`` with its two operands exchanged where the output lists the
    second operand's free indices (those the first lacks) before the first operand's, else as given.

    Only explicit two-operand forms are touched (``"ab,bc->ac"``); an ellipsis, an implicit output, or
    one operand's indices all shared with the other leave the subscripts as they are.
    """
    text = subscripts.replace(" ", "")
    if "->" not in text or "." in text:
        return subscripts, False
    lhs, out = text.split("->")
    parts = lhs.split(",")
    if len(parts) != 2:
        return subscripts, False
    a, b = parts
    free_a = [out.index(c) for c in a if c not in b and c in out]
    free_b = [out.index(c) for c in b if c not in a and c in out]
    if free_a and free_b and min(free_b) < min(free_a):
        return f"{b},{a}->{out}", True
    return subscripts, False
