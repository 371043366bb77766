"""``hl.tree`` against ``keras.tree`` (the oracle) on the same structures, and its own edge cases."""

import collections

import pytest

import highlevel as hl

NT = collections.namedtuple("NT", "x y")

STRUCTURES = [
    1,
    None,
    [],
    {},
    [1, None, 2],
    (1, (2, 3)),
    {"b": [1, (2, 3)], "a": None},
    collections.OrderedDict([("b", 1), ("a", 2)]),
    NT(1, [2, {"k": 3}]),
    collections.deque([1, [2]]),
    [{"z": 1, "y": (2, [3])}, NT((4,), 5)],
]


@pytest.fixture(scope="module")
def keras_tree():
    keras = pytest.importorskip("keras")
    return keras.tree


@pytest.mark.parametrize("s", STRUCTURES, ids=repr)
def test_flatten_paths_map_and_pack_match_keras(keras_tree, s):
    assert hl.tree.flatten(s) == keras_tree.flatten(s)
    assert hl.tree.flatten_with_path(s) == keras_tree.flatten_with_path(s)
    assert hl.tree.is_nested(s) == keras_tree.is_nested(s)
    mapped = hl.tree.map_structure(lambda v: None if v is None else v * 10, s)
    assert mapped == keras_tree.map_structure(lambda v: None if v is None else v * 10, s)
    assert type(mapped) is type(s)
    leaves = list(range(len(hl.tree.flatten(s))))
    assert hl.tree.pack_sequence_as(s, leaves) == keras_tree.pack_sequence_as(s, leaves)
    assert hl.tree.lists_to_tuples(s) == keras_tree.lists_to_tuples(s)


@pytest.mark.parametrize("top_down", [True, False])
def test_traverse_matches_keras(keras_tree, top_down):
    s = [(1, 2), [3], {"a": 4}]
    ours, theirs = [], []
    assert hl.tree.traverse(ours.append, s, top_down=top_down) == keras_tree.traverse(
        theirs.append, s, top_down=top_down
    )
    assert ours == theirs

    def cut(x):
        return hl.tree.MAP_TO_NONE if x == [3] else None

    def cut_k(x):
        return keras_tree.MAP_TO_NONE if x == [3] else None

    assert hl.tree.traverse(cut, s, top_down=top_down) == keras_tree.traverse(cut_k, s, top_down=top_down)


def test_structure_assertions(keras_tree):
    hl.tree.assert_same_structure([(0, 1)], [(2, 3)])
    hl.tree.assert_same_structure({"a": 1, "b": [2]}, collections.OrderedDict([("b", [5]), ("a", 6)]))
    for a, b in [([1, 2], (1, 2)), ([1, 2], [1, [2]]), ({"a": 1}, {"b": 1}), ([1], [1, 2])]:
        with pytest.raises(ValueError):
            keras_tree.assert_same_structure(a, b)
        with pytest.raises(ValueError, match="same nested structure"):
            hl.tree.assert_same_structure(a, b)
    hl.tree.assert_same_paths([1, 2], (3, 4))
    with pytest.raises(ValueError, match="same paths"):
        hl.tree.assert_same_paths({"a": 1}, {"b": 1})


def test_map_variants(keras_tree):
    assert hl.tree.map_structure(lambda a, b: a + b, [1, (2,)], [10, (20,)]) == [11, (22,)]
    assert hl.tree.map_structure(lambda a: a * 2, [1, None], none_is_leaf=False) == [2, None]
    with pytest.raises(ValueError):
        hl.tree.map_structure(lambda a, b: a, [1, 2], [1])
    assert hl.tree.map_structure_up_to([0, 0], len, [[1, 2], [3]]) == keras_tree.map_structure_up_to(
        [0, 0], len, [[1, 2], [3]]
    )
    shapes = {"a": (1, 2), "b": [(3,), (None, 4)]}
    assert hl.tree.map_shape_structure(len, shapes) == keras_tree.map_shape_structure(len, shapes)
    with pytest.raises(ValueError, match="leaves"):
        hl.tree.pack_sequence_as([0, 0], [1])
