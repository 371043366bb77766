"""``CSVLogger``: writes every epoch's logs as a row of a CSV file.

>>> import os, tempfile, numpy as np, highlevel as hl
>>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
>>> model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> _ = model.fit(np.ones((8, 4)), np.zeros((8, 1)), epochs=2, callbacks=[hl.callbacks.CSVLogger(path)], verbose=0)
>>> open(path).read().splitlines()[0]
'epoch,loss,val_loss'
"""

import collections.abc
import csv
import os

import numpy as np

from .callback import Callback


def _cell(value):
    # Strings as they are; 1-D iterables (arrays, lists) as "[a, b, ...]"; numbers through csv's str().
    if isinstance(value, str):
        return value
    if isinstance(value, collections.abc.Iterable) and not (isinstance(value, np.ndarray) and value.ndim == 0):
        return f'"[{", ".join(map(str, value))}]"'
    return value


class CSVLogger(Callback):
    """Streams epoch results to a CSV file (``keras.callbacks.CSVLogger``).

    The columns are ``epoch`` then the sorted log keys of the first epoch; when there are no ``val_`` keys
    then, a ``val_`` column is added for each key (filled with ``NA``), so that the file's layout does not
    depend on whether validation ran in the first epoch. Rows are flushed at every epoch.

    Args:
        filename: the CSV file's path (a string or path-like).
        separator: the string separating the cells.
        append: True appends to an existing file (writing the header only if the file is empty), for
            continued training; False overwrites it.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
    >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[hl.callbacks.CSVLogger(path)])
    >>> lines = open(path).read().splitlines()
    >>> lines[0].split(",")[:2], len(lines)
    (['epoch', 'loss'], 3)
    """

    #: In a multi-process run only process 0 keeps this callback (it writes files or prints).
    chief_only = True

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep = separator
        self.filename = os.fspath(filename)
        self.append = append
        self.writer = None
        self.keys = None
        self.append_header = True
        self.csv_file = None

    def on_train_begin(self, logs=None):
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename) as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        else:
            mode = "w"
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()
        self.csv_file = open(self.filename, mode, newline="")
        self.writer = None
        self.keys = None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs.keys())
            if self.keys and not any(k.startswith("val_") for k in self.keys):
                self.keys.extend([f"val_{k}" for k in self.keys])
        if self.writer is None:
            dialect = type("CSVLoggerDialect", (csv.excel,), {"delimiter": self.sep})
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch"] + self.keys, dialect=dialect)
            if self.append_header:
                self.writer.writeheader()
        row = {"epoch": epoch}
        row.update((key, _cell(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()
        self.writer = None
