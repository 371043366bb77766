"""The front door of every op: one place where an ``hl.ops`` call meets an engine.

Every public op of ``hl.ops`` (and of its namespaces ``numpy``, ``nn``, ``linalg``, ``image``) is a plain
function that checks and normalizes its arguments (:mod:`highlevel.ops._args`: axes, dtypes, ``data_format``,
padding, shapes; the user-facing error is raised there, once, for every engine) and then calls :func:`call`
with canonical arguments:

* on symbolic tensors (:class:`~highlevel.keras_tensor.KerasTensor`, while a functional model is being built),
  :func:`call` infers the output's shape and dtype by running the op on placeholders on the native engine and
  records a graph node that replays the public op on real tensors later;
* otherwise it runs the current engine's method of the same name (a method of the backend contract), as the
  engine's ``door_op`` gives it (JAX compiles it into one program per op and signature).

An op that can be written from other ops has its one generic definition in the contract (as the fused kernels
of ``FusedContract`` do): an engine overrides it only where its own kernel is faster or more exact. So an engine
implements only the contract's abstract methods, the primitives.

>>> import highlevel as hl
>>> from highlevel.ops import _door
>>> hl.ops.convert_to_numpy(_door.call("add", 1.0, 2.0)).item()
3.0
"""

from highlevel.config import current_backend
from highlevel.keras_tensor import any_symbolic

# Ops that call user code (``scan``'s step function, ``jvp``'s function): their shape inference runs with the
# native engine as the current backend, so that the ``hl.ops`` calls inside that code dispatch to native too.
_CALLS_USER_CODE = frozenset({"scan", "jvp"})


def call(name, *args, **kwargs):
    """Runs the contract method ``name`` of the current engine on canonical arguments (see the module docstring).

    Args:
        name: the contract method, which is also the public op's name in ``hl.ops``.
        *args, **kwargs: the op's arguments, already checked and normalized by the public function.

    Returns:
        The engine's result, or KerasTensors describing it when an argument is symbolic.
    """
    if any_symbolic(args, kwargs):
        return symbolic_call(name, args, kwargs)
    return current_backend().door_op(name)(*args, **kwargs)


def composite(name, fn, *args, **kwargs):
    """Runs ``fn(*args, **kwargs)``, a public op written from other ``hl.ops`` calls, as the engine runs such ops.

    On symbolic tensors ``fn`` runs as it is (each op it calls records its own node). Otherwise the current
    engine's ``door_composite`` gives the function to run: ``fn`` itself, or a compiled whole (JAX: one program
    per signature instead of one per op inside). ``fn`` must be a pure function of its arguments: no random draws,
    no host reads of its tensors' values.

    Args:
        name: the public op's name, the key under which an engine keeps its compiled forms.
        fn: the op's definition.
        *args, **kwargs: its arguments, as the public function received them.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(composite("doubled", lambda x: hl.ops.add(x, x), 1.5)).item()
    3.0
    """
    if any_symbolic(args, kwargs):
        return fn(*args, **kwargs)
    return current_backend().door_composite(name, fn)(*args, **kwargs)


def symbolic_call(name, args, kwargs, public=None):
    """Infers the output of ``name(*args, **kwargs)`` on symbolic tensors and records it as a graph node.

    Args:
        name: the contract method that computes the op.
        args, kwargs: the arguments, some of them KerasTensors.
        public: the ``hl.ops`` function the node replays (default: ``hl.ops.<name>``).
    """
    from highlevel.config import backend_scope
    from highlevel.node import Node, OpCall
    from highlevel.symbolic_exec import compute_output_spec

    current = current_backend()
    if name in _CALLS_USER_CODE:
        with backend_scope("native"):
            outputs = compute_output_spec(name, args, kwargs, current=current)
    else:
        outputs = compute_output_spec(name, args, kwargs, current=current)
    Node(OpCall(public or name), args, kwargs, outputs)
    return outputs


def symbolic_node(public, args, kwargs, outputs, replay=None):
    """Records a graph node whose outputs the caller already knows, and returns ``outputs``.

    The control-flow ops infer their outputs by calling their functions on KerasTensors (which may also close
    over KerasTensors, as in a layer's ``call``), not by running the op on placeholders (a loop could run
    forever on them), and record their node with this.

    Args:
        public: the ``hl.ops`` function the node replays (its name).
        args, kwargs: the arguments, some of them KerasTensors.
        outputs: the KerasTensors the op returns.
        replay: a function to replay instead of ``hl.ops.<public>`` (a function made by ``custom_gradient``).
    """
    from highlevel.node import Node, OpCall

    Node(OpCall(public, replay), args, kwargs, outputs)
    return outputs
