"""The ``weights=`` argument of every application: checked, then fetched and loaded.

``weights="imagenet"`` fetches the file Keras publishes for that model, under the same name, into the same cache
folder (``~/.keras/models``, or ``$KERAS_HOME/models``) and with the same hash check, through
:func:`highlevel.utils.get_file`: a file Keras already downloaded is used as it is. Those files are Keras 2 HDF5
files (by layer name), which ``Model.load_weights`` reads. A path loads that file instead.

>>> check_weights_arg(None, include_top=True, classes=10)
>>> check_weights_arg("imagenet", include_top=True, classes=10)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: With weights='imagenet' and include_top=True, classes must be 1000 ...
"""

import os

from highlevel.utils.file_utils import DownloadError, get_file


def check_weights_arg(weights, include_top, classes):
    """Checks ``weights`` (None, ``"imagenet"`` or an existing file) and ``classes`` against it.

    Raises:
        ValueError: ``weights`` is none of those, or ImageNet weights with the top and ``classes != 1000``.
    """
    if not (weights in (None, "imagenet") or (isinstance(weights, (str, os.PathLike)) and os.path.exists(weights))):
        raise ValueError(
            "weights must be None (random initialization), 'imagenet' (weights trained on ImageNet) or the path "
            f"of a weights file that exists; received weights={weights!r}."
        )
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError(
            "With weights='imagenet' and include_top=True, classes must be 1000 (the ImageNet classes); received "
            f"classes={classes}. Pass include_top=False to put your own classifier on top."
        )


def fetch(file_name, url, file_hash):
    """The local path of a published weights file, downloaded into the ``models`` cache folder if needed.

    Raises:
        DownloadError: the file is not cached and cannot be downloaded; the message names the URL and the exact
            path where the file can be put by hand.
    """
    try:
        return get_file(file_name, url, cache_subdir="models", file_hash=file_hash)
    except DownloadError as e:
        raise DownloadError(
            f"The ImageNet weights {file_name} are not in the cache and could not be downloaded. {e}"
        ) from None


def load(model, weights, imagenet_file=None):
    """Loads ``weights`` into ``model``: nothing for None; for ``"imagenet"``, ``imagenet_file`` =
    ``(file name, url, hash)`` fetched with :func:`fetch`; otherwise the file at the path ``weights``."""
    if weights is None:
        return model
    if weights == "imagenet":
        if imagenet_file is None:
            raise ValueError(f"{model.name} has no published ImageNet weights for these arguments.")
        weights = fetch(*imagenet_file)
    model.load_weights(weights)
    return model
