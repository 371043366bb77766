"""The host-side image resize of the dataset builders, value for value against ``tf.image.resize``."""

import numpy as np
import pytest

from highlevel.utils.image_resize import INTERPOLATIONS, resize_image

tf = pytest.importorskip("tensorflow")
IMAGE = np.random.default_rng(0).integers(0, 256, (7, 9, 3)).astype("float32")


@pytest.mark.parametrize("interpolation", INTERPOLATIONS)
@pytest.mark.parametrize("size", [(5, 6), (11, 13), (7, 4), (3, 20), (1, 1)])
def test_matches_tensorflow(interpolation, size):
    ours = resize_image(IMAGE, size, interpolation)
    theirs = tf.image.resize(IMAGE, size, method=interpolation).numpy()
    assert ours.dtype == np.float32 and ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, atol=3e-4)


def test_same_size_is_unchanged_and_bad_method_is_refused():
    assert resize_image(IMAGE, (7, 9), "area") is not None
    np.testing.assert_array_equal(resize_image(IMAGE, (7, 9), "gaussian"), IMAGE)
    with pytest.raises(ValueError, match="interpolation"):
        resize_image(IMAGE, (3, 3), "cubic")
