"""``model.export``'s one door: the format name picks the module that writes it.

>>> sorted(FORMATS)
['jax_export', 'onnx', 'stablehlo', 'tf_saved_model', 'torch']
"""

import importlib
import importlib.util

#: format -> (module, function); each function takes (model, filepath, verbose=, input_signature=, **kwargs)
FORMATS = {
    "tf_saved_model": ("highlevel.export.saved_model", "export_saved_model"),
    "onnx": ("highlevel.export.onnx", "export_onnx"),
    "torch": ("highlevel.export.torch_export", "export_torch"),
    "jax_export": ("highlevel.export.stablehlo", "export_stablehlo"),
    "stablehlo": ("highlevel.export.stablehlo", "export_stablehlo"),
}


def export_model(model, filepath, format="tf_saved_model", verbose=None, input_signature=None, **kwargs):
    """Exports ``model`` for serving as an artifact of ``format`` (what ``Model.export`` calls).

    Args:
        model: a built model.
        filepath: where to write it (a directory for ``"tf_saved_model"``, a file otherwise).
        format: ``"tf_saved_model"`` (TensorFlow SavedModel), ``"onnx"``, ``"torch"`` (a ``torch.export``
            program) or ``"jax_export"`` (a serialized ``jax.export`` program, StableHLO; also ``"stablehlo"``).
        verbose: print where the artifact went (default True).
        input_signature: the inputs' shapes and dtypes (``None`` sizes stay free); the model's own when None.
        **kwargs: options of the format's writer.

    Returns:
        ``filepath``.

    Raises:
        ValueError: an unknown format, or one the current engine cannot write (the message names those that can).

    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
    >>> hl.export.export_model(model, "model_dir", format="pickle")
    Traceback (most recent call last):
    ...
    ValueError: Unknown export format 'pickle'...
    """
    if format not in FORMATS:
        raise ValueError(
            f"Unknown export format {format!r}. Supported formats: {sorted(FORMATS)} ('stablehlo' is another name for "
            "'jax_export')."
        )
    module, name = FORMATS[format]
    try:
        writer = getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as err:
        if err.name != module:
            raise
        raise ValueError(
            f"The export format {format!r} is not available in this version of highlevel (its writer {module} is "
            f"missing). Available: {sorted(f for f, (m, _) in FORMATS.items() if importlib.util.find_spec(m))}."
        ) from err
    return writer(model, filepath, verbose=verbose, input_signature=input_signature, **kwargs)
