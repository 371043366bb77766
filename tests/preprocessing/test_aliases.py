"""``hl.preprocessing``: Keras 3's aliases of ``hl.utils`` data utilities, resolved on first access."""

import importlib

import numpy as np
import pytest

import highlevel as hl
from highlevel.preprocessing import _lazy

KERAS_NAMES = {
    "highlevel.preprocessing": [
        "image",
        "image_dataset_from_directory",
        "sequence",
        "text_dataset_from_directory",
        "timeseries_dataset_from_array",
    ],
    "highlevel.preprocessing.image": ["array_to_img", "img_to_array", "load_img", "save_img", "smart_resize"],
    "highlevel.preprocessing.sequence": ["pad_sequences"],
}


def _utils_definition(module_name, name):
    """What ``hl.utils`` (or its module) defines for ``name`` now, or None."""
    table = importlib.import_module(module_name)._NAMES
    try:
        return _lazy.resolve(table, name, module_name)
    except AttributeError:
        return None


@pytest.mark.parametrize("module_name", sorted(KERAS_NAMES))
def test_namespaces_list_keras_names(module_name):
    module = importlib.import_module(module_name)
    assert sorted(module.__all__) == KERAS_NAMES[module_name]
    assert set(KERAS_NAMES[module_name]) <= set(dir(module))


@pytest.mark.parametrize(
    "module_name,name", [(m, n) for m, names in KERAS_NAMES.items() for n in names if n not in ("image", "sequence")]
)
def test_each_alias_is_the_utils_function_or_says_where_it_would_come_from(module_name, name):
    module = importlib.import_module(module_name)
    target = _utils_definition(module_name, name)
    if target is not None:
        assert getattr(module, name) is target
    else:
        with pytest.raises(AttributeError, match=rf"has no attribute '{name}': it is an alias of highlevel\.utils"):
            getattr(module, name)


def test_alias_appears_once_utils_defines_it(monkeypatch):
    def fake_pad_sequences(sequences, maxlen=None):
        return np.asarray([s[-maxlen:] for s in sequences])

    sequence = hl.preprocessing.sequence
    monkeypatch.delitem(sequence.__dict__, "pad_sequences", raising=False)
    if _utils_definition("highlevel.preprocessing.sequence", "pad_sequences") is None:
        monkeypatch.setattr(hl.utils, "pad_sequences", fake_pad_sequences, raising=False)
    expected = _utils_definition("highlevel.preprocessing.sequence", "pad_sequences")
    from highlevel.preprocessing.sequence import pad_sequences

    assert pad_sequences is expected
    assert np.asarray(pad_sequences([[1, 2, 3], [4, 5, 6]], maxlen=2))[:, -2:].tolist() == [[2, 3], [5, 6]]
    monkeypatch.delitem(sequence.__dict__, "pad_sequences", raising=False)


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'not_a_name'"):
        hl.preprocessing.image.not_a_name  # noqa: B018 - the lookup itself must raise
    assert not hasattr(hl.preprocessing, "not_a_name")


def test_pad_sequences_through_the_alias_when_utils_has_it():
    if _utils_definition("highlevel.preprocessing.sequence", "pad_sequences") is None:
        pytest.skip("hl.utils.pad_sequences is not defined in this version")
    out = hl.preprocessing.sequence.pad_sequences([[1, 2, 3], [4]], maxlen=2)
    assert np.asarray(out).tolist() == [[2, 3], [0, 4]]


def test_image_round_trip_through_the_aliases_when_utils_has_them(tmp_path):
    image = hl.preprocessing.image
    if any(
        _utils_definition("highlevel.preprocessing.image", n) is None for n in ("save_img", "load_img", "img_to_array")
    ):
        pytest.skip("hl.utils' image helpers are not defined in this version")
    pytest.importorskip("PIL")
    pixels = (np.arange(4 * 5 * 3).reshape(4, 5, 3) * 4).astype("float32")
    path = str(tmp_path / "x.png")
    image.save_img(path, pixels, scale=False)
    back = image.img_to_array(image.load_img(path))
    np.testing.assert_array_equal(back, pixels)
    resized = image.smart_resize(pixels, (2, 2))
    assert tuple(np.shape(resized)) == (2, 2, 3)
