"""Serving artifacts (``keras.export``): :class:`ExportArchive` and the writers behind ``Model.export``.

One module per format: ``saved_model`` (TensorFlow SavedModel), ``onnx``, ``stablehlo`` (``jax.export``) and
``torch_export`` (``torch.export``); ``export_api.export_model`` picks one by name.

>>> import highlevel as hl
>>> hl.export.ExportArchive.__name__
'ExportArchive'
"""

from .export_api import FORMATS, export_model
from .export_archive import ExportArchive

__all__ = ["ExportArchive", "FORMATS", "export_model"]
