"""TensorFlow's view of highlevel objects: variables a ``tf.GradientTape`` watches, layers a checkpoint tracks.

On the tensorflow engine every new :class:`~highlevel.Variable` is also a :class:`TrackableVariable` and every new
layer or model a :class:`TrackableLayer` (see ``highlevel.backends.contract.interop``). A variable then acts as a
resource variable: the tape, ``tf.function`` and ``tf.train.Checkpoint`` see the ``tf.Variable`` inside it. A
layer lists its sub-layers and variables as checkpoint dependencies under their attribute names, so
``tf.train.Checkpoint(model=model)`` saves and restores the weights, and a layer kept on a ``tf.Module`` is saved
with it.

>>> import tensorflow as tf
>>> import highlevel as hl
>>> with hl.config.backend_scope("tensorflow"):
...     v = hl.Variable([1.0, 2.0])
...     with tf.GradientTape() as tape:
...         y = tf.reduce_sum(v * v)
...     tape.gradient(y, v).numpy().tolist()
[2.0, 4.0]
"""

import tensorflow as tf

_Trackable = tf.__internal__.tracking.Trackable


class TrackableVariable(tf.__internal__.types.Tensor, _Trackable):
    """What a highlevel variable adds on TensorFlow: it acts as a resource variable whose ``handle`` is the resource
    tensor of its ``tf.Variable`` (the tape's key for gradients), and checkpoints save that ``tf.Variable``'s value.
    Backend code reaches the ``tf.Variable`` itself through ``_handle``."""

    _should_act_as_resource_variable = True
    _hl_engine_attributes = ("handle",)

    @property
    def handle(self):
        """The resource tensor of the ``tf.Variable`` that holds the value (what ``tf.GradientTape`` watches)."""
        return self._handle.handle

    @property
    def _unique_id(self):
        return self._handle._unique_id

    @property
    def _shared_name(self):
        return self._handle._shared_name

    @property
    def device(self):
        return self._handle.device

    def _serialize_to_tensors(self):
        return self._handle._serialize_to_tensors()

    def _restore_from_tensors(self, restored_tensors):
        return self._handle._restore_from_tensors(restored_tensors)

    def _copy_trackable_to_cpu(self, object_map):
        self._handle._copy_trackable_to_cpu(object_map)
        object_map[self] = object_map[self._handle]

    def _export_to_saved_model_graph(self, object_map, tensor_map, options, **kwargs):
        resources = self._handle._export_to_saved_model_graph(object_map, tensor_map, options, **kwargs)
        object_map[self] = object_map[self._handle]
        return resources

    def _write_object_proto(self, proto, options):
        return self._handle._write_object_proto(proto, options)


#: Attributes of a layer that hold bookkeeping (graph records, caches), not what the layer owns.
_SKIPPED = frozenset({"_inbound_nodes", "_outbound_nodes", "_losses", "_build_call"})


def _trackables(value, name, out, depth=0):
    """Adds to ``out`` (name -> object) the trackable objects in ``value`` and the lists, tuples and dicts below
    it, named ``name``, ``name/0``, ``name/key``..."""
    if isinstance(value, (TrackableLayer, TrackableVariable, tf.Variable, tf.Module)):
        out.setdefault(name, value)
    elif depth < 4 and isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _trackables(item, f"{name}/{i}", out, depth + 1)
    elif depth < 4 and isinstance(value, dict):
        for key, item in value.items():
            _trackables(item, f"{name}/{key}", out, depth + 1)


class TrackableLayer(_Trackable):
    """What a highlevel layer or model adds on TensorFlow: its sub-layers and variables are its checkpoint
    dependencies, named by the attributes (and list positions or dict keys) that hold them."""

    def _trackable_children(self, save_type="checkpoint", **kwargs):
        children = {}
        for key, value in vars(self).items():
            if key in _SKIPPED or key.endswith("_cache") or key.startswith("_self_"):
                continue
            _trackables(value, key, children)
        return children
