"""``model.export(path, format="tf_saved_model")``: a TensorFlow SavedModel whose ``serve`` endpoint runs the model.

TensorFlow writes it from its own graph and JAX through ``jax2tf``; a model on another engine is rebuilt on one of
those from its config and weights, and exported from there.

>>> from highlevel.export.saved_model import FORMAT
>>> FORMAT
'tf_saved_model'
"""

from highlevel import config

from .engines import engines_writing, rebuild_on, require_engine
from .export_archive import ExportArchive
from .input_signature import standardize_signature

FORMAT = "tf_saved_model"


def export_saved_model(model, filepath, verbose=None, input_signature=None, **kwargs):
    """Writes ``model`` as a SavedModel directory at ``filepath``: ``tf.saved_model.load(filepath).serve(x)``
    predicts as ``model.predict(x)`` does, for any batch size (``None`` sizes of the signature stay free).

    Args:
        model: a built model.
        filepath: the directory to write.
        verbose: print where it went (default True).
        input_signature: the model's own input shapes with a free batch size when None; otherwise a list, one
            structure of ``hl.InputSpec`` (or ``tf.TensorSpec``, ``hl.Input``) per positional argument.
        **kwargs: passed to the engine (``jax2tf_kwargs``, ``is_static`` on JAX).

    Returns:
        ``filepath``.
    """
    backend = config.current_backend()
    if FORMAT not in backend.export_formats:
        engines = engines_writing(FORMAT)
        if not engines:
            require_engine(backend, FORMAT, "A TensorFlow SavedModel")
        model = rebuild_on(model, engines[0])
        with config.backend_scope(engines[0]):
            return export_saved_model(model, filepath, verbose=verbose, input_signature=input_signature, **kwargs)
    signature = standardize_signature(input_signature, model)
    archive = ExportArchive()
    archive.track(model)
    archive.add_endpoint("serve", lambda *args: model(*args, training=False), signature)
    archive.write_out(filepath, verbose=False, **kwargs)
    if verbose is None or verbose:
        print(f"Saved a TensorFlow SavedModel at '{filepath}' (endpoint: serve).")
    return filepath
