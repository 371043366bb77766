"""The errors of model building and use, with messages that name the layer and the shapes involved. Every
test runs on every backend.

Three tests here pin front-end gaps (see their docstrings): a model built from ``hl.Input`` does not check
the rank or the sizes of the data it is called on, and a single-input functional model silently stacks a
list of inputs.
"""

import numpy as np
import pytest

import highlevel as hl

L = hl.layers


def _ones(*shape):
    return np.ones(shape, "float32")


def test_wrong_last_dimension_names_layer_and_shapes(backend):
    # A model checks its data against its hl.Input first, as Keras 3 does (the model's input spec).
    model = hl.Sequential([hl.Input((3,)), L.Dense(4, name="d1"), L.Dense(2, name="d2")], name="seq")
    with pytest.raises(ValueError, match=r"model 'seq'.*expected shape \(None, 3\).*\(2, 5\)"):
        model(_ones(2, 5))
    x = hl.Input((3,))
    functional = hl.Model(x, L.Dense(2, name="fd")(x), name="fm")
    with pytest.raises(ValueError, match=r"model 'fm'.*expected shape \(None, 3\).*\(2, 4\)"):
        functional(_ones(2, 4))
    # A layer on its own names itself and the shapes.
    with pytest.raises(ValueError, match=r"layer 'd2'.*expected axis -1 of input shape to have value 4.*\(2, 5\)"):
        model.get_layer("d2")(_ones(2, 5))


def test_wrong_rank_names_layer_and_shapes(backend):
    model = hl.Sequential([hl.Input((3,)), L.Dense(4, name="d1")], name="seq1")
    with pytest.raises(ValueError, match=r"model 'seq1'.*expected shape \(None, 3\).*\(2,\)"):
        model(_ones(2))
    with pytest.raises(ValueError, match=r"layer 'd1'.*min_ndim=2, found ndim=1.*\(2,\)"):
        model.get_layer("d1")(_ones(2))
    flat = L.Dense(2, name="solo")
    flat(_ones(4, 3))
    with pytest.raises(ValueError, match=r"layer 'solo'.*min_ndim=2"):
        flat(_ones(3))
    with pytest.raises(ValueError, match=r"layer 'rv'.*expected ndim=2, found ndim=3.*\(2, 3, 4\)"):
        L.RepeatVector(2, name="rv")(_ones(2, 3, 4))


def test_model_input_rank_is_checked_against_hl_input(backend):
    """A model built from ``hl.Input((3,))`` must reject data of shape (2, 3, 3), as Keras does ("Invalid input
    shape for input ... Expected shape (None, 3), but input has incompatible shape (2, 3, 3)").

    Front-end gap: highlevel/models/functional.py ``Functional.call`` (lines ~175-185) converts the data but
    never compares its shape with the ``hl.Input`` shapes, and ``Sequential.call`` (sequential.py ~122) runs
    the layers directly; Dense accepts any rank >= 2, so the call silently returns a (2, 3, 4) result.
    """
    model = hl.Sequential([hl.Input((3,)), L.Dense(4, name="d1")], name="seq")
    with pytest.raises(ValueError, match=r"\(None, 3\).*\(2, 3, 3\)"):
        model(_ones(2, 3, 3))
    x = hl.Input((3,))
    functional = hl.Model(x, L.Dense(4)(x), name="fn")
    with pytest.raises(ValueError, match=r"\(None, 3\).*\(2, 3, 3\)"):
        functional(_ones(2, 3, 3))


def test_model_input_sizes_are_checked_against_hl_input(backend):
    """Inputs given in the wrong order (a (1, 1) array for an input of shape (None, 2)) must raise, as Keras'
    functional input spec does, instead of silently computing with swapped inputs.

    Front-end gap: highlevel/models/functional.py ``Functional.call`` (lines ~175-185) does not check each
    array against its ``hl.Input`` shape; with only a Concatenate after the inputs nothing else notices.
    """
    zeta, alpha = hl.Input((1,), name="zeta"), hl.Input((2,), name="alpha")
    model = hl.Model({"zeta": zeta, "alpha": alpha}, L.Concatenate()([zeta, alpha]), name="by_name")
    assert [t.name for t in model.inputs] == ["alpha", "zeta"]  # dict inputs are flattened in key order
    np.testing.assert_array_equal(
        hl.ops.convert_to_numpy(model({"zeta": np.zeros((1, 1), "float32"), "alpha": _ones(1, 2)})), [[0, 1, 1]]
    )
    with pytest.raises(ValueError, match=r"\(None, 2\).*\(1, 1\)"):
        model([np.zeros((1, 1), "float32"), _ones(1, 2)])


def test_single_input_model_rejects_a_list_of_inputs(backend):
    """Calling a one-input functional model with a list of two arrays must raise (Keras: 'expects 1 input(s)
    ..., but it received 2 input tensors').

    Front-end gap: highlevel/models/functional.py ``Functional._standardize_inputs`` (lines ~166-169) returns
    ``[inputs]`` for any list when the model has one input, so the two (2, 3) arrays are converted into one
    (2, 2, 3) tensor and Dense silently computes on it.
    """
    x = hl.Input((3,))
    model = hl.Model(x, L.Dense(2)(x), name="one_input")
    with pytest.raises(ValueError, match=r"one_input.*1 input.*2"):
        model([_ones(2, 3), _ones(2, 3)])


def test_wrong_number_of_inputs(backend):
    a, b = hl.Input((3,)), hl.Input((3,))
    model = hl.Model([a, b], L.Add()([a, b]), name="pair")
    with pytest.raises(ValueError, match=r"'pair' expects 2 inputs.*received 3"):
        model([_ones(1, 3)] * 3)


def test_summary_of_unbuilt_model(backend):
    model = hl.Sequential([L.Dense(2)], name="lazy")
    text = model.summary(return_string=True)  # Keras prints an unbuilt model's layers rather than raising
    assert 'Model: "lazy"' in text and "0 (unbuilt)" in text
    with pytest.raises(ValueError, match="has not been built yet"):
        model.count_params()


def test_graph_disconnected(backend):
    a, b = hl.Input((3,), name="a"), hl.Input((3,), name="b_missing")
    out = L.Dense(2)(L.Add()([a, b]))
    with pytest.raises(ValueError, match=r"Graph disconnected.*b_missing.*\(None, 3\).*\['a'\]"):
        hl.Model(a, out)
    with pytest.raises(TypeError, match="symbolic tensors"):
        hl.Model(a, _ones(1, 3))


def test_duplicate_layer_names(backend):
    x = hl.Input((3,))
    with pytest.raises(ValueError, match=r"'same' is used by more than one layer"):
        hl.Model(x, L.Dense(2, name="same")(L.Dense(3, name="same")(x)))
    with pytest.raises(ValueError, match=r"already has a layer named 'twin'"):
        hl.Sequential([L.Dense(2, name="twin"), L.Dense(2, name="twin")])
    model = hl.Sequential([L.Dense(2, name="one")])
    with pytest.raises(ValueError, match=r"already has a layer named 'one'"):
        model.add(L.Dense(3, name="one"))


def test_set_weights_wrong_shapes(backend):
    model = hl.Sequential([hl.Input((3,)), L.Dense(4, name="d1"), L.Dense(2, name="d2")], name="seq")
    weights = model.get_weights()
    bad = [np.ones((3, 5), "float32")] + weights[1:]
    with pytest.raises(ValueError, match=r"'d1/kernel' has shape \(3, 4\).*shape \(3, 5\)"):
        model.set_weights(bad)
    np.testing.assert_array_equal(model.get_weights()[0], weights[0])  # nothing was assigned
    with pytest.raises(ValueError, match=r"'seq' expects 4 weight arrays.*received 2"):
        model.set_weights(weights[:2])
    with pytest.raises(ValueError, match=r"Layer 'd2'.*'d2/bias' has shape \(2,\).*shape \(3,\)"):
        model.get_layer("d2").set_weights([weights[2], np.zeros(3, "float32")])


def test_bad_model_construction(backend):
    x = hl.Input((3,))
    with pytest.raises(ValueError, match="appears twice"):
        hl.Model([x, x], L.Dense(1)(x))

    class Sub(hl.Model):
        def call(self, x):
            return x

    with pytest.raises(TypeError, match="takes both inputs and outputs.*subclassed model"):
        Sub(x)
    with pytest.raises(ValueError, match="InputLayer needs `shape`"):
        hl.Input()
