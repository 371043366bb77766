"""The shared base of the merge layers (Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot).

A merge layer takes a list of tensors with the same batch size. Element-wise merges broadcast the
non-batch axes like numpy, after giving lower-rank inputs extra axes right after the batch axis (Keras'
rule: ``(batch, 5)`` merges with ``(batch, 3, 5)``).
"""

from highlevel import ops
from highlevel.layer import Layer


def _is_shape(value):
    return isinstance(value, (list, tuple)) and all(d is None or isinstance(d, int) for d in value)


class Merge(Layer):
    """Base class of the element-wise merge layers (``keras.layers.Merge``).

    Subclasses implement ``_merge_function(inputs, masks)``; ``masks`` is None or a list with one entry
    (a boolean tensor of the input's shape without its last axis, or None) per input.

    Args:
        **kwargs: base layer arguments (``name``, ``dtype``...).

    >>> import highlevel as hl
    >>> class Midpoint(hl.layers.Merge):
    ...     def _merge_function(self, inputs, masks=None):
    ...         return (inputs[0] + inputs[1]) / 2
    >>> hl.ops.convert_to_numpy(Midpoint()([hl.ops.ones((1, 2)), hl.ops.zeros((1, 2))])).tolist()
    [[0.5, 0.5]]
    """

    #: The smallest number of inputs the layer accepts (Keras 3 lets element-wise merges take one).
    min_inputs = 1
    #: The exact number of inputs, when there is one (Subtract, Dot).
    num_inputs = None

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    # ------------------------------------------------------------- checking
    def _check_input_list(self, inputs, what="inputs"):
        layer = type(self).__name__
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(
                f"A `{layer}` layer should be called on a list of inputs. Received: {what}={inputs!r} "
                "(not a list of tensors). Pass e.g. [x1, x2]."
            )
        if self.num_inputs is not None and len(inputs) != self.num_inputs:
            raise ValueError(
                f"A `{layer}` layer should be called on exactly {self.num_inputs} inputs. Received {len(inputs)} "
                f"{what}: {inputs!r}"
            )
        if len(inputs) < self.min_inputs:
            raise ValueError(
                f"A `{layer}` layer should be called on a list of at least {self.min_inputs} input(s). "
                f"Received {len(inputs)} {what}: {inputs!r}"
            )

    def _check_shapes(self, input_shape, check_batch=True):
        if input_shape and _is_shape(input_shape):  # the shape of one tensor, not a list of shapes
            raise ValueError(
                f"A `{type(self).__name__}` layer should be called on a list of inputs. Received one tensor of "
                f"shape {tuple(input_shape)}. Pass e.g. [x1, x2]."
            )
        self._check_input_list(input_shape, "input_shape")
        if not all(s is None or _is_shape(s) for s in input_shape):
            raise ValueError(
                f"A `{type(self).__name__}` layer should be called on a list of tensors. "
                f"Received: input_shape={input_shape}"
            )
        if not check_batch:
            return
        batch_sizes = {s[0] for s in input_shape if s} - {None}
        if len(batch_sizes) > 1:
            raise ValueError(
                f"Cannot merge tensors with different batch sizes in layer '{self.name}'. Received tensors with "
                f"shapes {list(input_shape)}"
            )

    @staticmethod
    def _broadcast_shapes(shape1, shape2, full1, full2):
        """The numpy broadcast of two non-batch shapes; the error names both full input shapes."""
        if shape1 is None or shape2 is None:
            return None
        if len(shape1) < len(shape2):
            shape1, shape2, full1, full2 = shape2, shape1, full2, full1
        if not shape2:
            return tuple(shape1)
        lead = len(shape1) - len(shape2)
        out = list(shape1[:lead])
        for i, j in zip(shape1[lead:], shape2):
            if i is None or j is None:
                # An unknown size broadcasts to a known size other than 1 (or else errors at run time).
                known = j if i is None else i
                out.append(None if known in (None, 1) else known)
            elif i == 1:
                out.append(j)
            elif j == 1 or i == j:
                out.append(i)
            else:
                raise ValueError(
                    f"Inputs have incompatible shapes. Received shapes {tuple(full1)} and {tuple(full2)}: "
                    f"non-batch sizes {i} and {j} can not be broadcast together (they must be equal, or one of "
                    "them 1)."
                )
        return tuple(out)

    def _elementwise_output_shape(self, input_shape):
        first = input_shape[0]
        output = None if first is None else tuple(first[1:])
        full = first
        for shape in input_shape[1:]:
            output = self._broadcast_shapes(output, None if shape is None else tuple(shape[1:]), full, shape)
            full = (None,) + output if output is not None else None
        return output

    # ---------------------------------------------------------------- layer
    def build(self, input_shape):
        self._check_shapes(input_shape)
        self._elementwise_output_shape(input_shape)
        self.built = True

    def call(self, inputs, mask=None):
        self._check_input_list(inputs)
        masks = self._check_masks(inputs, mask)
        ranks = [len(ops.shape(x)) for x in inputs]
        if len(set(ranks)) > 1:
            # Extra axes go right after the batch axis, so (batch, 5) merges with (batch, 3, 5).
            top = max(ranks)
            expanded = []
            for x, r in zip(inputs, ranks):
                for _ in range(top - r):
                    x = ops.expand_dims(x, 1)
                expanded.append(x)
            inputs = expanded
            masks = None  # a mask no longer lines up with an input that gained axes
        return self._merge_function(list(inputs), masks)

    def _merge_function(self, inputs, masks):
        raise TypeError(f"{type(self).__name__} subclasses Merge but does not define _merge_function.")

    def _check_masks(self, inputs, mask):
        if mask is None:
            return None
        if not isinstance(mask, (list, tuple)) or len(mask) != len(inputs):
            raise ValueError(
                f"Layer '{self.name}': `mask` should be a list with one entry per input ({len(inputs)}); "
                f"received mask={mask!r}"
            )
        return list(mask)

    def compute_output_shape(self, input_shape):
        self._check_shapes(input_shape)
        output = self._elementwise_output_shape(input_shape)
        if output is None:
            return None
        batch_sizes = {s[0] for s in input_shape if s} - {None}
        return (batch_sizes.pop() if len(batch_sizes) == 1 else None,) + output

    def compute_mask(self, inputs, mask=None):
        if mask is None:
            return None
        if not isinstance(mask, (list, tuple)):
            raise ValueError(f"Layer '{self.name}': `mask` should be a list. Received: mask={mask!r}")
        if not isinstance(inputs, (list, tuple)) or len(mask) != len(inputs):
            raise ValueError(
                f"Layer '{self.name}': the lists `inputs` and `mask` should have the same length. Received "
                f"{len(inputs) if isinstance(inputs, (list, tuple)) else 'a non-list'} inputs and {len(mask)} masks."
            )
        # A timestep stays valid when it is valid in any input (the OR), for every element-wise merge.
        if any(m is None for m in mask):
            return None
        output = mask[0]
        for m in mask[1:]:
            output = ops.logical_or(output, m)
        return output

    # ------------------------------------------------------------- helpers
    @staticmethod
    def _expanded_mask(mask, x):
        """A per-timestep mask broadcast to the full shape of ``x``."""
        return ops.broadcast_to(ops.expand_dims(mask, -1), ops.shape(x))

    def _merge_or_masked(self, op, inputs, masks):
        """Folds ``op`` over the inputs; with masks, a masked position takes the other operand's value, so
        that ``Maximum``/``Minimum`` (which have no neutral element) ignore masked entries."""
        if masks is None or all(m is None for m in masks):
            output = inputs[0]
            for x in inputs[1:]:
                output = op(output, x)
            return output
        output, output_mask = None, None
        for x, m in zip(inputs, masks):
            m = None if m is None else self._expanded_mask(m, x)
            if output is None:
                output, output_mask = x, m
                continue
            if m is not None:
                x = ops.where(m, x, output)
            if output_mask is not None:
                output = ops.where(output_mask, output, x)
            output_mask = ops.logical_or(output_mask, m) if m is not None and output_mask is not None else None
            output = op(output, x)
        return output
