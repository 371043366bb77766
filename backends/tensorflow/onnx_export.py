"""ONNX files from TensorFlow graphs: a ``tf.function`` with an open batch axis, converted by tf2onnx."""

import tensorflow as tf


class OnnxExportOps:
    """``export_onnx`` of the contract, through tf2onnx."""

    def export_onnx(self, model, fn, filepath, input_specs, opset_version):
        import tf2onnx

        signature = [tf.TensorSpec(shape, tf.as_dtype(dtype), name=name) for name, shape, dtype in input_specs]
        graph_fn = tf.function(lambda *xs: tuple(fn(*xs)), input_signature=signature, autograph=False)
        tf2onnx.convert.from_function(graph_fn, input_signature=signature, opset=opset_version, output_path=filepath)
