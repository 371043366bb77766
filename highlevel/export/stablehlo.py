"""``model.export(path, format="jax_export")``: a serialized ``jax.export`` program (StableHLO), on JAX.

The file holds the model's computation with its weights as constants; ``None`` sizes of the signature (the batch
first) are symbolic. Run it with ``jax.export.deserialize(open(path, "rb").read()).call(x)``. ``"stablehlo"`` is
accepted as another name for the format.

>>> from highlevel.export.stablehlo import FORMAT
>>> FORMAT
'jax_export'
"""

from highlevel import config

from .engines import require_engine
from .input_signature import standardize_signature

FORMAT = "jax_export"


def export_stablehlo(model, filepath, verbose=None, input_signature=None, **kwargs):
    """Writes ``model`` as a serialized ``jax.export`` program at ``filepath``.

    Args:
        model: a built model, on the jax backend.
        filepath: the file to write.
        verbose: print where it went (default True).
        input_signature: as for :func:`~highlevel.export.saved_model.export_saved_model`.
        **kwargs: passed to the engine (``platforms``: the platforms the program runs on).

    Returns:
        ``filepath``.

    Raises:
        ValueError: on an engine that does not write ``jax.export`` programs (the message names those that do).
    """
    backend = config.current_backend()
    require_engine(backend, FORMAT, "A jax.export program (StableHLO)")
    signature = standardize_signature(input_signature, model)
    backend.export_stablehlo(str(filepath), lambda *args: model(*args, training=False), signature, kwargs)
    if verbose is None or verbose:
        print(f"Saved a jax.export program (StableHLO) at '{filepath}'.")
    return filepath
