"""``TensorBoard``: writes scalars, weight histograms and the model graph as TensorBoard event files.

>>> import os, tempfile, numpy as np, highlevel as hl
>>> logs = tempfile.mkdtemp()
>>> model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> _ = model.fit(np.ones((8, 4)), np.zeros((8, 1)), epochs=2, callbacks=[hl.callbacks.TensorBoard(logs)],
...               verbose=0)
>>> sorted(os.listdir(logs)), len(os.listdir(os.path.join(logs, "train")))
(['train'], 1)
"""

import itertools
import numbers
import os
import socket
import time

import numpy as np

from highlevel import ops
from highlevel.layer import Layer

from .callback import Callback
from .learning_rate_scheduler import current_learning_rate

_HISTOGRAM_BUCKETS = 30  # tf.summary.histogram's default
_file_ids = itertools.count()


def _tensorboard():
    """tensorboard's protos and record writer, imported on first use: the package is an optional dependency."""
    try:
        from tensorboard.compat.proto import (
            attr_value_pb2,
            event_pb2,
            graph_pb2,
            node_def_pb2,
            summary_pb2,
            tensor_shape_pb2,
        )
        from tensorboard.summary.writer.record_writer import RecordWriter
    except ImportError as e:
        from highlevel._extras import install_command

        raise ImportError(
            f"The TensorBoard callback needs the `tensorboard` package, which is not installed ({e}). "
            f"Install it with: `pip install tensorboard`, or {install_command('tensorboard')}"
        ) from e
    return {
        "attr_value_pb2": attr_value_pb2,
        "event_pb2": event_pb2,
        "graph_pb2": graph_pb2,
        "node_def_pb2": node_def_pb2,
        "summary_pb2": summary_pb2,
        "tensor_shape_pb2": tensor_shape_pb2,
        "RecordWriter": RecordWriter,
    }


class _EventWriter:
    """One event file in ``logdir``, written with tensorboard's record framing and ``Event`` protos.

    tensorboard's ``EventFileWriter`` would do the same, but it creates folders and files through
    ``tensorboard.compat.tf``, which imports TensorFlow whenever it is installed (seconds, and a second
    framework in a torch or JAX process). The record writer and protos it uses are used here directly, on a plain
    file; events are written synchronously and flushed at the end of every epoch.
    """

    def __init__(self, logdir, tb):
        self._tb = tb
        os.makedirs(logdir, exist_ok=True)
        # The name TensorBoard looks for: events.out.tfevents.<time>.<host>.<pid>.<counter>.
        name = f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}.{os.getpid()}.{next(_file_ids)}.v2"
        self.path = os.path.join(logdir, name)
        self._records = tb["RecordWriter"](open(self.path, "wb"))
        event_pb2 = tb["event_pb2"]
        self.add_event(
            event_pb2.Event(file_version="brain.Event:2", source_metadata=event_pb2.SourceMetadata(writer="highlevel"))
        )
        self.flush()

    def add_event(self, event):
        if not event.wall_time:
            event.wall_time = time.time()
        self._records.write(event.SerializeToString())

    def add_summary(self, value, step):
        summary = self._tb["summary_pb2"].Summary(value=[value])
        self.add_event(self._tb["event_pb2"].Event(step=int(step), summary=summary))

    def scalar(self, tag, value, step):
        self.add_summary(self._tb["summary_pb2"].Summary.Value(tag=tag, simple_value=float(value)), step)

    def histogram(self, tag, values, step):
        """Writes ``values`` (any shape) as a ``HistogramProto`` of 30 equal buckets between min and max."""
        values = np.asarray(values, dtype=np.float64).ravel()
        values = values[np.isfinite(values)]  # np.histogram cannot bin inf or nan
        if values.size == 0:
            return
        counts, edges = np.histogram(values, bins=_HISTOGRAM_BUCKETS)
        histo = self._tb["summary_pb2"].HistogramProto(
            min=float(values.min()),
            max=float(values.max()),
            num=float(values.size),
            sum=float(values.sum()),
            sum_squares=float(np.dot(values, values)),
            bucket_limit=[float(e) for e in edges[1:]],
            bucket=[float(c) for c in counts],
        )
        self.add_summary(self._tb["summary_pb2"].Summary.Value(tag=tag, histo=histo), step)

    def graph(self, graph_def):
        self.add_event(self._tb["event_pb2"].Event(graph_def=graph_def.SerializeToString()))

    def flush(self):
        self._records.flush()

    def close(self):
        if not self._records.closed:
            self._records.flush()
            self._records.close()


def _shape_proto(tb, shape):
    dims = [tb["tensor_shape_pb2"].TensorShapeProto.Dim(size=-1 if d is None else int(d)) for d in shape]
    return tb["tensor_shape_pb2"].TensorShapeProto(dim=dims)


def model_graph_def(model, tb):
    """The layer graph of a functional or Sequential ``model`` as a ``GraphDef``, or None for other models.

    Each call of a layer (or of an ``hl.ops`` function on symbolic tensors) is a node named after the layer
    (``name_1``, ... for further calls of a shared layer), with ``op`` its class name, ``input`` the nodes whose
    outputs it takes (``"node:i"`` for a node's output ``i > 0``, as TensorFlow spells it), and its output shapes
    in ``_output_shapes``, which TensorBoard shows on the edges.
    """
    graph = getattr(model, "_graph", None)
    if graph is None and hasattr(model, "_nodes"):
        graph = model
    if graph is None or not hasattr(graph, "_nodes"):
        return None
    attr_value_pb2 = tb["attr_value_pb2"]
    names, used, nodes = {}, set(), []
    for node in graph._nodes:
        op = node.operation
        base = getattr(op, "name", None) or type(op).__name__
        name, k = base, 0
        while name in used:
            k += 1
            name = f"{base}_{k}"
        used.add(name)
        names[id(node)] = name
        inputs = []
        for t in node.input_tensors:
            history = getattr(t, "_history", None)
            if history is None or id(history[0]) not in names:
                continue
            parent, index = history
            inputs.append(names[id(parent)] if index == 0 else f"{names[id(parent)]}:{index}")
        shapes = attr_value_pb2.AttrValue.ListValue(
            shape=[_shape_proto(tb, t.shape) for t in node.output_tensors if getattr(t, "shape", None) is not None]
        )
        kind = type(op).__name__ if isinstance(op, Layer) else f"ops.{base}"
        nodes.append(
            tb["node_def_pb2"].NodeDef(
                name=name, op=kind, input=inputs, attr={"_output_shapes": attr_value_pb2.AttrValue(list=shapes)}
            )
        )
    return tb["graph_pb2"].GraphDef(node=nodes)


class TensorBoard(Callback):
    """Logs training to TensorBoard event files (``keras.callbacks.TensorBoard``).

    Written under ``log_dir``, as Keras lays it out:

    * ``train/``: ``epoch_<name>`` scalars of the training logs at step ``epoch`` (0-based), including
      ``epoch_learning_rate`` (the optimizer's learning rate); ``batch_<name>`` scalars every ``update_freq``
      batches at step = the number of batches seen in this ``fit`` (1-based); weight histograms
      ``<layer>/<weight>/histogram`` every ``histogram_freq`` epochs (epochs 0, N, 2N, ...); the model graph.
    * ``validation/``: ``epoch_<name>`` for the ``val_<name>`` logs, and ``evaluation_<name>_vs_iterations``
      at the end of every evaluation, at step ``optimizer.iterations``.

    The graph is the layer graph of a functional or Sequential model (nodes are layer calls, edges their inbound
    layers); subclassed models have none. Events are flushed at the end of every epoch and the files closed
    when training ends. View them with ``tensorboard --logdir <log_dir>``.

    The ``tensorboard`` package is needed (not TensorFlow): ``pip install -e ".[tensorboard]"`` in a checkout.

    Args:
        log_dir: the folder of the event files (created if missing). Do not share it with other callbacks.
        histogram_freq: write weight histograms every this many epochs; 0 writes none.
        write_graph: write the model graph.
        write_images: only False: highlevel does not write weights as images.
        write_steps_per_second: also log the training steps per second (per epoch, and per batch when
            ``update_freq`` is batch-level).
        update_freq: ``"epoch"``, ``"batch"`` (= 1) or an integer ``N``: batch-level scalars every ``N`` batches.
        profile_batch: only 0: profiling is not supported.
        embeddings_freq: only 0: the embedding projector is not supported.
        embeddings_metadata: only None.

    Raises:
        ImportError: when the ``tensorboard`` package is missing.
        ValueError: for a bad ``histogram_freq`` or ``update_freq``, or a feature highlevel does not write.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> log_dir = tempfile.mkdtemp()
    >>> board = hl.callbacks.TensorBoard(log_dir)
    >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=0, callbacks=[board])
    >>> os.listdir(log_dir)
    ['train']
    """

    #: In a multi-process run only process 0 keeps this callback (it writes files or prints).
    chief_only = True

    def __init__(
        self,
        log_dir="logs",
        histogram_freq=0,
        write_graph=True,
        write_images=False,
        write_steps_per_second=False,
        update_freq="epoch",
        profile_batch=0,
        embeddings_freq=0,
        embeddings_metadata=None,
    ):
        super().__init__()
        self._tb = _tensorboard()
        if not isinstance(histogram_freq, numbers.Integral) or isinstance(histogram_freq, bool) or histogram_freq < 0:
            raise ValueError(
                f"histogram_freq must be a non-negative integer (0 writes no histograms); received "
                f"histogram_freq={histogram_freq!r}."
            )
        if update_freq == "batch":
            update_freq = 1
        if update_freq != "epoch" and (
            not isinstance(update_freq, numbers.Integral) or isinstance(update_freq, bool) or update_freq < 1
        ):
            raise ValueError(
                f"update_freq must be 'epoch', 'batch' or a positive integer (a number of batches); "
                f"received update_freq={update_freq!r}."
            )
        unsupported = {
            "write_images": (write_images, False),
            "profile_batch": (profile_batch, 0),
            "embeddings_freq": (embeddings_freq, 0),
            "embeddings_metadata": (embeddings_metadata, None),
        }
        for arg, (value, default) in unsupported.items():
            if value != default and not (default == 0 and value is None):
                raise ValueError(
                    f"highlevel's TensorBoard callback does not support {arg} (it writes scalars, "
                    f"histograms and the graph); received {arg}={value!r}. Leave it at {default!r}."
                )
        self.log_dir = os.fspath(log_dir)
        self.histogram_freq = int(histogram_freq)
        self.write_graph = write_graph
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = update_freq if update_freq == "epoch" else int(update_freq)
        self._writers = {}
        self._global_train_batch = 0
        self._graph_written = False
        self._training = False
        self._epoch_start = self._batch_start = 0.0
        self._epoch_batches = 0

    def set_model(self, model):
        super().set_model(model)
        self._close_writers()
        self._graph_written = False

    # The writers are made on first use, so that a run with no validation makes no validation/ folder.
    def _writer(self, kind):
        if kind not in self._writers:
            folder = os.path.join(self.log_dir, "train" if kind == "train" else "validation")
            self._writers[kind] = _EventWriter(folder, self._tb)
        return self._writers[kind]

    def _close_writers(self):
        for writer in self._writers.values():
            writer.close()
        self._writers = {}

    def _maybe_write_graph(self):
        if not self.write_graph or self._graph_written or self.model is None or not getattr(self.model, "built", 0):
            return
        graph_def = model_graph_def(self.model, self._tb)
        if graph_def is not None:
            self._writer("train").graph(graph_def)
        self._graph_written = True

    def on_train_begin(self, logs=None):
        self._training = True
        self._global_train_batch = 0
        self._maybe_write_graph()

    def on_train_end(self, logs=None):
        self._training = False
        self._close_writers()

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch_start = time.time()
        self._epoch_batches = 0

    def on_train_batch_begin(self, batch, logs=None):
        self._global_train_batch += 1
        self._batch_start = time.time()

    def on_train_batch_end(self, batch, logs=None):
        self._epoch_batches += 1
        self._maybe_write_graph()  # a model built by its first batch has a graph only now
        if self.update_freq == "epoch" or self._global_train_batch % self.update_freq:
            return
        writer, step = self._writer("train"), self._global_train_batch
        for name, value in _scalars(logs).items():
            writer.scalar(f"batch_{name}", value, step)
        if self.write_steps_per_second:
            elapsed = time.time() - self._batch_start
            if elapsed > 0:
                writer.scalar("batch_steps_per_second", 1.0 / elapsed, step)

    def on_epoch_end(self, epoch, logs=None):
        logs = _scalars(logs)
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val = {k[len("val_") :]: v for k, v in logs.items() if k.startswith("val_")}
        optimizer = getattr(self.model, "optimizer", None)
        if "learning_rate" not in train and optimizer is not None and hasattr(optimizer, "learning_rate"):
            train["learning_rate"] = current_learning_rate(optimizer)
        if self.write_steps_per_second:
            elapsed = time.time() - self._epoch_start
            if elapsed > 0:
                train["steps_per_second"] = self._epoch_batches / elapsed
        writer = self._writer("train")
        for name, value in train.items():
            writer.scalar(f"epoch_{name}", value, epoch)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(writer, epoch)
        writer.flush()
        if val:
            val_writer = self._writer("validation")
            for name, value in val.items():
                val_writer.scalar(f"epoch_{name}", value, epoch)
            val_writer.flush()

    def _log_weights(self, writer, epoch):
        seen = set()
        for layer in self.model.layers:
            for weight in layer.weights:
                if id(weight) in seen:
                    continue
                seen.add(id(weight))
                tag = f"{getattr(weight, 'path', weight.name).replace(':', '_')}/histogram"
                writer.histogram(tag, ops.convert_to_numpy(weight), epoch)

    def on_test_end(self, logs=None):
        optimizer = getattr(self.model, "optimizer", None)
        iterations = getattr(optimizer, "iterations", None)
        if iterations is not None and logs:
            step = int(ops.convert_to_numpy(iterations))
            writer = self._writer("validation")
            for name, value in _scalars(logs).items():
                writer.scalar(f"evaluation_{name}_vs_iterations", value, step)
            writer.flush()
        if not self._training:  # a standalone evaluate(): nothing else will close the file
            self._close_writers()


def _scalars(logs):
    """The entries of ``logs`` that are single numbers, as Python floats."""
    out = {}
    for name, value in (logs or {}).items():
        if isinstance(value, (numbers.Number, np.number)) and not isinstance(value, bool):
            out[name] = float(value)
        elif isinstance(value, np.ndarray) and value.size == 1:
            out[name] = float(value.reshape(()))
    return out
