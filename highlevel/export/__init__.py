"""Export of models for serving, outside highlevel: ONNX files (:func:`export_onnx`)."""

from .onnx import export_onnx

__all__ = ["export_onnx"]
