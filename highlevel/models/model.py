"""``hl.Model``: the base of every model, and the entry point of the functional API.

``hl.Model(inputs, outputs)`` builds a :class:`~highlevel.models.functional.Functional` model; subclassing
``hl.Model`` gives a model whose ``call`` is ordinary Python over ``hl.ops`` and layers.

>>> import highlevel as hl
>>> class TwoLayer(hl.Model):
...     def __init__(self):
...         super().__init__()
...         self.hidden = hl.layers.Dense(8, activation="relu")
...         self.out = hl.layers.Dense(1)
...     def call(self, x, training=None):
...         return self.out(self.hidden(x))
>>> m = TwoLayer()
>>> m(hl.ops.ones((2, 3))).shape
(2, 1)
>>> [layer.name for layer in m.layers] == [m.hidden.name, m.out.name]
True
"""

from ..layer import Layer
from ..trainers import Trainer


class Model(Trainer, Layer):
    """A layer with model-level services: ``layers``, ``get_layer``, ``summary``, and training
    (``compile``/``fit``/``evaluate``/``predict``, from :class:`~highlevel.trainers.Trainer`).

    Call ``hl.Model(inputs, outputs)`` for a functional model, or subclass it and define ``call``.
    """

    def __new__(cls, *args, **kwargs):
        if cls is Model and (len(args) >= 2 or ("inputs" in kwargs and "outputs" in kwargs)
                             or (len(args) == 1 and "outputs" in kwargs)):
            from .functional import Functional

            return object.__new__(Functional)
        return object.__new__(cls)

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__ received inputs/outputs; a subclassed model creates its layers "
                "in __init__ and uses them in call(). For a functional model call hl.Model(inputs, outputs)."
            )
        super().__init__(**kwargs)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuilds a model from ``get_config``; ``hl.Model.from_config`` of a functional config gives a
        functional model."""
        if cls is Model and "nodes" in config:
            from .functional import Functional

            return Functional.from_config(config, custom_objects=custom_objects)
        return super().from_config(config)

    @property
    def layers(self):
        """The model's direct layers, in order."""
        return self._sublayers()

    def get_layer(self, name=None, index=None):
        """Returns a layer by ``name`` or by ``index`` in :attr:`layers`."""
        if index is not None and name is not None:
            raise ValueError("Provide only one of `name` and `index` to get_layer().")
        layers = self.layers
        if index is not None:
            if not -len(layers) <= index < len(layers):
                raise ValueError(f"get_layer(index={index}) is out of range: the model has {len(layers)} layers.")
            return layers[index]
        if name is not None:
            for layer in layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name!r}. Existing layers are: {[l.name for l in layers]}.")
        raise ValueError("Provide either a layer `name` or an `index` to get_layer().")

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False, show_trainable=False,
                return_string=False):
        """Prints a table of the model's layers, output shapes and parameter counts.

        Args:
            print_fn: a function that receives the rendered text instead of printing it with rich.
            show_trainable: add a column saying whether each layer is trainable.
            return_string: return the text instead of printing it.
            line_length: the table width in characters (default: the terminal's, at most 100).
        """
        from .summary import render_summary

        return render_summary(self, line_length=line_length, print_fn=print_fn, show_trainable=show_trainable,
                              return_string=return_string)

    def save(self, filepath):
        """Saves the architecture, compile arguments, weights and optimizer state to one file
        (see :func:`highlevel.saving.save_model`; reload with ``hl.models.load_model``)."""
        from highlevel.saving import save_model

        save_model(self, filepath)

    def save_weights(self, filepath):
        """Saves only the weights, as safetensors (see :func:`highlevel.saving.save_weights`)."""
        from highlevel.saving import save_weights

        save_weights(self, filepath)

    def load_weights(self, filepath, skip_mismatch=False):
        """Loads :meth:`save_weights`'s file; a shape mismatch names the layer, variable and both shapes."""
        from highlevel.saving import load_weights

        load_weights(self, filepath, skip_mismatch=skip_mismatch)

    def count_params(self):
        """The number of scalars in all weights."""
        if not self.built:
            raise ValueError(
                f"Model '{self.name}' has not been built yet, so it has no weights to count. Build it first: "
                "call it on a batch of data, call model.build(input_shape), or start it with hl.Input(shape)."
            )
        return sum(_size(v.shape) for v in self.weights)


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n
