"""The files an object's ``save_assets(folder)`` writes, read back as ``{relative path: bytes}`` for an archive.

>>> import os
>>> class Vocabulary:
...     def save_assets(self, folder):
...         with open(os.path.join(folder, "words.txt"), "w") as f:
...             f.write("a b")
>>> written_assets(Vocabulary(), "vocabulary")
{'words.txt': b'a b'}
"""

import os
import tempfile


def written_assets(obj, what):
    """``{relative path: bytes}`` of what ``obj.save_assets(folder)`` wrote into an empty folder.

    Args:
        obj: an object with a ``save_assets(folder)`` method (a layer with vocabulary files, say).
        what: how an error names ``obj``.

    Raises:
        ValueError: ``save_assets`` wrote a link or anything else that is not a plain file.
    """
    out = {}
    with tempfile.TemporaryDirectory(prefix="highlevel-assets-") as folder:
        obj.save_assets(folder)
        for root, dirs, files in os.walk(folder):
            for name in sorted(files):
                full = os.path.join(root, name)
                if os.path.islink(full) or not os.path.isfile(full):
                    raise ValueError(
                        f"{what}.save_assets wrote {full!r}, which is not a plain file; assets must be plain files "
                        "(links are refused)."
                    )
                with open(full, "rb") as f:
                    out[os.path.relpath(full, folder).replace(os.sep, "/")] = f.read()
    return out
