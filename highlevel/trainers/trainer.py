"""``compile`` / ``fit`` / ``evaluate`` / ``predict``: the training loop, written once for every backend.

The loop, callbacks and data handling live here; the backend contract supplies how a step gets its gradients
(``variables_value_and_grad``) and how it runs (``compile_step``: eager, ``jax.jit`` over the state, or a
``tf.function``). A subclass may override :meth:`Trainer.train_step`, :meth:`Trainer.test_step`,
:meth:`Trainer.predict_step` or :meth:`Trainer.compute_loss`; the overrides run compiled on every backend as
long as they use ``hl.ops`` and change state only through ``variable.assign``.
"""

import contextlib
import functools
import threading
import warnings
import weakref

import numpy as np

from highlevel import ops
from highlevel.backends.contract import Variable, tree
from highlevel.backends.contract import dtypes as _dtypes
from highlevel.backends.contract.index_checks import enabled as index_checks_enabled
from highlevel.config import _running_step, current_backend
from highlevel.distribution import step_sync
from highlevel.index_range import error_from
from highlevel.layer import layer_walk_cache
from highlevel.masking import get_keras_mask, set_keras_mask
from highlevel.optimizers.optimizer import Optimizer

from . import arguments, shape_buckets
from .compile_utils import CompileLoss, CompileMetrics
from .data_adapters import ArrayDataAdapter, EpochIterator, get_data_adapter
from .data_adapters.utils import train_validation_split, unpack_x_y_sample_weight
from .interrupts import deferred_interrupt
from .stateless import StatelessTraining


def _engine_pinned(method):
    """``fit``/``evaluate``/``predict``...: while one runs, no other thread may switch the process-wide backend
    (``hl.config.set_backend`` refuses with a clear error) under its operations."""

    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        with _running_step():
            return method(*args, **kwargs)

    return wrapper


def _has_its_variables(metric):
    """Whether ``metric`` surely has all its variables: one of highlevel's own metric classes, which say with
    ``built = False`` that their first update makes more (a metric of the user's own may make some at any time)."""
    return type(metric).__module__.startswith("highlevel.metrics.") and getattr(metric, "built", True) is not False


class Trainer(StatelessTraining):
    """The training API of :class:`highlevel.Model` (Keras 3's ``Trainer``).

    A ``train_step``, ``test_step`` or ``predict_step`` override may take ``(state, data)`` instead of ``data``
    (the JAX style; see :mod:`highlevel.trainers.stateless`).
    """

    _compiled = False
    # Defaults for a model that predicts without having been compiled.
    run_eagerly = False
    jit_compile = "auto"
    _train_function = None
    _test_function = None
    _predict_function = None
    _lean_train_function = None
    _lean_test_function = None
    #: the ``loss`` given to :meth:`compile` (None before), as Keras keeps it
    loss = None

    # ------------------------------------------------------------------ compile
    def compile(
        self,
        optimizer="rmsprop",
        loss=None,
        loss_weights=None,
        metrics=None,
        weighted_metrics=None,
        run_eagerly=False,
        steps_per_execution=1,
        jit_compile="auto",
        auto_scale_loss=True,
    ):
        """Sets up the model for training: its optimizer, losses and metrics.

        ``fit``, ``evaluate``, ``train_on_batch`` and ``test_on_batch`` need a compiled model (``predict`` does
        not). Compiling again replaces the optimizer, losses and metrics and forgets the compiled step functions;
        the weights stay as they are.

        Args:
            optimizer: the optimizer: a name (``"adam"``, ``"sgd"``, ``"rmsprop"``, ...) with its default
                settings, a config dict, or an :class:`~highlevel.optimizers.Optimizer` instance. Default
                ``"rmsprop"``.
            loss: what training minimises: a loss name (``"mse"``, ``"sparse_categorical_crossentropy"``,
                ...), a :class:`~highlevel.losses.Loss` instance, or a function ``fn(y_true, y_pred)`` returning
                one value per sample. A model with several outputs takes a list (one per output, in order) or a
                dict keyed by output name; outputs given None have no loss. None (default) means no compiled loss:
                only losses added by layers (``add_loss``) or a custom ``train_step`` train the model.
            loss_weights: scalars that weight each output's loss in the total loss, as a list (one per output)
                or a dict keyed by output name. Default None: every loss has weight 1.
            metrics: what to report during training and evaluation: metric names (``"accuracy"``, ``"mae"``,
                ...), :class:`~highlevel.metrics.Metric` instances or functions ``fn(y_true, y_pred)``, as a
                list; for several outputs, a list of lists or a dict keyed by output name. ``"accuracy"`` (or
                ``"acc"``) picks the binary, categorical or sparse categorical variant that fits the loss and the
                output's shape. These metrics ignore ``sample_weight`` and ``class_weight``.
            weighted_metrics: metrics given the same way as ``metrics`` that do take ``sample_weight`` (or the
                weights ``class_weight`` gives) into account. Default None.
            run_eagerly: if True, every step runs as plain Python, one op at a time (no ``jax.jit``,
                ``tf.function`` or recorded replay): slower, but a debugger and ``print`` see every value.
                Default False.
            steps_per_execution: accepted for Keras programs and stored on the model; every batch runs as its
                own step whatever its value. Default 1.
            jit_compile: how the training and evaluation steps are compiled. ``"auto"`` (default): the way each
                engine does best: ``jax.jit`` on JAX, ``tf.function`` on TensorFlow, and on PyTorch and the native
                engine a step recorded once per input signature and replayed without the front end's Python (a
                step that reads tensor values on the host falls back to running eagerly). ``True`` also asks for
                the engine's extra compiler (XLA on TensorFlow, ``torch.compile`` of the recorded step on
                PyTorch). ``False`` keeps the PyTorch and native steps eager. Keras runs PyTorch steps eagerly by
                default; pass ``False`` (or ``run_eagerly=True``) for a step whose Python must run on every
                batch.
            auto_scale_loss: if True (default) and the model's dtype policy is ``"mixed_float16"``, the
                optimizer is wrapped in a :class:`~highlevel.optimizers.LossScaleOptimizer`, which scales the
                loss so that float16 gradients do not underflow.

        Returns:
            None. The model is compiled in place.

        Raises:
            ValueError: ``jit_compile`` is not True, False or ``"auto"``, or the optimizer name is unknown. An
                unknown loss or metric name, or a per-output list/dict that does not match the model's outputs,
                raises ValueError when the first step runs (in ``fit``, ``evaluate``, ...), once the outputs are
                known.

        >>> import numpy as np
        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
        >>> model.optimizer.name, model.loss
        ('sgd', 'mse')
        >>> logs = model.evaluate(np.ones((4, 2)), np.zeros((4, 1)), verbose=0, return_dict=True)
        >>> sorted(logs)
        ['loss', 'mae']
        """
        from highlevel import metrics as metrics_module
        from highlevel import optimizers

        self.optimizer = optimizers.get(optimizer)
        if (
            auto_scale_loss
            and self.dtype_policy.name == "mixed_float16"
            and not isinstance(self.optimizer, optimizers.LossScaleOptimizer)
        ):
            # float16 gradients underflow without loss scaling (Keras wraps the optimizer the same way).
            self.optimizer = optimizers.LossScaleOptimizer(self.optimizer, name="loss_scale_optimizer")
        output_names = self._output_names_for_compile()
        self._compile_loss = CompileLoss(loss, loss_weights, output_names) if loss is not None else None
        self._compile_metrics = (
            CompileMetrics(metrics, weighted_metrics, output_names, loss=loss)
            if metrics is not None or weighted_metrics is not None
            else None
        )
        self._loss_tracker = metrics_module.Mean(name="loss")
        self.run_eagerly = bool(run_eagerly)
        if jit_compile not in ("auto", True, False):
            raise ValueError(f"jit_compile must be True, False or 'auto'; received {jit_compile!r}.")
        self.jit_compile = jit_compile
        self.steps_per_execution = steps_per_execution
        self.loss = loss
        self._compile_config = {
            "optimizer": optimizer,
            "loss": loss,
            "loss_weights": loss_weights,
            "metrics": metrics,
            "weighted_metrics": weighted_metrics,
            "run_eagerly": run_eagerly,
            "jit_compile": jit_compile,
        }
        self._compiled = True
        self._reset_step_functions()
        self.stop_training = False

    def _step_trainable_variables(self):
        """The trainable variables a training step updates, listed once the model is built.

        Walking the layer tree every step costs, so the list is kept; but only once the model is built: a list
        taken before (an unbuilt model has no variables yet) would be empty, and a step that kept it would train
        nothing. ``fit``, ``train_on_batch`` and ``compile`` forget the list, so that freezing or unfreezing
        layers between calls takes effect.
        """
        cached = getattr(self, "_trainable_cache", None)
        if cached is None:
            cached = self.trainable_variables
            if self.built:
                self._trainable_cache = cached
        return cached

    def _sync_train_step_variables(self):
        """Before the first step of ``fit``/``train_on_batch`` (the model is built): takes the trainable variables
        afresh and drops a compiled training step that was made for another list.

        A compiled step (``jax.jit``, ``tf.function``, a recorded replay) has its trainable variables and each
        layer's trainable-dependent behaviour built in; when they changed since it was made (layers frozen or
        unfrozen, a model built since), it is made again. An optimizer built before a layer was unfrozen is
        extended with slots for the newly trainable variables (Keras refuses them; a demanding user expects the
        unfrozen layer to train).
        """
        self._trainable_cache = None
        variables = self._step_trainable_variables()
        key = tuple(id(v) for v in variables)
        if getattr(self, "_train_function_trainable", None) != key:
            self._train_function = self._lean_train_function = None
        self._train_function_trainable = key
        if getattr(self.optimizer, "built", False):
            self.optimizer._track_new_variables(variables)
        _check_trainable_variables(self, variables)

    def _reset_step_functions(self):
        self._trainable_cache = None
        self._train_function = None
        self._test_function = None
        self._predict_function = None
        self._lean_train_function = None
        self._lean_test_function = None

    def _output_names_for_compile(self):
        names = getattr(self, "output_names", None)
        try:
            return list(names) if names else None
        except TypeError:
            return None

    def _assert_compiled(self, what):
        if not self._compiled:
            raise ValueError(
                f"You must call model.compile(optimizer=..., loss=...) before model.{what}(). The model "
                f"'{self.name}' has not been compiled."
            )

    @property
    def metrics(self):
        """The metrics ``fit`` resets and reports, loss first: the loss tracker, the compiled losses' and metrics'
        trackers, then the metrics the model and its layers hold as attributes (``self.mae = hl.metrics.Mean()``),
        as in Keras. A subclass may override the property to choose its own list."""
        out = []
        if self._compiled:
            out.append(self._loss_tracker)
            if self._compile_loss is not None:
                out.extend(self._compile_loss.metrics)
            if self._compile_metrics is not None:
                out.extend(self._compile_metrics.metrics)
        exclude = {id(m) for m in out} | {id(getattr(self, "_loss_tracker", None))}
        out.extend(self._held_metrics(exclude, skip_nested_models=True))  # a nested model's own are its fit's
        return out

    # Keras 2's hooks for a custom train_step, kept (deprecated) by Keras 3: they run the compiled loss and metrics.
    def compiled_loss(self, y, y_pred, sample_weight=None, regularization_losses=None):
        """The compiled loss of ``y_pred`` against ``y``, plus ``regularization_losses`` (deprecated: use
        :meth:`compute_loss`).

        As Keras 2's ``compiled_loss`` did, the value is also recorded in the ``loss`` entry of :attr:`metrics`,
        so that a ``train_step`` returning ``{m.name: m.result() for m in self.metrics}`` reports it.

        Args:
            y, y_pred: the targets and the model's outputs.
            sample_weight: optional weights, as in ``fit``.
            regularization_losses: a list of scalar losses to add (``self.losses``); None adds none.
        """
        self._assert_compiled("compiled_loss")
        warnings.warn(
            "model.compiled_loss(...) is deprecated; use model.compute_loss(x, y, y_pred, sample_weight) instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        if self._compile_loss is None:
            raise ValueError(
                f"model.compiled_loss(...): model '{self.name}' was compiled without a loss; pass `loss=` to compile()."
            )
        total = self._compile_loss(y, y_pred, sample_weight)
        for value in regularization_losses or ():
            total = total + value
        self._loss_tracker.update_state(total, sample_weight=_batch_size(y_pred))
        return total

    @property
    def compiled_metrics(self):
        """The compiled metrics (deprecated: use :meth:`compute_metrics`); ``model.compiled_metrics.update_state(y,
        y_pred, sample_weight)`` updates them, as in Keras."""
        self._assert_compiled("compiled_metrics")
        return _CompiledMetricsShim(self)

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    @property
    def compiled(self):
        """Whether :meth:`compile` has been called on this model."""
        return bool(self._compiled)

    @property
    def metrics_variables(self):
        """The state variables of every metric in :attr:`metrics` (the loss tracker's included)."""
        out = []
        for metric in self.metrics:
            out.extend(metric.variables)
        return out

    def reset_metrics(self):
        """Resets the state of every metric of the model (the loss tracker and the compiled metrics).

        ``fit`` calls it at the start of each epoch and ``evaluate`` before it starts, so results average over one
        pass only.

        Returns:
            None.

        >>> import numpy as np
        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((1,)), hl.layers.Dense(1, kernel_initializer="ones")])
        >>> model.compile(loss="mse")
        >>> _ = model.evaluate(np.ones((2, 1)), np.zeros((2, 1)), verbose=0)
        >>> model.reset_metrics()
        >>> float(model.get_metrics_result()["loss"])
        0.0
        """
        for m in self.metrics:
            m.reset_state()

    # -------------------------------------------------------------- the steps
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """Computes the total loss of one batch: the compiled losses plus the model's own.

        The model's own losses are those added with ``add_loss`` during the forward pass and the weight
        regularization penalties. Override it to change what training minimises; ``train_step`` and ``test_step``
        call it.

        Args:
            x: the batch's inputs (unused by the default; available to an override).
            y: the batch's targets, or None.
            y_pred: the model's outputs on ``x``.
            sample_weight: per-sample weights for the compiled losses, or None.
            training: whether the call is part of training (default True).

        Returns:
            A scalar tensor.

        Raises:
            ValueError: there is nothing to minimise: no compiled loss and no added loss, or a compiled loss without
                targets ``y``.

        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((1,)), hl.layers.Dense(1)])
        >>> model.compile(loss="mse")
        >>> y, y_pred = hl.ops.convert_to_tensor([[1.0], [3.0]]), hl.ops.convert_to_tensor([[0.0], [0.0]])
        >>> float(hl.ops.convert_to_numpy(model.compute_loss(y=y, y_pred=y_pred)))
        5.0
        """
        losses = []
        if self._compile_loss is not None and y is not None:
            value = self._compile_loss(y, y_pred, sample_weight)
            if value is not None:
                losses.append(value)
        losses.extend(self.losses)
        if not losses:
            if self._compile_loss is None:
                raise ValueError(
                    f"Model '{self.name}' has no loss to minimise: pass `loss=` to compile(), or add losses in "
                    "call() with self.add_loss()."
                )
            raise ValueError("The compiled loss needs targets: pass `y` to fit()/evaluate() (or yield (x, y) batches).")
        total = losses[0]
        for value in losses[1:]:
            total = total + value
        return total

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        """Updates the compiled metrics with one batch and returns every metric's current result.

        Override it to report other values; ``train_step`` and ``test_step`` call it after the loss.

        Args:
            x: the batch's inputs (unused by the default).
            y: the batch's targets; without them the compiled metrics are not updated.
            y_pred: the model's outputs on ``x``.
            sample_weight: per-sample weights for the ``weighted_metrics``, or None.

        Returns:
            A dict from metric name to its current result (a scalar tensor), as :meth:`get_metrics_result` gives.

        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((1,)), hl.layers.Dense(1)])
        >>> model.compile(loss="mse", metrics=["mae"])
        >>> logs = model.compute_metrics(None, hl.ops.ones((2, 1)), hl.ops.zeros((2, 1)))
        >>> float(hl.ops.convert_to_numpy(logs["mae"]))
        1.0
        """
        if self._compile_metrics is not None and y is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        """Returns the current result of every metric of the model, by name.

        A metric whose result is a dict contributes each of its entries.

        Returns:
            A dict from name (``"loss"``, each compiled metric's name) to a scalar tensor.

        >>> import numpy as np
        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((1,)), hl.layers.Dense(1, kernel_initializer="ones")])
        >>> model.compile(loss="mse", metrics=["mae"])
        >>> _ = model.evaluate(np.ones((2, 1)), np.zeros((2, 1)), verbose=0)
        >>> {k: float(hl.ops.convert_to_numpy(v)) for k, v in model.get_metrics_result().items()}
        {'loss': 1.0, 'mae': 1.0}
        """
        results = {}
        for m in self.metrics:
            r = m.result()
            if isinstance(r, dict):
                results.update(r)
            else:
                results[m.name] = r
        return results

    def train_step(self, state=None, data=None):
        """One optimization step on a batch: ``train_step(data)`` returns the metrics' results.

        Called as ``train_step(state, data)`` (from the ``super()`` call of an override in the JAX style), it is the
        same step as a pure function of the state: returns ``(logs, new_state)`` and assigns nothing.

        The signature is Keras's JAX one, ``(state, data)``, and a single argument (by position or as ``data=``)
        is the batch, as in Keras's other trainers: both ``super().train_step(data)`` and
        ``super().train_step(state, data)`` work. An override may take either ``(self, data)`` or ``(self, state,
        data)``; ``fit`` tells them apart by their required arguments.

        Args:
            state: in the JAX style, the tuple of variable values ``(trainable, non_trainable, optimizer, metrics)``;
                otherwise the batch itself, when called with one argument.
            data: the batch: ``(x, y)``, ``(x, y, sample_weight)`` or ``x`` alone, as the data adapter yields it.

        Returns:
            A dict from metric name (``"loss"``, each compiled metric) to its current result; in the JAX style, the pair
            ``(logs, new_state)``.

        Override it to customise training while keeping ``fit``'s loop, callbacks and progress display:

        >>> import numpy as np
        >>> import highlevel as hl
        >>> class Counting(hl.Sequential):
        ...     steps = 0
        ...     def train_step(self, data):
        ...         type(self).steps += 1
        ...         return super().train_step(data)
        >>> model = Counting([hl.Input((1,)), hl.layers.Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse", jit_compile=False)
        >>> history = model.fit(np.ones((8, 1)), np.ones((8, 1)), batch_size=4, epochs=2, verbose=0)
        >>> Counting.steps, sorted(history.history)
        (4, ['loss'])
        """
        stateless, data = _step_arguments("train_step", state, data)
        if stateless:
            return self._stateless_default("train_step", state, data)
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        loss, y_pred = self._train_update(x, y, sample_weight)
        with step_sync.metric_sync(self, x) as sync:  # under a distribution: adds up the replicas' updates
            self._loss_tracker.update_state(loss, sample_weight=_batch_size(x))
            logs = self.compute_metrics(x, y, y_pred, sample_weight)
        return sync.results(logs)

    def _train_update(self, x, y, sample_weight):
        """The forward pass, the gradients and the optimizer's update; returns ``(loss, y_pred)``."""

        def loss_fn():
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight, training=True)
            # Differentiate the scaled loss (loss scaling, as Keras); the metrics see the unscaled one. The outputs'
            # masks go along: an engine may hand back other tensor objects than those the model returned.
            masks = [get_keras_mask(p) for p in tree.flatten(y_pred)[0]]
            return self.optimizer.scale_loss(loss), (loss, y_pred, masks)

        trainable = self._step_trainable_variables()
        # Under a distribution the gradients come back averaged over the replicas (the global batch's).
        (_, (loss, y_pred, masks)), grads = step_sync.value_and_grad(loss_fn, trainable, x)
        for p, mask in zip(tree.flatten(y_pred)[0], masks):
            set_keras_mask(p, mask)  # for the metrics
        # With a TerminateOnNaN callback, a batch whose loss or any gradient is not finite leaves the weights as
        # they were. The gradients are checked too: a NaN can miss the loss and still reach them (inside a
        # tf.function, TensorFlow fuses MatMul/Conv2D + BiasAdd + Relu into one kernel that turns NaN into 0).
        only_if = _all_finite(loss, grads) if getattr(self, "_guard_nonfinite", False) else None
        self.optimizer.apply(grads, trainable, only_if=only_if)
        if only_if is not None:
            # A step kept out of the weights reports a NaN loss, so that TerminateOnNaN (which reads the loss)
            # stops on a batch whose loss was finite but whose gradients were not.
            loss = ops.where(only_if, loss, float("nan"))
        return loss, y_pred

    def test_step(self, state=None, data=None):
        """Evaluates one batch: ``test_step(data)`` returns the metrics' results; ``test_step(state, data)`` (the
        JAX style) returns ``(logs, (trainable, non_trainable, metrics) values)`` and assigns nothing. A single
        argument is the batch (see :meth:`train_step`).

        Args:
            state: in the JAX style, the tuple of variable values ``(trainable, non_trainable, metrics)``;
                otherwise the batch itself, when called with one argument.
            data: the batch: ``(x, y)``, ``(x, y, sample_weight)`` or ``x`` alone.

        Returns:
            A dict from metric name to its current result; in the JAX style, the pair described above.

        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((1,)), hl.layers.Dense(1, kernel_initializer="ones")])
        >>> model.compile(loss="mse")
        >>> logs = model.test_step((hl.ops.ones((2, 1)), hl.ops.zeros((2, 1))))
        >>> {k: float(hl.ops.convert_to_numpy(v)) for k, v in logs.items()}
        {'loss': 1.0}
        """
        stateless, data = _step_arguments("test_step", state, data)
        if stateless:
            return self._stateless_default("test_step", state, data)
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        loss, y_pred = self._test_forward(x, y, sample_weight)
        with step_sync.metric_sync(self, x) as sync:
            self._loss_tracker.update_state(loss, sample_weight=_batch_size(x))
            logs = self.compute_metrics(x, y, y_pred, sample_weight)
        return sync.results(logs)

    def _test_forward(self, x, y, sample_weight):
        y_pred = self(x, training=False)
        return self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight, training=False), y_pred

    # Logs on demand: when no callback reads a batch's logs and the model keeps Trainer's own steps and metric
    # methods, the compiled step only updates the metrics' state, and the results (a division per metric) are
    # computed once, when the epoch or the evaluation ends. They equal what the last step would have returned.
    def _lean_train_step(self, data):
        """:meth:`train_step` without its logs: the update and the metric states only; returns ``{}``."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        loss, y_pred = self._train_update(x, y, sample_weight)
        self._update_metric_states(x, y, y_pred, sample_weight, loss)
        return {}

    def _lean_test_step(self, data):
        """:meth:`test_step` without its logs (see :meth:`_lean_train_step`)."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        loss, y_pred = self._test_forward(x, y, sample_weight)
        self._update_metric_states(x, y, y_pred, sample_weight, loss)
        return {}

    def _update_metric_states(self, x, y, y_pred, sample_weight, loss):
        # What compute_metrics does before it reads the results, under the same replica combination.
        with step_sync.metric_sync(self, x):
            self._loss_tracker.update_state(loss, sample_weight=_batch_size(x))
            if self._compile_metrics is not None and y is not None:
                self._compile_metrics.update_state(y, y_pred, sample_weight)

    def _logs_on_demand(self, step_name):
        """Whether a lean step may stand for ``step_name``: the model overrides none of the methods it skips."""
        cls = type(self)
        return all(
            getattr(cls, name) is getattr(Trainer, name)
            for name in (step_name, "compute_metrics", "get_metrics_result")
        )

    def predict_step(self, state=None, data=None):
        """The model's outputs for one batch: ``predict_step(data)``; ``predict_step(state, data)`` (the JAX style)
        returns ``(outputs, non_trainable_values)`` and assigns nothing. A single argument is the batch (see
        :meth:`train_step`).

        Args:
            state: in the JAX style, the tuple of variable values ``(trainable, non_trainable)``; otherwise the
                batch itself, when called with one argument.
            data: the batch: ``(x,)``, ``x`` alone, or ``(x, y)`` whose ``y`` is ignored.

        Returns:
            The model's outputs on ``x`` (in inference mode), as tensors; in the JAX style, the pair described above.

        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((1,)), hl.layers.Dense(1, kernel_initializer="ones")])
        >>> hl.ops.convert_to_numpy(model.predict_step((hl.ops.ones((2, 1)),))).tolist()
        [[1.0], [1.0]]
        """
        stateless, data = _step_arguments("predict_step", state, data)
        if stateless:
            return self._stateless_default("predict_step", state, data)
        x, _, _ = unpack_x_y_sample_weight(data)
        return self(x, training=False)

    # ---------------------------------------------------- building and state
    def _prepare(self, batch):
        """Builds the model, losses, metrics and optimizer from a first batch (nothing is trained)."""
        x, y, sample_weight = unpack_x_y_sample_weight(batch)
        needs_output = not self.built or (
            self._compiled
            and (
                (self._compile_loss is not None and not self._compile_loss.built)
                or (self._compile_metrics is not None and not self._compile_metrics.built)
            )
        )
        # An engine that settles a variable's layout on its first use (PyTorch's column-major dense kernels) needs
        # a forward pass before the optimizer's slots are made to match it: it always gets one.
        forward = not self.built or current_backend().capabilities.layouts_set_on_first_use
        if needs_output and not forward and not (self._compiled and y is not None):
            needs_output = False  # built, and nothing to build from its outputs: no forward pass at all
        if needs_output:
            # A built graph model knows its outputs' shapes: zeros of those shapes build the loss and metrics, where
            # a forward pass would cost a batch's compute and, on an engine that compiles each eager op (JAX), one
            # program per op of the model (seconds for a deep model's first fit).
            y_pred = None if forward else self._outputs_for_building(x)
            if y_pred is None:
                y_pred = self(x, training=False)
            if self._compiled and y is not None:
                if self._compile_loss is not None and not self._compile_loss.built:
                    self._compile_loss.build(y, y_pred)
                if self._compile_metrics is not None and not self._compile_metrics.built:
                    self._compile_metrics.build(y, y_pred)
                    # Some metrics (R2Score, F1Score, AUC without num_labels) create their variables on their first
                    # update: do it now, eagerly, so that a compiled step finds every variable in place. A built-in
                    # metric that has its variables already is left alone (an eager update costs one program per op
                    # on JAX); a metric of the user's own may make more on its first update: it always gets one.
                    lazy = [m for m in self._compile_metrics.metrics if not _has_its_variables(m)]
                    if lazy:
                        self._compile_metrics.update_state(y, y_pred, sample_weight, only=lazy)
                        for m in lazy:
                            m.reset_state()
        elif self._compiled and y is not None and self._compile_loss is not None:
            self._compile_loss.check_targets(y)  # a later fit or evaluate: its targets against the outputs
        if self._compiled and not getattr(self.optimizer, "built", False):
            self.optimizer.build(self.trainable_variables)

    def _outputs_for_building(self, x):
        """Stand-ins for this built model's outputs on the batch ``x`` (zeros of their shapes and dtypes), from
        which the compiled loss and metrics can be built without a forward pass; None where only a forward pass
        tells them (the default: a model's ``call`` is free to return anything). Graph models override it."""
        return None

    def _pads_predict_batches(self):
        """Whether ``predict`` may pad a short batch (see :mod:`highlevel.trainers.shape_buckets`)."""
        return self._buckets_batches("predict_step")

    def _buckets_batches(self, step_name):
        """Whether a short batch may be padded or split to bucket sizes: compiled steps, the default
        ``step_name`` method, no stateful layer (extra or split rows would move its state), and no distribution
        (its batches are split across replicas: a bucket of one row cannot be)."""
        return (
            not self.run_eagerly
            and step_sync.distribution() is None
            and getattr(type(self), step_name) is getattr(Trainer, step_name)
            and self._step_compiles()
            and not any(getattr(layer, "stateful", False) for layer in self._flatten_layers())
        )

    def _check_host_batch(self, batch, where="fit", step=0):
        """Refuses a batch whose host (numpy) arrays hold indices out of range (see
        :mod:`highlevel.trainers.index_checks`) or, with ``hl.config.set_check_numerics(True)``, values that are
        not finite (:mod:`highlevel.trainers.finite_checks`), before the step runs."""
        from highlevel import config as _config

        from . import index_checks

        if _config.check_numerics():
            from .finite_checks import check_finite

            check_finite(unpack_x_y_sample_weight(batch), where, step)

        compile_loss, compile_metrics = getattr(self, "_compile_loss", None), getattr(self, "_compile_metrics", None)
        key = (id(compile_loss), id(compile_metrics), getattr(compile_loss, "built", False), self.built)
        cached = self.__dict__.get("_host_batch_rules")
        if cached is None or cached[0] != key:
            rules = index_checks.target_rules(compile_loss, compile_metrics) + index_checks.input_rules(self)
            cached = (key, rules)
            self.__dict__["_host_batch_rules"] = cached
        if cached[1]:
            x, y, _ = unpack_x_y_sample_weight(batch)
            index_checks.check_batch(cached[1], x, y)

    def _state_variables(self, with_optimizer=True, with_metrics=True):
        out, seen = [], set()
        groups = [self.variables]
        if with_optimizer and self._compiled:
            groups.append(self.optimizer.variables)
            # Other optimizers the model holds (a GAN's custom train_step with one optimizer per network):
            # their slots are state of the training step too.
            for value in vars(self).values():
                if isinstance(value, Optimizer) and value is not self.optimizer:
                    groups.append(value.variables)
        if with_metrics and self._compiled:
            for m in self.metrics:
                groups.append(m.variables)
        for group in groups:
            for v in group:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    def _compile_function(self, step, with_optimizer, with_metrics, inference=False):
        key_order = []
        # An inference step (test, predict) runs in the engine's inference_scope: no autodiff graph on the engines
        # that record one as they go (native; PyTorch's torch.no_grad, as Keras runs its test and predict steps).
        inference_scope = current_backend().inference_scope if inference else contextlib.nullcontext
        if not self.run_eagerly and self._step_compiles():
            python_step = step

            def step_recording_keys(data):
                out = python_step(data)
                if isinstance(out, dict):
                    key_order[:] = list(out)
                return out

            # An inference step is expected only to read the model's weights (a layer that does update one in
            # inference, a stateful layer, still works: the hint only spares JAX from handing them back).
            step = current_backend().compile_step(
                step_recording_keys,
                self._state_variables(with_optimizer, with_metrics),
                jit_compile=self.jit_compile,
                read_only=self.variables if inference else (),
            )

        def run(data):
            # A step cannot change the model's structure: its layer-tree walks are memoised. Ctrl-C waits for the
            # step's end (see highlevel.trainers.interrupts): the model keeps the weights of a whole step.
            # One step of this model at a time: predict from one thread while another fits reads whole weights
            # (never a JAX buffer that the training step has just donated).
            with _step_lock(self), layer_walk_cache(), inference_scope(), deferred_interrupt():
                try:
                    out = step(data)
                except Exception as e:
                    # A failed index check inside a compiled step arrives as the engine's own error: give ours.
                    clear = error_from(e)
                    if clear is None or clear is e:
                        raise
                    raise clear from None
            # A compiled step may hand back its logs with the keys sorted (JAX flattens dicts by key): put them
            # back in the order the step made them (loss first), which evaluate()'s list follows.
            if key_order and isinstance(out, dict) and list(out) != key_order and set(out) == set(key_order):
                out = {k: out[k] for k in key_order}
            return out

        return run

    def _step_compiles(self):
        """False when a layer cannot run inside a compiled step (host-side string preprocessing layers set
        ``supports_jit = False``, as in Keras): the step then runs eagerly."""
        return all(getattr(layer, "supports_jit", True) for layer in self._flatten_layers())

    def _feeds_host_arrays(self):
        """Whether batches go to the compiled step as numpy arrays (the engine moves them itself)."""
        return (
            current_backend().capabilities.compiled_step_takes_host_arrays
            and not self.run_eagerly
            and self._step_compiles()
        )

    def _to_tensors(self, batch, host=False, borrow=False):
        backend = current_backend()
        floatx = _dtypes.floatx()
        float_np = np.dtype(floatx) if floatx != "bfloat16" else None
        # borrow: the batch is a slice of the user's in-memory arrays, which nothing changes while evaluate or
        # predict runs; an engine whose convert_to_tensor copies numpy arrays (native) may share it instead.
        to_tensor = backend.borrow_host_array if borrow else backend.convert_to_tensor

        def convert(a):
            if a is None or isinstance(a, Variable) or backend.is_tensor(a):
                return a
            a = np.asarray(a)
            if a.dtype.kind == "f" and float_np is not None and a.dtype != float_np:
                a = a.astype(floatx)  # float64 data trains in floatx, as in Keras
            if a.dtype.kind in "US" or host or _is_text_array(a):
                return a
            return to_tensor(a)

        return tree.map_structure(convert, batch)

    def _make_train_function(self, batch_logs=True):
        """The compiled training step; without ``batch_logs``, a lean one where the model allows it (see
        :meth:`_lean_train_step`). Check ``_lean_train_function`` after the call to know which."""
        if not batch_logs and self._logs_on_demand("train_step"):
            return self._step_function("_lean_train_function", self._lean_train_step, with_optimizer=True)
        step = self._stateful_form("train_step") or self.train_step
        return self._step_function("_train_function", step, with_optimizer=True)

    def _make_test_function(self, batch_logs=True):
        """The compiled test step; without ``batch_logs``, a lean one where the model allows it."""
        if not batch_logs and self._logs_on_demand("test_step"):
            return self._step_function("_lean_test_function", self._lean_test_step, with_optimizer=False)
        step = self._stateful_form("test_step") or self.test_step
        return self._step_function("_test_function", step, with_optimizer=False)

    def _step_function(self, attr, step, with_optimizer):
        """The training (``with_optimizer``) or test ``step`` compiled and placed for the distribution, made once
        and kept in ``attr``."""
        function = getattr(self, attr)
        if function is None or _made_without_current_checks(function):
            compiled = self._compile_function(
                step_sync.distribute_step(step), with_optimizer, True, inference=not with_optimizer
            )
            function = _mark_checks(
                step_sync.distribute_function(compiled, self._state_variables(with_optimizer, True))
            )
            setattr(self, attr, function)
        return function

    @property
    def train_function(self):
        """The compiled training step once ``fit`` (or :meth:`make_train_function`) made it, else None."""
        return self._train_function if self._train_function is not None else self._lean_train_function

    @property
    def test_function(self):
        """The compiled evaluation step once ``evaluate`` (or :meth:`make_test_function`) made it, else None."""
        return self._test_function if self._test_function is not None else self._lean_test_function

    @property
    def predict_function(self):
        """The compiled prediction step once ``predict`` (or :meth:`make_predict_function`) made it, else None."""
        return self._predict_function

    # ------------------------------------------------------------ state tree
    def _state_groups(self):
        optimizer = getattr(self, "optimizer", None)
        return {
            "trainable_variables": self.trainable_variables,
            "non_trainable_variables": self.non_trainable_variables,
            "optimizer_variables": list(optimizer.variables) if optimizer is not None else [],
            "metrics_variables": self.metrics_variables,
        }

    def get_state_tree(self, value_format="backend_tensor"):
        """The model's variables as nested dicts keyed by the parts of their paths, in four groups:
        ``trainable_variables``, ``non_trainable_variables``, ``optimizer_variables``, ``metrics_variables``.

        Args:
            value_format: ``"backend_tensor"`` (the engine's tensors) or ``"numpy_array"``.

        Raises:
            ValueError: an unknown ``value_format``, or two variables of a group with the same path.
        """
        if value_format not in ("backend_tensor", "numpy_array"):
            raise ValueError(
                f"get_state_tree(value_format=...) must be 'backend_tensor' or 'numpy_array'; received "
                f"{value_format!r}."
            )
        tree_out = {}
        for group, variables in self._state_groups().items():
            nested, seen = {}, set()
            for v in variables:
                if v.path in seen:
                    raise ValueError(
                        f"get_state_tree: the variable path '{v.path}' appears twice in "
                        f"{group}; give the layers unique names."
                    )
                seen.add(v.path)
                node = nested
                *parents, leaf = v.path.split("/")
                for part in parents:
                    node = node.setdefault(part, {})
                node[leaf] = v.numpy() if value_format == "numpy_array" else v.value
            tree_out[group] = nested
        return tree_out

    def set_state_tree(self, state_tree):
        """Assigns the variables from a tree shaped as :meth:`get_state_tree`'s (groups or variables left out
        keep their values).

        Raises:
            ValueError: an unknown group, or a path no variable of the group has.
        """
        if not isinstance(state_tree, dict):
            raise ValueError(
                f"set_state_tree expects the dict get_state_tree() returns; received {type(state_tree).__name__}."
            )
        groups = self._state_groups()
        for group, nested in state_tree.items():
            if group not in groups:
                raise ValueError(f"set_state_tree: unknown group {group!r}; expected some of {sorted(groups)}.")
            by_path = {v.path: v for v in groups[group]}
            stack = [("", nested)]
            while stack:
                prefix, node = stack.pop()
                for key, value in node.items():
                    path = f"{prefix}/{key}" if prefix else key
                    if isinstance(value, dict):
                        stack.append((path, value))
                    elif path in by_path:
                        by_path[path].assign(value)
                    else:
                        raise ValueError(
                            f"set_state_tree: no variable '{path}' in {group}; the model's are {sorted(by_path)}."
                        )

    def make_train_function(self, force=False):
        """The compiled training step (one batch in, the logs out) that ``fit`` runs, made once and kept.

        Args:
            force: make it again even if one exists (after changing the model's ``train_step``, for instance).
        """
        if force:
            self._train_function = None
        return self._make_train_function()

    def make_test_function(self, force=False):
        """The compiled evaluation step that ``evaluate`` runs, made once and kept (``force`` makes it again)."""
        if force:
            self._test_function = None
        return self._make_test_function()

    def make_predict_function(self, force=False):
        """The compiled prediction step that ``predict`` runs, made once and kept (``force`` makes it again)."""
        if force:
            self._predict_function = None
        return self._make_predict_function()

    def _make_predict_function(self):
        if self._predict_function is None or _made_without_current_checks(self._predict_function):
            self._predict_function = _mark_checks(
                step_sync.distribute_function(
                    self._compile_function(
                        self._stateful_form("predict_step") or self.predict_step, False, False, inference=True
                    ),
                    self._state_variables(False, False),
                    split_batches=False,
                )
            )
        return self._predict_function

    # -------------------------------------------------------------------- fit
    @_engine_pinned
    def fit(
        self,
        x=None,
        y=None,
        batch_size=None,
        epochs=1,
        verbose="auto",
        callbacks=None,
        validation_split=0.0,
        validation_data=None,
        shuffle=True,
        class_weight=None,
        sample_weight=None,
        initial_epoch=0,
        steps_per_epoch=None,
        validation_steps=None,
        validation_batch_size=None,
        validation_freq=1,
    ):
        """Trains the model on data for a number of epochs (passes over the data).

        Each epoch runs the training step (``train_step``: forward pass, loss, gradients, optimizer update) on
        every batch, then evaluates ``validation_data`` when given. Metrics are reset at the start of every
        epoch, so the logs of an epoch average over its batches. Shuffling draws from the host random stream, so
        one seed (:func:`highlevel.utils.set_random_seed`) gives the same batch order on every engine.

        Args:
            x: the inputs. One of: a numpy array or tensor (any engine's), or a list/tuple/dict of them for a
                model with several inputs; a list of strings (one batch-major text array); a Python generator
                or other iterable yielding ``(x, y)`` or ``(x, y, sample_weight)`` batches (a ``torch``
                ``DataLoader``, a ``tf.data.Dataset``); or an :class:`~highlevel.utils.PyDataset`. With a
                generator, dataset or PyDataset, ``y`` and ``sample_weight`` come from the data and must not be
                passed.
            y: the targets, in the same form as ``x`` (arrays, or a list/dict of them per output), with as many
                rows as ``x``. None for iterable data, or for a model trained without targets.
            batch_size: the number of samples per step, for array data (default 32). Iterable data is already
                batched: leave it None.
            epochs: the epoch to stop at (an int >= 0, default 1). Training runs epochs ``initial_epoch`` to
                ``epochs - 1``, so ``epochs`` is a final index, not a count, when ``initial_epoch`` is set.
            verbose: what is shown while training: 0 nothing, 1 a progress bar per epoch (plain lines where no
                live display is possible), 2 one line per epoch. ``"auto"`` (default) means 1.
            callbacks: a list of :class:`~highlevel.callbacks.Callback` instances called during training
                (checkpoints, early stopping, learning-rate schedules, ...). A ``History`` and, unless
                ``verbose`` is 0, a progress logger are added.
            validation_split: a float in ``[0, 1)``: the fraction of array data kept out of training (the last
                rows of ``x``, ``y`` and ``sample_weight``, before shuffling) and evaluated at the end of every
                epoch. Array data only; ignored when ``validation_data`` is given. Default 0.
            validation_data: data evaluated at the end of every epoch (the logs get ``val_``-prefixed
                entries): a tuple ``(x_val, y_val)`` or ``(x_val, y_val, sample_weight_val)`` of arrays, or an
                iterable or PyDataset of batches. The model never trains on it.
            shuffle: True (default) shuffles the rows of array data before every epoch; ``"batch"`` shuffles
                whole batches; False keeps the order. A :class:`~highlevel.utils.PyDataset` is visited in a new
                batch order each epoch unless False; generators and datasets are read in their own order.
            class_weight: a dict mapping a class index to a weight that multiplies the loss of that class's
                samples (for unbalanced classes). Array data with targets only; not together with
                ``sample_weight``.
            sample_weight: per-sample loss weights for array data: an array of shape ``(samples,)`` (or one
                matching the targets' leading axes), or a list/dict per output. Not together with
                ``class_weight``.
            initial_epoch: the epoch to start from (an int >= 0, default 0), to resume an earlier run; the
                epoch numbers that callbacks and the logs see start here.
            steps_per_epoch: the number of batches in one epoch. Default None: one pass over the data (the
                whole generator, for iterable data). With it, an epoch continues where the previous one stopped
                rather than restarting the data, and an infinite generator can be used.
            validation_steps: the number of batches of ``validation_data`` evaluated each time. Default None: all
                of it.
            validation_batch_size: the batch size of array ``validation_data`` (default ``batch_size``).
            validation_freq: when to validate: an int ``n`` >= 1 validates after every ``n``-th epoch (default 1,
                every epoch); a collection of epoch numbers (1-based, e.g. ``[1, 5, 10]``) validates after those.

        Returns:
            A :class:`~highlevel.callbacks.History` whose ``history`` dict maps each log name (``"loss"``,
            each metric, ``"val_loss"``, ...) to its list of per-epoch values (Python floats).

        Raises:
            ValueError: the model is not compiled; a count argument (``epochs``, ``batch_size``,
                ``steps_per_epoch``, ...) is not a non-negative or positive int; ``validation_freq`` is
                invalid; ``validation_split`` is used with non-array data; ``y`` or ``sample_weight`` is
                passed with a generator or dataset; ``class_weight`` and ``sample_weight`` are both given; or the
                data's shapes do not fit each other or the model.
            TypeError: ``x`` is not a supported kind of data.

        >>> import numpy as np
        >>> import highlevel as hl
        >>> hl.utils.set_random_seed(0)
        >>> x = np.linspace(-1, 1, 32, dtype="float32").reshape(-1, 1)
        >>> model = hl.Sequential([hl.Input((1,)), hl.layers.Dense(1)])
        >>> model.compile(optimizer=hl.optimizers.SGD(0.5), loss="mse")
        >>> history = model.fit(x, 3 * x, batch_size=8, epochs=5, verbose=0)
        >>> len(history.history["loss"]), history.history["loss"][-1] < history.history["loss"][0]
        (5, True)
        """
        from highlevel.callbacks import CallbackList

        self._assert_compiled("fit")
        epochs = arguments.count(epochs, "epochs", minimum=0, allow_none=False)
        initial_epoch = arguments.count(initial_epoch, "initial_epoch", minimum=0, allow_none=False)
        batch_size = arguments.count(batch_size, "batch_size", minimum=1)
        steps_per_epoch = arguments.count(steps_per_epoch, "steps_per_epoch", minimum=1)
        validation_steps = arguments.count(validation_steps, "validation_steps", minimum=1)
        validation_batch_size = arguments.count(validation_batch_size, "validation_batch_size", minimum=1)
        validation_freq = arguments.validation_frequency(validation_freq)
        backend = current_backend()
        if validation_split and validation_data is None:
            if not _is_arrays(x):
                raise ValueError(
                    "validation_split needs array data (it keeps the last part of x and y for validation); "
                    "for generators and datasets pass validation_data instead."
                )
            from .data_adapters.utils import to_numpy_structure

            arrays = to_numpy_structure((x, y, sample_weight), backend)
            (x, y, sample_weight), validation_data = train_validation_split(arrays, validation_split)
        # With steps_per_epoch, epochs take the next batches of the data, not its first ones again (EpochIterator).
        adapter = get_data_adapter(
            x, y, sample_weight, batch_size=batch_size, shuffle=shuffle, class_weight=class_weight, backend=backend
        )
        # hl.config.set_max_epochs / set_max_steps_per_epoch cap every fit (a quick smoke test of a script).
        from highlevel import config as _config

        if _config.max_epochs() is not None:
            epochs = min(epochs, _config.max_epochs())
        cap = _config.max_steps_per_epoch()
        if cap is not None:
            known = steps_per_epoch if steps_per_epoch is not None else adapter.num_batches
            steps_per_epoch = cap if known is None else min(known, cap)
        epochs_data = EpochIterator(adapter, steps_per_epoch)
        val_adapter = None
        if validation_data is not None:
            vx, vy, vsw = unpack_x_y_sample_weight(validation_data)
            val_adapter = get_data_adapter(
                vx, vy, vsw, batch_size=validation_batch_size or batch_size, steps=validation_steps, backend=backend
            )
        callbacks = (
            callbacks
            if isinstance(callbacks, CallbackList)
            else CallbackList(
                callbacks,
                add_history=True,
                add_progbar=verbose != 0,
                model=self,
                verbose=verbose,
                epochs=epochs,
                steps=epochs_data.num_batches,
            )
        )
        self.stop_training = False
        self._trainable_cache = None  # freezing between fits takes effect (see _sync_train_step_variables)
        self._in_fit = True
        logs = {}
        try:
            callbacks.on_train_begin()
            # Resuming an interrupted run: a callback (BackupAndRestore) may set, in on_train_begin, the epoch
            # to start from, how many of its batches were already trained, and a function that loads the
            # saved state once the model is built. Taken once: the next fit() starts afresh.
            resume_step, resume_restore = 0, None
            if getattr(self, "_initial_epoch", None) is not None:
                initial_epoch = self._initial_epoch
                resume_step = getattr(self, "_initial_step", 0) or 0
                resume_restore = getattr(self, "_resume_restore", None)
            self._initial_epoch, self._initial_step, self._resume_restore = None, 0, None
            for epoch in range(initial_epoch, epochs):
                self.reset_metrics()
                callbacks.on_epoch_begin(epoch)
                logs = self._run_epoch(epochs_data.epoch(), callbacks, skip=resume_step, restore=resume_restore)
                resume_step, resume_restore = 0, None  # only the first (resumed) epoch skips
                epoch_logs = dict(logs)
                if val_adapter is not None and _should_validate(epoch, validation_freq):
                    val_logs = self._evaluate_adapter(val_adapter, callbacks)
                    epoch_logs.update({f"val_{k}": v for k, v in val_logs.items()})
                callbacks.on_epoch_end(epoch, epoch_logs)
                logs = epoch_logs
                if self.stop_training:
                    break
            if getattr(self.optimizer, "built", False):
                # With use_ema, the weights become their moving averages at the end of training (as Keras).
                self.optimizer.finalize_variable_values(self.trainable_weights)
            callbacks.on_train_end(logs)
        finally:
            self._in_fit = False
            epochs_data.close()
        return callbacks.history

    def _run_epoch(self, batches, callbacks, skip=0, restore=None):
        # `skip` and `restore` resume an interrupted epoch (see fit): the first `skip` batches were trained
        # before the interruption and are passed over untrained (still drawn, so the data order is unchanged),
        # and `restore()` loads the saved state once the first batch has built the model and optimizer.
        logs = {}
        train_function, lean = None, False
        # Hooks nobody defines are not called per step, and logs nobody reads per batch stay tensors until the
        # epoch ends (see CallbackList.needs_train_batch_logs).
        wants_begin = getattr(callbacks, "needs_train_batch_begin", True)
        wants_logs = getattr(callbacks, "needs_train_batch_logs", True)
        host = self._feeds_host_arrays()
        memoised = False
        with contextlib.ExitStack() as walks:
            for step, batch in enumerate(batches):
                if step < skip and restore is None:
                    continue
                raw, batch = batch, self._to_tensors(batch, host=host and train_function is not None)
                if train_function is None:
                    if restore is not None:
                        from highlevel.random.host import host_rng

                        # Building may draw initial weights from the host stream; restore() overwrites them, so
                        # that draw must not move the stream either (later epochs' shuffles come from it).
                        rng_state = host_rng().bit_generator.state
                        self._prepare(batch)
                        host_rng().bit_generator.state = rng_state
                    else:
                        self._prepare(batch)
                    self._sync_train_step_variables()
                    train_function = self._make_train_function(batch_logs=wants_logs)
                    lean = train_function is self._lean_train_function
                if restore is not None:
                    restore()
                    restore = None
                    logs = _pythonify(self.get_metrics_result())  # the epoch's logs if every batch is skipped
                if step < skip:
                    continue
                self._check_host_batch(raw, "fit", step)
                if wants_begin:
                    callbacks.on_train_batch_begin(step)
                logs = train_function(batch)
                if not memoised:
                    # Once a step has run, everything is built and the layer tree holds still until the epoch ends:
                    # its walks are memoised for the rest of the epoch, not only within each step.
                    walks.enter_context(layer_walk_cache())
                    memoised = True
                if wants_logs:
                    logs = _pythonify(logs)
                    callbacks.on_train_batch_end(step, logs)
                if self.stop_training:
                    break
        if train_function is not None and lean:
            logs = self.get_metrics_result()
        return _pythonify(logs)

    # --------------------------------------------------------------- evaluate
    @_engine_pinned
    def evaluate(
        self,
        x=None,
        y=None,
        batch_size=None,
        verbose="auto",
        sample_weight=None,
        steps=None,
        callbacks=None,
        return_dict=False,
    ):
        """Computes the loss and metrics of the model on data, batch by batch, without training.

        Metrics are reset first, then accumulated over every batch; the result averages over the whole data.

        Args:
            x: the inputs, in any form ``fit`` takes: arrays or tensors (or a list/dict of them), a list of
                strings, a generator or dataset yielding ``(x, y)`` or ``(x, y, sample_weight)`` batches, or a
                :class:`~highlevel.utils.PyDataset`.
            y: the targets for array ``x`` (None for iterable data, which yields its own).
            batch_size: the number of samples per batch for array data (default 32); leave None for iterable
                data.
            verbose: 0 shows nothing, 1 a progress bar, 2 a single line; ``"auto"`` (default) means 1.
            sample_weight: per-sample weights for array data, used by the loss and ``weighted_metrics``.
            steps: the number of batches to evaluate (default None: all of the data, or until the generator
                ends).
            callbacks: a list of :class:`~highlevel.callbacks.Callback` instances; their ``on_test_*`` hooks run.
            return_dict: if True, return a dict of the results by name.

        Returns:
            With ``return_dict=True``, a dict ``{"loss": ..., "<metric>": ...}`` of Python floats. Otherwise the
            loss alone (a float) when the model has no metrics, or the list of values in the order of
            ``model.metrics_names``.

        Raises:
            ValueError: the model is not compiled, ``batch_size`` or ``steps`` is not a positive int, or the
                data does not fit the model.
            TypeError: ``x`` is not a supported kind of data.

        >>> import numpy as np
        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1, kernel_initializer="ones")])
        >>> model.compile(loss="mse", metrics=["mae"])
        >>> x, y = np.ones((4, 2), "float32"), np.zeros((4, 1), "float32")
        >>> model.evaluate(x, y, verbose=0)
        [4.0, 2.0]
        >>> model.evaluate(x, y, verbose=0, return_dict=True)
        {'loss': 4.0, 'mae': 2.0}
        """
        from highlevel.callbacks import CallbackList

        self._assert_compiled("evaluate")
        batch_size = arguments.count(batch_size, "batch_size", minimum=1)
        steps = arguments.count(steps, "steps", minimum=1)
        adapter = get_data_adapter(x, y, sample_weight, batch_size=batch_size, steps=steps, backend=current_backend())
        callbacks = CallbackList(
            callbacks, add_progbar=verbose != 0, model=self, verbose=verbose, epochs=1, steps=adapter.num_batches
        )
        logs = self._evaluate_adapter(adapter, callbacks)
        if return_dict:
            return logs
        values = list(logs.values())
        return values[0] if len(values) == 1 else values

    def _evaluate_adapter(self, adapter, callbacks):
        self.reset_metrics()
        callbacks.on_test_begin()
        logs = {}
        test_function = None
        host = self._feeds_host_arrays()
        # As in fit: logs become Python floats per batch only when a callback reads them (a conversion waits
        # for the step, which on an asynchronous engine stops the next one from being queued).
        wants_logs = getattr(callbacks, "needs_test_batch_logs", True)
        wants_begin = getattr(callbacks, "needs_test_batch_begin", True)
        borrow = isinstance(adapter, ArrayDataAdapter)
        # A short batch runs as pieces of power-of-two sizes: few compiled programs (see shape_buckets).
        split = borrow and self._buckets_batches("test_step")
        for step, raw in enumerate(adapter.get_numpy_iterator()):
            pieces = shape_buckets.split_batch(raw, adapter.batch_size) if split else [raw]
            for i, piece in enumerate(pieces):
                batch = self._to_tensors(piece, host=host and test_function is not None, borrow=borrow)
                if test_function is None:
                    self._prepare(batch)
                    test_function = self._make_test_function(batch_logs=wants_logs)
                if i == 0:
                    self._check_host_batch(raw, "evaluate", step)
                    if wants_begin:
                        callbacks.on_test_batch_begin(step)
                logs = test_function(batch)
            if wants_logs:
                logs = _pythonify(logs)
                callbacks.on_test_batch_end(step, logs)
        if test_function is not None and test_function is self._lean_test_function:
            logs = self.get_metrics_result()
        logs = _pythonify(logs)
        callbacks.on_test_end(logs)
        return logs

    # ---------------------------------------------------------------- predict
    @_engine_pinned
    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """Computes the model's outputs on inputs, batch by batch, in inference mode.

        Layers run with ``training=False`` (dropout off, batch normalization with its moving statistics). The
        model needs no ``compile``; an unbuilt model is built on the first batch.

        Args:
            x: the inputs: arrays or tensors (or a list/dict of them for several inputs), a list of strings, a
                generator or dataset yielding batches (``x`` alone, or ``(x, y)`` whose ``y`` is ignored), or a
                :class:`~highlevel.utils.PyDataset`.
            batch_size: the number of samples per batch for array data (default 32); leave None for iterable
                data. It changes speed and memory, not the result.
            verbose: 0 shows nothing, 1 a progress bar, 2 a single line; ``"auto"`` (default) means 1.
            steps: the number of batches to predict (default None: all of the data).
            callbacks: a list of :class:`~highlevel.callbacks.Callback` instances; their ``on_predict_*`` hooks
                run.

        Returns:
            The outputs as numpy arrays, every batch concatenated along the first axis: one array of shape
            ``(samples, ...)`` for a single-output model, or the model's output structure (list or dict) of
            such arrays.

        Raises:
            ValueError: the data yielded no batch, or ``batch_size`` or ``steps`` is not a positive int.
            TypeError: ``x`` is not a supported kind of data.

        >>> import numpy as np
        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, kernel_initializer="ones")])
        >>> out = model.predict(np.ones((5, 3), "float32"), batch_size=2, verbose=0)
        >>> out.shape, out.dtype, out[0].tolist()
        ((5, 2), dtype('float32'), [3.0, 3.0])
        """
        from highlevel.callbacks import CallbackList

        backend = current_backend()
        batch_size = arguments.count(batch_size, "batch_size", minimum=1)
        steps = arguments.count(steps, "steps", minimum=1)
        adapter = get_data_adapter(x, None, None, batch_size=batch_size, steps=steps, backend=backend)
        callbacks = CallbackList(
            callbacks, add_progbar=verbose != 0, model=self, verbose=verbose, epochs=1, steps=adapter.num_batches
        )
        callbacks.on_predict_begin()
        outputs = []
        predict_function = None
        host = self._feeds_host_arrays()
        borrow = isinstance(adapter, ArrayDataAdapter)
        # The per-batch hooks only when a callback defines one (a loop's Python between two batches costs more
        # than its own time: see CHANGELOG.md, Performance).
        hooks = getattr(callbacks, "needs_predict_batch_hooks", True)
        to_numpy, is_tensor = backend.to_numpy, backend.is_tensor
        # A short batch is padded to a bucket of sizes, so that predicting many lengths reuses a few compiled
        # programs (see highlevel.trainers.shape_buckets).
        bucket_rows = borrow and self._pads_predict_batches()
        for step, batch in enumerate(adapter.get_numpy_iterator()):
            rows = None
            if bucket_rows:
                self._check_host_batch(batch, "predict", step)  # on the true rows, before padding
                batch, rows = shape_buckets.pad_batch(batch, adapter.batch_size)
            raw, batch = batch, self._to_tensors(batch, host=host and predict_function is not None, borrow=borrow)
            if predict_function is None:
                if not self.built:
                    self(unpack_x_y_sample_weight(batch)[0], training=False)
                predict_function = self._make_predict_function()
            if not bucket_rows:
                self._check_host_batch(raw, "predict", step)
            if hooks:
                callbacks.on_predict_batch_begin(step)
            out = predict_function(batch)
            out = to_numpy(out) if is_tensor(out) else tree.map_structure(to_numpy, out)
            if rows is not None:
                out = shape_buckets.cut(out, rows, shape_buckets.bucket(rows, adapter.batch_size))
            outputs.append(out)
            if hooks:
                callbacks.on_predict_batch_end(step, {"outputs": out})
        callbacks.on_predict_end()
        if not outputs:
            raise ValueError("predict() received no data: the input yielded no batches.")
        leaves = [tree.flatten(o)[0] for o in outputs]
        treedef = tree.flatten(outputs[0])[1]
        merged = [np.concatenate([lv[i] for lv in leaves], axis=0) for i in range(len(leaves[0]))]
        return tree.unflatten(treedef, merged)

    # ------------------------------------------------------- single batches
    @_engine_pinned
    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
        """Runs one training step (forward pass, gradients, optimizer update) on a single batch.

        Metrics are reset first, as in Keras, so the result describes this batch alone, not an average with
        earlier calls.

        Args:
            x: the batch's inputs: an array or tensor, or a list/dict of them for several inputs.
            y: the batch's targets (same forms as ``x``), or None for a model trained without targets.
            sample_weight: per-sample loss weights, an array of shape ``(batch,)``.
            class_weight: a dict mapping a class index to a loss weight for its samples; not together with
                ``sample_weight``.
            return_dict: if True, return a dict of the results by name.

        Returns:
            The loss and metrics after the step, computed on this batch: a dict with ``return_dict=True``;
            otherwise the loss alone (a float) when there are no metrics, or the list of values in the order
            of ``model.metrics_names``.

        Raises:
            ValueError: the model is not compiled, both ``class_weight`` and ``sample_weight`` are given, or
                the batch does not fit the model.

        >>> import numpy as np
        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
        >>> x, y = np.ones((4, 2), "float32"), np.ones((4, 1), "float32")
        >>> first = model.train_on_batch(x, y)
        >>> later = [model.train_on_batch(x, y) for _ in range(5)][-1]
        >>> round(first, 3), later < first
        (1.0, True)
        """
        self._assert_compiled("train_on_batch")
        from .data_adapters import utils

        if class_weight is not None:
            if sample_weight is not None:
                raise ValueError("Pass either class_weight or sample_weight to train_on_batch, not both.")
            sample_weight = utils.class_weight_to_sample_weight(utils.to_numpy_structure(y), class_weight)
        raw = utils.pack_x_y_sample_weight(x, y, sample_weight)
        batch = self._to_tensors(raw)
        self._prepare(batch)
        self._check_host_batch(raw, "train_on_batch")
        self._sync_train_step_variables()
        self.reset_metrics()
        logs = _pythonify(self._make_train_function()(batch))
        return _format_result(logs, return_dict)

    @_engine_pinned
    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """Computes the loss and metrics of the model on a single batch, without training.

        Metrics are reset first, so the result describes this batch alone.

        Args:
            x: the batch's inputs: an array or tensor, or a list/dict of them for several inputs.
            y: the batch's targets (same forms as ``x``).
            sample_weight: per-sample weights, an array of shape ``(batch,)``.
            return_dict: if True, return a dict of the results by name.

        Returns:
            A dict with ``return_dict=True``; otherwise the loss alone (a float) when there are no metrics, or
            the list of values in the order of ``model.metrics_names``.

        Raises:
            ValueError: the model is not compiled, or the batch does not fit the model.

        >>> import numpy as np
        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1, kernel_initializer="ones")])
        >>> model.compile(loss="mae")
        >>> model.test_on_batch(np.ones((3, 2), "float32"), np.zeros((3, 1), "float32"), return_dict=True)
        {'loss': 2.0}
        """
        self._assert_compiled("test_on_batch")
        from .data_adapters import utils

        raw = utils.pack_x_y_sample_weight(x, y, sample_weight)
        batch = self._to_tensors(raw)
        self._prepare(batch)
        self._check_host_batch(raw, "test_on_batch")
        self.reset_metrics()
        logs = _pythonify(self._make_test_function()(batch))
        return _format_result(logs, return_dict)

    @_engine_pinned
    def predict_on_batch(self, x):
        """Computes the model's outputs on a single batch, in inference mode.

        Args:
            x: the batch's inputs: an array or tensor, or a list/dict of them for several inputs.

        Returns:
            The outputs as numpy arrays, in the model's output structure (one array of shape ``(batch, ...)``
            for a single output).

        >>> import numpy as np
        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1, kernel_initializer="ones")])
        >>> model.predict_on_batch(np.ones((2, 3), "float32")).tolist()
        [[3.0], [3.0]]
        """
        backend = current_backend()
        batch = self._to_tensors((x,))
        if not self.built:
            self(batch[0], training=False)
        self._check_host_batch((x,), "predict_on_batch")
        return tree.map_structure(backend.to_numpy, self._make_predict_function()(batch))

    def get_compile_config(self):
        """The ``compile`` arguments as plain data (optimizer, losses and metrics by their configs), or None
        when the model was never compiled. Saving stores it; :meth:`compile_from_config` reads it back. Override
        both to save a custom model's own compile arguments."""
        from highlevel.saving import compile_io

        return compile_io.compile_config(self)

    def compile_from_config(self, config):
        """Compiles the model from :meth:`get_compile_config`'s output (loading calls it), and builds the
        optimizer's variables when the model is built, so that the saved optimizer state can be loaded into them.

        Raises:
            ValueError: ``config`` is not a compile config.
        """
        from highlevel.saving import compile_io
        from highlevel.saving.object_registry import allowed_objects

        if not isinstance(config, dict) or "optimizer" not in config:
            raise ValueError(
                f"compile_from_config expects the dict get_compile_config() returns (with an "
                f"'optimizer'); received {config!r}."
            )
        self.compile(**compile_io.compile_arguments(config, allowed_objects()))
        if self.built:
            self.optimizer.build(self.trainable_variables)


_STEP_LOCKS = weakref.WeakKeyDictionary()
_STEP_LOCKS_GUARD = threading.Lock()


def _made_without_current_checks(function):
    """Whether a compiled step was made with index checks in the other state (it is then made again: a step
    traced or recorded without them would not check; see ``hl.config.enable_index_checks``)."""
    return getattr(function, "_index_checks", index_checks_enabled()) != index_checks_enabled()


def _mark_checks(function):
    try:
        function._index_checks = index_checks_enabled()
    except AttributeError:  # a callable that takes no attributes: it is kept whatever the switch says
        pass
    return function


def _step_lock(model):
    """The lock a model's compiled steps (train, test, predict) hold while they run, one per model."""
    with _STEP_LOCKS_GUARD:
        try:
            lock = _STEP_LOCKS.get(model)
            if lock is None:
                lock = _STEP_LOCKS[model] = threading.RLock()
        except TypeError:  # a model that cannot be weakly referenced or hashed: no lock
            return contextlib.nullcontext()
    return lock


def _step_arguments(name, state, data):
    """``(stateless, batch)`` for a step called with ``state`` and ``data``: both given is the stateless form
    ``name(state, data)``; one alone (``name(data)`` puts the batch first) is the batch."""
    if state is not None and data is not None:
        return True, data
    if state is None and data is None:
        raise TypeError(
            f"{name}() takes (data) or, in the stateless style, (state, data); received no batch. Pass the batch: "
            f"{name}(data)."
        )
    return False, data if data is not None else state


def _all_finite(loss, grads):
    """A boolean scalar tensor: whether ``loss`` and every gradient are free of NaN and inf."""
    flags = [ops.all(ops.isfinite(loss))]
    flags.extend(ops.all(ops.isfinite(g)) for g in grads if g is not None)
    return ops.all(ops.stack(flags)) if len(flags) > 1 else flags[0]


def _batch_size(x):
    leaf = tree.flatten(x)[0][0]
    return current_backend().shape(leaf)[0] if not hasattr(leaf, "shape") else leaf.shape[0]


def _pythonify(logs):
    backend = current_backend()
    out = {}
    for k, v in logs.items():
        out[k] = float(backend.to_numpy(v)) if not isinstance(v, (int, float)) else float(v)
    return out


def _format_result(logs, return_dict):
    if return_dict:
        return logs
    values = list(logs.values())
    return values[0] if len(values) == 1 else values


def _should_validate(epoch, freq):
    if isinstance(freq, int):
        return (epoch + 1) % freq == 0
    return (epoch + 1) in freq


def _is_arrays(x):
    leaves = tree.flatten(x)[0]
    return bool(leaves) and all(hasattr(a, "shape") or isinstance(a, (list, float, int)) for a in leaves)


def _check_trainable_variables(model, variables):
    """Refuses a training step that would update nothing while the model has weights to train.

    ``variables`` is the list the step will differentiate and update. Empty while the model reports trainable
    weights means it was taken at the wrong moment (before the model was built): that step would run, report a
    loss and change nothing, so it is an error. A model with no trainable weights at all (every layer frozen)
    trains nothing by the user's choice: a warning says so, as Keras does.
    """
    if variables:
        return
    if model.trainable_weights:
        raise RuntimeError(
            f"Model '{model.name}' was about to run a training step over 0 trainable variables, but it has "
            f"{len(model.trainable_weights)} trainable weights: the step would train nothing. This is a bug in "
            "highlevel (the variable list was taken before the model was built); please report it."
        )
    import warnings

    warnings.warn(
        f"Model '{model.name}' has no trainable weights: fit() and train_on_batch() will not change "
        "it. Set `trainable = True` on the layers to train, then call fit() again.",
        stacklevel=3,
    )


def _is_text_array(a):
    """Whether ``a`` is an object array of strings or bytes, as ``tf.data`` hands out string tensors: such a
    batch stays on the host, for the text layers that read it."""
    return a.dtype.kind == "O" and a.size > 0 and isinstance(a.flat[0], (str, bytes))


class _CompiledMetricsShim:
    """``model.compiled_metrics``: ``update_state`` feeds the compiled metrics (Keras 2's object, deprecated)."""

    def __init__(self, model):
        self._model = model

    @property
    def metrics(self):
        compiled = self._model._compile_metrics
        return list(compiled.metrics) if compiled is not None else []

    def update_state(self, y_true, y_pred, sample_weight=None):
        warnings.warn(
            "model.compiled_metrics.update_state(...) is deprecated; use model.compute_metrics(x, y, y_pred, "
            "sample_weight) or update the metrics of model.metrics yourself.",
            DeprecationWarning,
            stacklevel=2,
        )
        compiled = self._model._compile_metrics
        if compiled is not None:
            compiled.update_state(y_true, y_pred, sample_weight)

    def reset_state(self):
        for metric in self.metrics:
            metric.reset_state()
