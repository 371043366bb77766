"""Conformance lines of the categorical preprocessing layers that take numbers (CategoryEncoding,
Discretization, IntegerLookup, Hashing on integers). Their outputs are exact (bins, counts), so every backend
must agree with native bit for bit; there are no weights and integer inputs get no gradients.

StringLookup and TextVectorization take strings only (host numpy data, no tensor of any engine) and have
no line here: see the NOT_CASES note in the helper's report.
"""

import highlevel as hl

from .layer_case import LayerCase as L
from .layer_case import ints, normal


def _hashing(**kwargs):
    """Hashing's int mode returns int64 bins whatever the float dtype the table asks for."""
    return lambda dtype: hl.layers.Hashing(**kwargs)


def _int_output(make_layer, shape, input_dtype):
    """A layer whose output is integer ids, followed by a cast to the run's float dtype: the table's gradient
    test differentiates ``sum(output * cotangent)``, which JAX refuses for integer outputs. The ids are small
    integers, so the cast keeps the comparison exact."""

    def build(dtype):
        inp = hl.Input(batch_shape=shape, dtype=input_dtype)
        out = make_layer(dtype)(inp)
        return hl.Model(inp, hl.layers.Lambda(lambda t: hl.ops.cast(t, dtype))(out))

    return build


CASES = [
    L("category_encoding_multi_hot", "CategoryEncoding", {"num_tokens": 6}, ints(4, 5, high=6)),
    L("category_encoding_count", "CategoryEncoding", {"num_tokens": 5, "output_mode": "count"}, ints(3, 4)),
    L("category_encoding_one_hot", "CategoryEncoding", {"num_tokens": 5, "output_mode": "one_hot"}, ints(3, 4)),
    L(
        "discretization_int",
        "Discretization",
        inputs=normal(4, 5),
        build=_int_output(lambda d: hl.layers.Discretization([-1.0, 0.0, 0.5], dtype=d), (4, 5), "float32"),
    ),
    L("discretization_count", "Discretization", {"bin_boundaries": [-0.5, 0.5], "output_mode": "count"}, normal(3, 6)),
    L(
        "integer_lookup_int",
        "IntegerLookup",
        inputs=ints(3, 4, high=13),
        build=_int_output(lambda d: hl.layers.IntegerLookup(vocabulary=[3, 7, 11], num_oov_indices=2), (3, 4), "int32"),
    ),
    L("integer_lookup_multi_hot", "IntegerLookup", {"vocabulary": [0, 2, 4], "output_mode": "multi_hot"}, ints(4, 3)),
    L(
        "integer_lookup_tf_idf",
        "IntegerLookup",
        {"vocabulary": [1, 2, 3], "output_mode": "tf_idf", "idf_weights": [0.5, 1.0, 1.5]},
        ints(3, 5),
    ),
    L(
        "hashing_int",
        "Hashing",
        inputs=ints(3, 4, high=100),
        build=_int_output(lambda d: hl.layers.Hashing(num_bins=7), (3, 4), "int32"),
    ),
    L(
        "hashing_count_salted",
        "Hashing",
        inputs=ints(3, 4, high=100),
        build=_hashing(num_bins=5, salt=11, output_mode="count"),
    ),
]
