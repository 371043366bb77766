"""Serving artifacts from PyTorch: a ``torch.export`` program (``.pt2``) with dynamic sizes where the signature
says ``None``.

>>> sample_shape((None, 3))
(7, 3)
"""

import torch

#: the size a free dimension has in the sample inputs the program is traced with: neither 0 nor 1 (which
#: torch.export would specialize to constants) and unlikely to equal a fixed size of the model
SAMPLE_SIZE = 7


def sample_shape(shape):
    """The shape of a sample input for ``shape``, its ``None`` sizes set to :data:`SAMPLE_SIZE`."""
    return tuple(SAMPLE_SIZE if d is None else int(d) for d in shape)


class _Program(torch.nn.Module):
    """The module ``torch.export`` traces: ``fn`` with the variables it reads as parameters and buffers."""

    def __init__(self, fn, handles):
        super().__init__()
        self._fn = fn
        for i, handle in enumerate(handles):
            if isinstance(handle, torch.nn.Parameter):
                self.register_parameter(f"variable_{i}", handle)
            elif isinstance(handle, torch.Tensor):
                self.register_buffer(f"variable_{i}", handle)

    def forward(self, *args):
        return self._fn(*args)


class TorchExportOps:
    export_formats = {"torch": "graph", "onnx": "graph"}

    def export_torch_program(self, filepath, fn, signature, variables, options):
        options = dict(options)
        is_spec = lambda s: hasattr(s, "shape") and hasattr(s, "dtype") and not isinstance(s, torch.Tensor)  # noqa: E731
        samples = torch.utils._pytree.tree_map(
            lambda s: torch.rand(sample_shape(s.shape)).to(getattr(torch, s.dtype)) if is_spec(s) else s,
            list(signature),
            is_leaf=is_spec,
        )
        dynamic = options.get("dynamic_shapes")
        if dynamic is None:
            dynamic = torch.utils._pytree.tree_map(
                lambda s: {axis: torch.export.Dim.AUTO for axis, d in enumerate(s.shape) if d is None} or None,
                list(signature),
                is_leaf=is_spec,
            )
        elif isinstance(dynamic, dict):  # one argument's, as a single-input model is given it
            dynamic = [dynamic]
        # forward(*args): torch.export sees one argument, the tuple of the signature's arguments
        options["dynamic_shapes"] = (tuple(dynamic),)
        program_module = _Program(fn, [v._handle for v in variables])
        with torch.no_grad():
            program = torch.export.export(program_module, tuple(samples), **options)
        torch.export.save(program, filepath)
