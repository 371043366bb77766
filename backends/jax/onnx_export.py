"""ONNX files from JAX, through jax2onnx (a maintained converter that lowers the jaxpr of a function to ONNX).

The model's inference function is traced with its weights read as constants and every open axis symbolic, so the
file runs on any batch size. jax2onnx maps most of ``jax.lax``; where it lacks a mapping (a window reduction over
all four axes of an image, for instance), it raises or writes a file onnxruntime refuses, and the front end then
writes the file another way (:mod:`highlevel.export.onnx`).

>>> JaxOnnxExportOps.onnx_opset_floor
18
"""

import contextlib
import logging
import warnings

from highlevel.backends.contract import StatelessScope
from highlevel.backends.contract import dtypes as cdt

from .export import ShapeSpecLike, polymorphic_shape


@contextlib.contextmanager
def _quiet_converter():
    """jax2onnx logs a warning for each of its optional plugins whose library is absent or older than it expects
    (dm-pix's, flax's...): noise for a model that uses none of them."""
    logger = logging.getLogger("jax2onnx")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            # and it reaches for names that this JAX has deprecated: the converter's business, not the user's
            warnings.simplefilter("ignore", DeprecationWarning)
            yield
    finally:
        logger.setLevel(level)


class JaxOnnxExportOps:
    """``export_onnx`` of the contract, through ``jax2onnx.to_onnx``."""

    #: jax2onnx writes reductions with their axes as an input, which ONNX has from opset 18 on.
    onnx_opset_floor = 18

    def export_onnx(self, model, fn, filepath, input_specs, opset_version):
        import jax
        from jax import export

        if opset_version < self.onnx_opset_floor:
            raise ValueError(
                f"opset_version={opset_version}: the JAX converter (jax2onnx) writes opset {self.onnx_opset_floor} "
                f"or newer. Pass opset_version={self.onnx_opset_floor} (or more), or export from another backend."
            )
        with _quiet_converter():
            from jax2onnx import to_onnx

        scope = export.SymbolicScope()
        structs = [
            jax.ShapeDtypeStruct(
                export.symbolic_shape(polymorphic_shape(ShapeSpecLike(shape, dtype), i), scope=scope),
                cdt.standardize_dtype(dtype),
            )
            for i, (_, shape, dtype) in enumerate(input_specs)
        ]
        variables = list(getattr(model, "variables", []))
        values = [(v, v.value) for v in variables]

        def pure(*xs):
            # The weights are read as they are now, and written into the file as constants.
            with StatelessScope(values):
                return tuple(fn(*xs))

        with _quiet_converter():
            n_out = len(jax.eval_shape(pure, *structs))
            proto = to_onnx(
                pure,
                structs,
                model_name=getattr(model, "name", None) or "model",
                opset=int(opset_version),
                input_names=[name for name, _, _ in input_specs],
                output_names=[f"output_{i}" for i in range(n_out)],
            )
        import onnx

        onnx.save(proto, filepath)
