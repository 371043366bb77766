"""The stateless side of the trainer: the loss as a pure function of the state, and ``train_step(self, state, data)``.

JAX users write training as pure functions of values: the model's variables go in as arrays, new arrays come out,
and nothing is assigned until the caller writes them back. :meth:`StatelessTraining.compute_loss_and_updates` and
:meth:`StatelessTraining.stateless_compute_loss` are those functions for the loss (Keras 3's JAX trainer has them);
they are built on :class:`~highlevel.StatelessScope`, so they work on every engine and, on JAX, under ``jax.jit``
and ``jax.grad``.

A model whose ``train_step`` (or ``test_step``, ``predict_step``) takes ``(state, data)`` instead of ``data``
is trained by ``fit`` in that style, recognized by the method's signature: the step receives the state's values,
returns ``(logs, new_state)``, and the trainer writes the new state back to the variables. The step then runs as
the engine runs any step (under ``jax.jit`` on JAX), so it must be a pure function of its arguments.

>>> import numpy as np, highlevel as hl
>>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
>>> model.compile(loss="mse")
>>> x, y = np.ones((4, 2), "float32"), np.zeros((4, 1), "float32")
>>> loss, (unscaled, y_pred, ntv, mv) = model.compute_loss_and_updates(
...     model.trainable_variables, model.non_trainable_variables, model.metrics_variables, x, y, None)
>>> bool(hl.ops.convert_to_numpy(loss) >= 0), tuple(y_pred.shape)
(True, (4, 1))
"""

import inspect

from highlevel import ops
from highlevel.backends.contract import StatelessScope, Variable, tree

from .data_adapters.utils import unpack_x_y_sample_weight

#: What each step of the stateless style takes in ``state``, and what its ``new_state`` holds.
_STATE_GROUPS = {
    "train_step": ("trainable_variables", "non_trainable_variables", "optimizer_variables", "metrics_variables"),
    "test_step": ("trainable_variables", "non_trainable_variables", "metrics_variables"),
    "predict_step": ("trainable_variables", "non_trainable_variables"),
}


def takes_state(model, name):
    """Whether ``model``'s step method ``name`` is of the stateless style: it is the model's own (not the trainer's)
    and takes two required positional arguments, ``(state, data)``."""
    from .trainer import Trainer

    method = getattr(type(model), name, None)
    if method is None or method is getattr(Trainer, name, None):
        return False
    try:
        parameters = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):
        return False
    required = [
        p
        for p in parameters
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is inspect.Parameter.empty
    ]
    return len(required) == 3  # self, state, data


def _current(scope, variable, given):
    value = scope.get_current_value(variable)
    if value is None:
        value = given.value if isinstance(given, Variable) else given
    return value


def _check_values(method, what, values, variables):
    if values is None or len(values) != len(variables):
        received = "None" if values is None else len(values)
        raise ValueError(
            f"{method}(): `{what}` must hold one value per variable of `model.{what}` ({len(variables)}), in that "
            f"order; received {received}."
        )


class StatelessTraining:
    """Mixed into :class:`~highlevel.trainers.Trainer`: Keras 3's stateless loss functions and the stateless style
    of ``train_step``/``test_step``/``predict_step`` under ``fit``, ``evaluate`` and ``predict``."""

    def stateless_compute_loss(
        self,
        trainable_variables,
        non_trainable_variables,
        metrics_variables,
        x=None,
        y=None,
        y_pred=None,
        sample_weight=None,
        training=True,
    ):
        """:meth:`compute_loss` with the given values in place of the variables' own; assigns nothing.

        Returns:
            ``(loss, (trainable_values, non_trainable_values, metrics_values))``, the last two as they are after
            the loss was computed.
        """
        method = "stateless_compute_loss"
        groups = (
            ("trainable_variables", trainable_variables, self.trainable_variables),
            ("non_trainable_variables", non_trainable_variables, self.non_trainable_variables),
            ("metrics_variables", metrics_variables, self.metrics_variables),
        )
        mapping = []
        for what, values, variables in groups:
            _check_values(method, what, values, variables)
            mapping.extend(zip(variables, values))
        with StatelessScope(mapping) as scope:
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight, training=training)
        return loss, tuple(
            [_current(scope, v, g) for v, g in zip(variables, values)] for _, values, variables in groups
        )

    def compute_loss_and_updates(
        self,
        trainable_variables,
        non_trainable_variables,
        metrics_variables,
        x,
        y,
        sample_weight,
        training=False,
        optimizer_variables=None,
    ):
        """The model's forward pass and loss as a pure function of the state's values (for ``jax.value_and_grad``).

        Args:
            trainable_variables, non_trainable_variables, metrics_variables: one value per variable of the model's
                lists of those names.
            x, y, sample_weight: one batch.
            training: the mode the model runs in.
            optimizer_variables: the optimizer's state values; with ``training``, the loss is scaled by the
                optimizer's loss scale as they give it.

        Returns:
            ``(loss, (unscaled_loss, y_pred, non_trainable_values, metrics_values))``: ``loss`` is the one to
            differentiate.
        """
        y_pred, non_trainable_variables = self.stateless_call(
            trainable_variables, non_trainable_variables, x, training=training
        )
        loss, (_, non_trainable_variables, metrics_variables) = self.stateless_compute_loss(
            trainable_variables,
            non_trainable_variables,
            metrics_variables,
            x=x,
            y=y,
            y_pred=y_pred,
            sample_weight=sample_weight,
            training=training,
        )
        unscaled = loss
        optimizer = getattr(self, "optimizer", None)
        if training and optimizer is not None:
            mapping = list(zip(optimizer.variables, optimizer_variables)) if optimizer_variables is not None else ()
            with StatelessScope(mapping):
                loss = optimizer.scale_loss(loss)
        return loss, (unscaled, y_pred, non_trainable_variables, metrics_variables)

    # ------------------------------------------ the trainer's own steps, stateless
    def _stateless_default(self, name, state, data):
        """The trainer's ``train_step``/``test_step``/``predict_step`` as pure functions of ``state`` (Keras's JAX
        trainer's steps), for overrides that call ``super().train_step(state, data)``."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        if name == "predict_step":
            trainable, non_trainable = state
            return self.stateless_call(trainable, non_trainable, x, training=False)
        if name == "test_step":
            trainable, non_trainable, metrics = state
            _, (unscaled, y_pred, non_trainable, metrics) = self.compute_loss_and_updates(
                trainable, non_trainable, metrics, x, y, sample_weight, training=False
            )
            logs, metrics = self._stateless_metrics(metrics, unscaled, x, y, y_pred, sample_weight)
            return logs, (trainable, non_trainable, metrics)
        trainable, non_trainable, optimizer, metrics = state
        grad_fn = ops.value_and_grad(self.compute_loss_and_updates, has_aux=True)
        (_, (unscaled, y_pred, non_trainable, metrics)), grads = grad_fn(
            trainable, non_trainable, metrics, x, y, sample_weight, training=True, optimizer_variables=optimizer
        )
        trainable, optimizer = self.optimizer.stateless_apply(optimizer, grads, trainable)
        logs, metrics = self._stateless_metrics(metrics, unscaled, x, y, y_pred, sample_weight)
        return logs, (trainable, non_trainable, optimizer, metrics)

    def _stateless_metrics(self, metrics_values, loss, x, y, y_pred, sample_weight):
        variables = self.metrics_variables
        _check_values("the stateless step", "metrics_variables", metrics_values, variables)
        with StatelessScope(list(zip(variables, metrics_values))) as scope:
            batch = tree.flatten(x)[0][0].shape[0]
            self._loss_tracker.update_state(loss, sample_weight=batch)
            logs = self.compute_metrics(x, y, y_pred, sample_weight)
        return logs, [_current(scope, v, g) for v, g in zip(variables, metrics_values)]

    # ------------------------------------------------- the stateless style under fit
    def _state_group_variables(self, name):
        groups = {
            "trainable_variables": self.trainable_variables,
            "non_trainable_variables": self.non_trainable_variables,
            "optimizer_variables": list(self.optimizer.variables) if getattr(self, "optimizer", None) else [],
            "metrics_variables": self.metrics_variables,
        }
        return [(what, groups[what]) for what in _STATE_GROUPS[name]]

    def _stateful_form(self, name):
        """A ``step(data)`` that runs the model's stateless ``name(state, data)`` on the variables' values and writes
        the new state back (what the trainer compiles); None when ``name`` is of the usual ``step(data)`` form."""
        if not takes_state(self, name):
            return None
        user_step = getattr(self, name)

        def step(data):
            groups = self._state_group_variables(name)
            state = tuple([v.value for v in variables] for _, variables in groups)
            out = user_step(state, data)
            if not isinstance(out, (tuple, list)) or len(out) != 2:
                raise ValueError(
                    f"{type(self).__name__}.{name}(state, data) must return a pair "
                    f"{'(outputs, non_trainable_variables)' if name == 'predict_step' else '(logs, new_state)'}; "
                    f"received {type(out).__name__}."
                )
            result, new_state = out
            if name == "predict_step":  # Keras's predict_step(state, data) gives back the non-trainable values only
                new_state = (None, new_state)
            if not isinstance(new_state, (tuple, list)) or len(new_state) != len(groups):
                raise ValueError(
                    f"{type(self).__name__}.{name}(state, data) must return the new state as a tuple of "
                    f"{len(groups)} lists ({', '.join(what for what, _ in groups)}), as it received it; received "
                    f"{type(new_state).__name__}"
                    f"{f' of length {len(new_state)}' if isinstance(new_state, (tuple, list)) else ''}."
                )
            for (what, variables), old, values in zip(groups, state, new_state):
                if values is None or (what == "trainable_variables" and name != "train_step"):
                    continue  # evaluate and predict leave the weights as they are
                _check_values(f"{type(self).__name__}.{name}", what, values, variables)
                for variable, before, value in zip(variables, old, values):
                    if value is not before and value is not variable:
                        variable.assign(value)
            return result

        return step
