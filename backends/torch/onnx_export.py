"""ONNX files from PyTorch's own exporter: the model is traced through ``torch.onnx.export``."""

import warnings

import torch

from highlevel.backends.contract import dtypes as cdt


class _Traced(torch.nn.Module):
    """The module ``torch.onnx`` traces: the model's parameters, and a forward that calls the export function."""

    def __init__(self, model, fn):
        super().__init__()
        self.model = model if isinstance(model, torch.nn.Module) else None
        self._fn = fn

    def forward(self, *inputs):
        return tuple(self._fn(*inputs))


class TorchOnnxExportMixin:
    """``export_onnx`` of the contract, with ``torch.onnx.export`` (the tracing exporter: it runs the model's Python
    once on example tensors, so any layer written on ``hl.ops`` exports)."""

    def export_onnx(self, model, fn, filepath, input_specs, opset_version):
        # Two rows, not one: a tracer may specialize a size-1 axis to a constant.
        examples = tuple(
            torch.zeros(tuple(2 if d is None else d for d in shape), dtype=getattr(torch, cdt.standardize_dtype(dt)))
            for _, shape, dt in input_specs
        )
        names = [name for name, _, _ in input_specs]
        with torch.no_grad():
            n_out = len(tuple(fn(*examples)))
        outputs = [f"output_{i}" for i in range(n_out)]
        dynamic = {name: {i: "batch" for i, d in enumerate(shape) if d is None} for name, shape, _ in input_specs}
        dynamic.update({name: {0: "batch"} for name in outputs})
        with torch.no_grad(), warnings.catch_warnings():
            # The tracer warns about each shape it reads as a Python number; the batch axis is declared dynamic
            # below, and the layers read no other size that depends on the batch.
            warnings.simplefilter("ignore")
            torch.onnx.export(
                _Traced(model, fn),
                examples,
                filepath,
                input_names=names,
                output_names=outputs,
                dynamic_axes=dynamic,
                opset_version=opset_version,
                dynamo=False,
            )
