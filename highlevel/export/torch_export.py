"""``model.export(path, format="torch")``: a ``torch.export`` program (``.pt2``), on PyTorch.

``None`` sizes of the signature (the batch first) are dynamic; run it with
``torch.export.load(path).module()(x)``.

>>> from highlevel.export.torch_export import FORMAT
>>> FORMAT
'torch'
"""

import os

from highlevel import config

from .engines import require_engine
from .input_signature import standardize_signature

FORMAT = "torch"


def export_torch(model, filepath, verbose=None, input_signature=None, **kwargs):
    """Writes ``model`` as a ``torch.export`` program at ``filepath`` (which must end in ``.pt2``).

    Args:
        model: a built model, on the torch backend.
        filepath: the ``.pt2`` file to write.
        verbose: print where it went (default True).
        input_signature: as for :func:`~highlevel.export.saved_model.export_saved_model`.
        **kwargs: passed to ``torch.export.export`` (``strict``, ``dynamic_shapes``,
            ``prefer_deferred_runtime_asserts_over_guards``, ``preserve_module_call_signature``).

    Returns:
        ``filepath``.

    Raises:
        ValueError: a path not ending in ``.pt2``; an engine that does not write ``torch.export`` programs.
    """
    if not os.fspath(filepath).endswith(".pt2"):
        raise ValueError(
            f"A torch.export program is written to a file ending in '.pt2'; received filepath={os.fspath(filepath)!r}. "
            "Add the .pt2 extension."
        )
    backend = config.current_backend()
    require_engine(backend, FORMAT, "A torch.export program")
    signature = standardize_signature(input_signature, model)
    fn = lambda *args: model(*args, training=False)  # noqa: E731
    backend.export_torch_program(os.fspath(filepath), fn, signature, list(model.variables), kwargs)
    if verbose is None or verbose:
        print(f"Saved a torch.export program at '{filepath}'.")
    return filepath
