"""``KerasFileEditor``: inspect and edit the weights of a saved model file without building the model.

It reads highlevel's own archive (``.hl.zip``, or a ``.keras`` file an earlier highlevel wrote; zip or
folder): :attr:`weights_dict` maps each model variable's path to its array, which can be replaced (same shape
or not), deleted or added to, then written to a new file with :meth:`save` (the architecture and the optimizer
state are kept as they were). Nothing in the file is run.

>>> import os, tempfile, numpy as np, highlevel as hl
>>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1, name="d")])
>>> folder = tempfile.mkdtemp()
>>> model.save(os.path.join(folder, "m.hl.zip"))
>>> editor = hl.saving.KerasFileEditor(os.path.join(folder, "m.hl.zip"))
>>> sorted(editor.weights_dict)
['d/bias', 'd/kernel']
>>> editor.weights_dict["d/bias"] = np.array([5.0], "float32")
>>> editor.save(os.path.join(folder, "edited.hl.zip"))
>>> hl.ops.convert_to_numpy(hl.saving.load_model(os.path.join(folder, "edited.hl.zip")).layers[0].bias)
array([5.], dtype=float32)
"""

import json
import os

import numpy as np

from . import archive, safetensors_io, saving_api, weights_io
from .errors import InvalidFileError


class KerasFileEditor:
    """The weights of a saved model, as a dict to edit (``keras.saving.KerasFileEditor``).

    Args:
        filepath: a file (or folder) of highlevel's own archive format, as ``model.save`` writes for a
            ``.hl.zip`` name.

    Attributes:
        config: the saved model's config (plain data).
        metadata: the file's metadata (format version, highlevel version, engine, date).
        weights_dict: ``{variable path: numpy array}`` of the model's variables, in the saved order.

    Raises:
        InvalidFileError: the file is not a model saved in highlevel's own format.

    >>> import os, tempfile
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="d")])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.hl.zip")
    >>> model.save(path)
    >>> editor = hl.saving.KerasFileEditor(path)
    >>> list(editor.weights_dict), editor.weights_dict["d/kernel"].shape
    (['d/kernel', 'd/bias'], (3, 2))
    """

    def __init__(self, filepath):
        self.filepath = os.fspath(filepath)
        found, self._members = saving_api._read(self.filepath)
        if found != "highlevel":
            raise InvalidFileError(
                f"{self.filepath!r} holds Keras 3's archive format (HDF5 weights); KerasFileEditor edits highlevel's "
                "own archive (safetensors weights). Load the model with hl.saving.load_model and save it with a "
                "'.hl.zip' name (or save_format='highlevel') to edit it here."
            )
        self.config = saving_api._json(self._members[saving_api.CONFIG], saving_api.CONFIG, self.filepath)
        self.metadata = saving_api._json(self._members[saving_api.METADATA], saving_api.METADATA, self.filepath)
        tensors = safetensors_io.loads(self._members[saving_api.WEIGHTS], where=repr(self.filepath))
        tensors, self._own = weights_io.split_own(tensors)
        self._groups = weights_io.split_keys(tensors)
        self.weights_dict = {}
        for path, array in self._groups.get("model", []):
            if path in self.weights_dict:
                raise InvalidFileError(
                    f"{self.filepath!r}: two model variables share the path {path!r}; the editor needs unique paths."
                )
            self.weights_dict[path] = array

    def summary(self):
        """Prints each variable's path, shape and dtype, and the total count."""
        width = max([len(p) for p in self.weights_dict] + [8])
        lines = [f"Saved model: {self.filepath}", f"{'Variable':<{width}}  {'Shape':<16} Dtype"]
        total = 0
        for path, array in self.weights_dict.items():
            lines.append(f"{path:<{width}}  {str(tuple(array.shape)):<16} {array.dtype}")
            total += int(np.prod(array.shape))
        lines.append(f"Total: {len(self.weights_dict)} variables, {total:,} values")
        print("\n".join(lines))

    def compare(self, model):
        """Compares the saved variables with ``model``'s (by position), printing what differs.

        Returns:
            ``{"status": "success" | "error", "error_count": int, "match_count": int}``.
        """
        saved = list(self.weights_dict.items())
        current = weights_io.model_variables(model)
        errors = matches = 0
        if len(saved) != len(current):
            print(f"The file holds {len(saved)} variables, the model {len(current)}.")
            errors += 1
        for (path, array), variable in zip(saved, current):
            if tuple(array.shape) != tuple(variable.shape):
                print(
                    f"'{path}' has shape {tuple(array.shape)} in the file, '{variable.path}' has "
                    f"{tuple(variable.shape)} in the model."
                )
                errors += 1
            else:
                matches += 1
        return {"status": "error" if errors else "success", "error_count": errors, "match_count": matches}

    def _check_arrays(self):
        for path, array in self.weights_dict.items():
            if not isinstance(path, str) or not path or "/" not in path:
                raise ValueError(f"weights_dict keys are variable paths such as 'dense/kernel'; received {path!r}.")
            if not isinstance(array, np.ndarray):
                self.weights_dict[path] = np.asarray(array)

    def _tensors(self):
        self._check_arrays()
        tensors = {f"model/{i}/{path}": array for i, (path, array) in enumerate(self.weights_dict.items())}
        for group, items in self._groups.items():
            if group != "model":
                tensors.update({f"{group}/{i}/{path}": array for i, (path, array) in enumerate(items)})
        for index, store in self._own.items():
            tensors.update({f"{weights_io.OWN}/{index}/{key}": array for key, array in store.items()})
        return tensors

    def save(self, filepath, overwrite=True, zipped=None):
        """Writes the model file again, with :attr:`weights_dict`'s arrays, to ``filepath`` (atomically).

        Args:
            filepath: the new file (writing over the file being edited is allowed).
            overwrite: replace an existing file (False: raise ``FileExistsError``).
            zipped: True or None: one zip file; False: a folder.
        """
        path = os.fspath(filepath)
        saving_api._check_overwrite(path, overwrite)
        members = dict(self._members)
        members[saving_api.CONFIG] = json.dumps(self.config).encode("utf-8")
        members[saving_api.WEIGHTS] = safetensors_io.dumps(self._tensors())
        if zipped is False:
            archive.write_folder(path, members)
        else:
            archive.write_archive(path, members, stored={saving_api.WEIGHTS})

    def resave_weights(self, filepath):
        """Writes only the model's weights, as ``model.save_weights`` would, to ``filepath``."""
        self._check_arrays()
        tensors = {f"model/{i}/{path}": array for i, (path, array) in enumerate(self.weights_dict.items())}
        archive.atomic_write(os.fspath(filepath), safetensors_io.dumps(tensors))
