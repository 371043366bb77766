"""``get_source_inputs``: the inputs a symbolic tensor depends on, as Keras lists them."""

import highlevel as hl


def test_get_source_inputs_matches_keras(keras):
    for lib in (hl, keras):
        a, b, c = lib.Input((2,), name="a"), lib.Input((2,), name="b"), lib.Input((2,), name="c")
        shared = lib.layers.Dense(2)
        y = lib.layers.Add()([shared(b), shared(a)])
        z = lib.layers.Concatenate()([y, lib.layers.Dense(2)(a)])
        names = [[t.name for t in lib.utils.get_source_inputs(t)] for t in (z, y, a)]
        assert names == [["b", "a"], ["b", "a"], ["a"]]
        assert c.name == "c"


def test_non_symbolic_values_pass_through():
    assert hl.utils.get_source_inputs(3) == 3


def test_a_model_rebuilt_from_the_source_inputs_predicts_the_same(backend):
    a, b = hl.Input((2,), name="a"), hl.Input((2,), name="b")
    out = hl.layers.Dense(1)(hl.layers.Multiply()([a, b]))
    model = hl.Model(hl.utils.get_source_inputs(out), out)
    x = [hl.ops.ones((3, 2)), hl.ops.full((3, 2), 2.0)]
    full = hl.Model([a, b], out)
    assert hl.ops.convert_to_numpy(model(x)).tolist() == hl.ops.convert_to_numpy(full(x)).tolist()
