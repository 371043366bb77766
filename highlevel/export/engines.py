"""Which engines write an export format, and moving a model onto one of them.

>>> engines_writing("no_such_format")
[]
"""

import os
import tempfile

from highlevel import config
from highlevel.backends import registry


def engines_writing(format):
    """The installed engines that write ``format`` (imported to ask them), those that write it from their own
    traced program first."""
    found = []
    for name in registry.installed():
        try:
            formats = registry.get(name).export_formats
        except ImportError:  # pragma: no cover - an engine whose framework is broken
            continue
        if format in formats:
            found.append((formats[format] != "graph", name))
    return [name for _, name in sorted(found)]


def require_engine(backend, format, what):
    """Raises a clear error when ``backend`` does not write ``format``, naming the engines that do."""
    if format in backend.export_formats:
        return
    others = engines_writing(format)
    where = (
        f"It is written on the {', '.join(repr(n) for n in others)} backend{'s' if len(others) > 1 else ''}"
        if others
        else "No installed backend writes it"
    )
    raise ValueError(
        f"{what} (format={format!r}) cannot be written on the {backend.name!r} backend. {where}: build or load the "
        f"model there (HIGHLEVEL_BACKEND=..., or inside highlevel.config.backend_scope(...)) and export it from it."
    )


def rebuild_on(model, engine):
    """The same model (architecture and weights) made again on ``engine``, through a saved file: its config and
    weights. Only a model whose classes are registered (any built-in layer, Sequential, functional) can move."""
    from highlevel.saving import load_model

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.hl.zip")  # highlevel's own archive: every class it has
        try:
            model.save(path)
            with config.backend_scope(engine):
                return load_model(path, compile=False)
        except Exception as err:
            raise ValueError(
                f"To export the model {model.name!r} in this format from the {config.current_backend().name!r} "
                f"backend it is rebuilt on the {engine!r} backend from its config and weights, and that failed: "
                f"{err}. Register its custom classes (hl.saving.register_keras_serializable) so that it can be "
                f"saved and loaded, or build it on the {engine!r} backend and export it there."
            ) from err
