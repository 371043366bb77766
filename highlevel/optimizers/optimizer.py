"""The optimizer base class: slot variables, learning rate (float or schedule), clipping, weight decay,
constraints, gradient accumulation and the exponential moving average of weights — the update rules live
in subclasses.

Every optimizer's math is written once on ``highlevel.ops`` and changes state only through
``variable.assign``, so it runs eagerly, inside ``tf.function`` and as part of a pure ``jax.jit`` step.
Steps that only sometimes update (gradient accumulation, EMA overwrite) compute both outcomes and pick
one with ``ops.where``: a Python ``if`` on a tensor could not be traced.

>>> import highlevel as hl
>>> v = hl.Variable([1.0, 2.0])
>>> opt = hl.optimizers.SGD(learning_rate=0.5, clipvalue=1.0)
>>> _ = opt.apply([hl.ops.convert_to_tensor([3.0, -0.5])], [v])
>>> v.numpy().tolist(), int(opt.iterations.numpy())
([0.5, 2.25], 1)
"""

import re

import numpy as np

from highlevel import ops
from highlevel.backends.contract import StatelessScope, Variable
from highlevel.config import current_backend

from .. import naming

_MISSING = object()


class Optimizer:
    """Base class of optimizers (``keras.optimizers.Optimizer``).

    A subclass creates its slots in ``build`` (after calling ``super().build``) with
    :meth:`add_variable_from_reference`, defines ``update_step(gradient, variable, learning_rate)`` and
    adds its hyper-parameters to ``get_config``.

    Args:
        learning_rate: a float or a ``LearningRateSchedule`` (called with the iteration count).
        weight_decay: decoupled weight decay: each step first does ``w -= w * weight_decay * lr``.
        clipnorm: clip each gradient to this L2 norm.
        clipvalue: clip each gradient's entries to ``[-clipvalue, clipvalue]``.
        global_clipnorm: clip all gradients together to this global L2 norm.
        use_ema: keep an exponential moving average of the weights (see ``swap_ema_weights``).
        ema_momentum: the average's momentum.
        ema_overwrite_frequency: every this many steps, overwrite the weights with their average.
        loss_scale_factor: gradients are divided by this factor (the loss was multiplied by it).
        gradient_accumulation_steps: apply the accumulated mean gradient every this many steps.
        name: the optimizer's name (default: the class name in snake_case).

    Raises:
        TypeError: an unknown keyword argument, or a plain function as ``learning_rate``.
        ValueError: more than one of ``clipnorm``, ``clipvalue`` and ``global_clipnorm``; a negative clipping value or
            learning rate; ``ema_momentum`` outside ``[0, 1]``; or ``gradient_accumulation_steps`` /
            ``ema_overwrite_frequency`` not a valid count.

    >>> import highlevel as hl
    >>> class PlainSGD(hl.optimizers.Optimizer):
    ...     def update_step(self, gradient, variable, learning_rate):
    ...         variable.assign_sub(gradient * learning_rate)
    >>> w = hl.Variable([1.0, 2.0])
    >>> opt = PlainSGD(learning_rate=0.5)
    >>> _ = opt.apply_gradients([(hl.ops.convert_to_tensor([1.0, 1.0]), w)])
    >>> w.numpy().tolist(), int(opt.iterations.numpy())
    ([0.5, 1.5], 1)
    """

    def __init__(
        self,
        learning_rate,
        weight_decay=None,
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
        use_ema=False,
        ema_momentum=0.99,
        ema_overwrite_frequency=None,
        loss_scale_factor=None,
        gradient_accumulation_steps=None,
        name=None,
        **kwargs,
    ):
        kwargs.pop("decay", None)  # Keras 3 accepts and ignores the legacy argument
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}.")
        if sum(x is not None for x in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(
                "Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set; received "
                f"clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}."
            )
        for arg, value in (
            ("clipnorm", clipnorm),
            ("clipvalue", clipvalue),
            ("global_clipnorm", global_clipnorm),
            ("weight_decay", weight_decay),
            ("loss_scale_factor", loss_scale_factor),
        ):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0):
                raise ValueError(f"`{arg}` must be a non-negative number or None; received {arg}={value!r}.")
        if gradient_accumulation_steps is not None and (
            not isinstance(gradient_accumulation_steps, int) or gradient_accumulation_steps < 2
        ):
            raise ValueError(
                f"`gradient_accumulation_steps` must be an integer >= 2; received {gradient_accumulation_steps!r}."
            )
        if not isinstance(ema_momentum, (int, float)) or not 0 <= ema_momentum <= 1:
            raise ValueError(f"`ema_momentum` must be in [0, 1]; received ema_momentum={ema_momentum!r}.")
        if ema_overwrite_frequency is not None and (
            not isinstance(ema_overwrite_frequency, int) or ema_overwrite_frequency < 1
        ):
            raise ValueError(
                f"`ema_overwrite_frequency` must be an integer >= 1 or None; received {ema_overwrite_frequency!r}."
            )
        self.name = name or naming.to_snake_case(type(self).__name__)
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self.use_ema = bool(use_ema)
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._index = {}
        self._exclude_ids = set()
        self._exclude_names = []
        backend = current_backend()
        self._backend = backend
        #: Counts calls to ``apply`` (with gradient accumulation, every micro-step counts).
        self.iterations = Variable(0, dtype="int64", trainable=False, name="iteration", backend=backend)
        self._variables.append(self.iterations)
        from .schedules import LearningRateSchedule

        if isinstance(learning_rate, LearningRateSchedule):
            self._schedule = learning_rate
            self._learning_rate = None
        elif callable(learning_rate):
            raise TypeError(
                "learning_rate must be a float or a LearningRateSchedule; a plain callable cannot be "
                "traced into a compiled step nor saved. Subclass "
                "hl.optimizers.schedules.LearningRateSchedule."
            )
        else:
            if isinstance(learning_rate, bool) or not isinstance(learning_rate, (int, float)) or learning_rate < 0:
                raise ValueError(
                    f"learning_rate must be a non-negative float or a LearningRateSchedule; received {learning_rate!r}."
                )
            self._schedule = None
            self._learning_rate = Variable(
                float(learning_rate), dtype="float32", trainable=False, name="learning_rate", backend=backend
            )
            self._variables.append(self._learning_rate)

    # ------------------------------------------------------------ learning rate
    @property
    def learning_rate(self):
        """The current learning rate (a tensor; the schedule's value at the current iteration)."""
        if self._schedule is not None:
            return self._schedule(self.iterations.value)
        return self._learning_rate.value

    @learning_rate.setter
    def learning_rate(self, value):
        if self._schedule is not None:
            raise TypeError(
                "This optimizer was created with a LearningRateSchedule as its learning_rate, so its "
                "learning rate cannot be set to a value. Create the optimizer with a float "
                "learning_rate to make it settable."
            )
        from .schedules import LearningRateSchedule

        if isinstance(value, LearningRateSchedule) or callable(value):
            raise TypeError(
                "A float learning rate cannot be replaced by a schedule after creation; pass the "
                "schedule to the optimizer's constructor instead."
            )
        self._learning_rate.assign(float(value) if isinstance(value, (int, float)) else value)

    def _update_count(self):
        """The number of updates applied so far: ``iterations``, or ``iterations // gradient_accumulation_steps``
        when accumulating (Keras's ``optimizer.iterations``). Bias corrections count updates."""
        if self.gradient_accumulation_steps:
            return ops.floor_divide(self.iterations.value, self.gradient_accumulation_steps)
        return self.iterations.value

    def _step_constant(self, key, compute):
        """A value that depends on the step but not on the variable (e.g. Adam's bias correction), computed
        once per ``apply`` instead of once per variable: a dozen ops fewer per variable."""
        cache = self.__dict__.setdefault("_step_cache", {})
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    def _local_step(self, dtype):
        """The 1-based number of the update being applied, as ``dtype``."""
        return ops.cast(self._update_count() + 1, dtype)

    # ---------------------------------------------------------------- variables
    @property
    def variables(self):
        """Every state variable (iteration count, learning rate, slots), in creation order."""
        return list(self._variables)

    def add_variable(self, shape, initializer="zeros", dtype=None, aggregation="none", layout=None, name=None):
        """A new optimizer state variable (not trainable), tracked in :attr:`variables`.

        ``aggregation`` and ``layout`` are Keras's distribution arguments, passed on to the variable.
        """
        from highlevel import initializers

        var = Variable(
            initializers.get(initializer),
            shape=tuple(shape),
            dtype=dtype,
            trainable=False,
            aggregation=aggregation,
            layout=layout,
            name=name or f"{self.name}_variable",
            backend=self._backend,
        )
        var.path = f"{self.name}/{var.name}"
        self._variables.append(var)
        return var

    def add_variable_from_reference(self, reference_variable, name=None, initializer="zeros"):
        """A slot variable shaped and typed like ``reference_variable``, named after it."""
        base = re.sub(r"[/:]", "_", reference_variable.path)
        slot = self.add_variable(
            reference_variable.shape,
            initializer=initializer,
            dtype=reference_variable.dtype,
            name=f"{base}_{name or 'var'}",
        )
        if isinstance(reference_variable, Variable):
            self._backend.match_variable_layout(slot, reference_variable)
        return slot

    def add_optimizer_variables(self, trainable_variables, name, initializer="zeros"):
        """One slot per variable of ``trainable_variables`` (:meth:`add_variable_from_reference` for each).

        Args:
            trainable_variables: the model variables the slots follow (shape and dtype).
            name: a slot name, or a list of names (one list of slots per name, made variable by variable).
            initializer: an initializer for every name, or a list with one per name.

        Returns:
            A list of slots for one name; a tuple of lists, one per name, for a list of names.

        Raises:
            ValueError: a list of initializers whose length is not the number of names.

        >>> import highlevel as hl
        >>> opt = hl.optimizers.SGD()
        >>> m, v = opt.add_optimizer_variables([hl.Variable([1.0, 2.0])], ["m", "v"], initializer=["zeros", "ones"])
        >>> v[0].numpy().tolist()
        [1.0, 1.0]
        """
        names = [name] if isinstance(name, str) else list(name)
        if isinstance(initializer, (list, tuple)):
            inits = list(initializer)
        else:
            inits = [initializer] * len(names)
        if len(inits) != len(names):
            raise ValueError(
                f"add_optimizer_variables() needs one initializer per name (or a single one for all): received "
                f"{len(names)} names {names} and {len(inits)} initializers."
            )
        slots = tuple([] for _ in names)
        for variable in trainable_variables:
            for i, (slot_name, init) in enumerate(zip(names, inits)):
                slots[i].append(self.add_variable_from_reference(variable, name=slot_name, initializer=init))
        return slots[0] if isinstance(name, str) else slots

    def build(self, variables):
        """Creates the slots for ``variables`` (subclasses add theirs after calling this)."""
        variables = list(variables)
        self._trainable_variables = variables
        self._index = {id(v): i for i, v in enumerate(variables)}
        if self.use_ema:
            # Zeros like Keras: the first update sets the average to the weights (momentum 0 at step 0).
            self._ema = [self.add_variable_from_reference(v, "average") for v in variables]
        if self.gradient_accumulation_steps:
            self._accumulated_gradients = [
                self.add_variable_from_reference(v, "gradient_accumulator") for v in variables
            ]
        self.built = True

    def _build_or_undo(self, variables):
        """``build(variables)``, or nothing at all if it fails part-way.

        A build interrupted after ``super().build`` marked the optimizer built but before the subclass made its
        slots would leave a "built" optimizer without slots. It happens when an unbuilt optimizer is first used
        inside a training step that an engine records for replay: creating a variable there stops the recording,
        and the step runs again eagerly, where the optimizer builds for real.
        """
        n_state = len(self._variables)
        before = dict(self.__dict__)
        try:
            self.build(variables)
        except BaseException:
            del self._variables[n_state:]
            self.__dict__.clear()
            self.__dict__.update(before)
            raise

    def _track_new_variables(self, variables):
        """Extends a built optimizer to the variables of ``variables`` it was not built with, keeping the state
        (slots, step count) of those it knows.

        The trainer calls this before a training step, so that a layer unfrozen after the first ``fit`` trains
        in the next one with the same optimizer (Keras refuses: "Unknown variable"). The new variables get fresh
        slots made by the subclass's own ``build``; per-variable slot lists grow, and any other state ``build``
        makes once (Nadam's momentum product, say) keeps its current value.
        """
        new = [v for v in variables if id(v) not in self._index]
        if not new or not self.built:
            return
        known = list(self._trainable_variables)
        before = dict(self.__dict__)
        n_state = len(self._variables)
        self.built = False
        try:
            self.build(new)
        finally:
            self.built = True
        made_once = []
        for name, value in list(self.__dict__.items()):
            previous = before.get(name, _MISSING)
            if value is previous or name in ("_variables", "_trainable_variables", "_index", "built"):
                continue
            if (
                isinstance(previous, list)
                and isinstance(value, list)
                and len(previous) == len(known)
                and len(value) == len(new)
            ):
                setattr(self, name, previous + value)  # one slot per variable: the new ones go at the end
            elif previous is _MISSING:
                continue  # an attribute the first build did not make (cannot happen for a deterministic build)
            else:
                if isinstance(value, Variable):
                    made_once.append(value)
                setattr(self, name, previous)  # made once per build: the current one stays
        dropped = {id(v) for v in made_once}
        self._variables = self._variables[:n_state] + [v for v in self._variables[n_state:] if id(v) not in dropped]
        self._trainable_variables = known + new
        self._index = {id(v): i for i, v in enumerate(self._trainable_variables)}

    def _slot_index(self, variable):
        try:
            return self._index[id(variable)]
        except KeyError:
            raise ValueError(
                f"Unknown variable {getattr(variable, 'path', variable)!r}: this optimizer was built "
                "for other variables. Create a new optimizer for a new set of variables."
            ) from None

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Exempts variables (objects, or regex patterns searched in their paths/names) from weight decay."""
        if self.built:
            raise ValueError(
                "exclude_from_weight_decay() must be called before the optimizer is built "
                "(before the first training step)."
            )
        self._exclude_ids.update(id(v) for v in var_list or [])
        self._exclude_names.extend(var_names or [])

    def _use_weight_decay(self, variable):
        if id(variable) in self._exclude_ids:
            return False
        return not any(re.search(n, variable.path) or re.search(n, variable.name) for n in self._exclude_names)

    # ------------------------------------------------------------ state access
    def assign(self, variable, value):
        """Sets ``variable`` (a model or optimizer variable) to ``value``; update rules may call it.

        >>> import highlevel as hl
        >>> v = hl.Variable([1.0, 2.0])
        >>> hl.optimizers.SGD().assign(v, [3.0, 4.0])
        >>> v.numpy().tolist()
        [3.0, 4.0]
        """
        variable.assign(value)

    def assign_add(self, variable, value):
        """Adds ``value`` to ``variable``.

        >>> import highlevel as hl
        >>> v = hl.Variable([1.0, 2.0])
        >>> hl.optimizers.SGD().assign_add(v, [0.5, 0.5])
        >>> v.numpy().tolist()
        [1.5, 2.5]
        """
        variable.assign_add(value)

    def assign_sub(self, variable, value):
        """Subtracts ``value`` from ``variable``.

        >>> import highlevel as hl
        >>> v = hl.Variable([1.0, 2.0])
        >>> hl.optimizers.SGD().assign_sub(v, [0.5, 0.5])
        >>> v.numpy().tolist()
        [0.5, 1.5]
        """
        variable.assign_sub(value)

    def set_weights(self, weights):
        """Sets every state variable (:attr:`variables`, in order) from a list of arrays.

        Args:
            weights: one array per variable of :attr:`variables`, of its shape.

        Raises:
            ValueError: the optimizer is not built, or the list has the wrong length or a wrong shape.

        >>> import highlevel as hl
        >>> opt = hl.optimizers.SGD(momentum=0.9)
        >>> opt.build([hl.Variable([1.0, 2.0])])
        >>> opt.set_weights([7, 0.1, [0.5, 0.5]])
        >>> int(opt.iterations.numpy()), opt.variables[2].numpy().tolist()
        (7, [0.5, 0.5])
        """
        if not self.built:
            raise ValueError(
                f"set_weights() was called on the optimizer '{self.name}', which is not built yet, so it has no "
                "state to set. Call optimizer.build(model.trainable_variables) first."
            )
        weights = list(weights)
        own = self.variables
        if len(weights) != len(own):
            raise ValueError(
                f"set_weights() on the optimizer '{self.name}' expects {len(own)} arrays (one per entry of "
                f"optimizer.variables: {[v.path for v in own]}), but received {len(weights)}."
            )
        for variable, weight in zip(own, weights):
            shape = tuple(ops.shape(weight)) if ops.is_tensor(weight) else tuple(np.shape(weight))
            if shape != tuple(variable.shape):
                raise ValueError(
                    f"set_weights(): optimizer variable '{variable.path}' has shape {tuple(variable.shape)}, but "
                    f"the array given for it has shape {shape}. Pass the arrays in the order of optimizer.variables."
                )
            variable.assign(weight)

    def save_own_variables(self, store):
        """Writes the state into ``store`` (a dict-like), as arrays under the keys ``"0"``, ``"1"``, ...

        >>> import highlevel as hl
        >>> opt = hl.optimizers.Adam()
        >>> opt.build([hl.Variable([1.0])])
        >>> store = {}
        >>> opt.save_own_variables(store)
        >>> sorted(store)
        ['0', '1', '2', '3']
        """
        for i, variable in enumerate(self.variables):
            store[str(i)] = variable.numpy()

    def load_own_variables(self, store):
        """Reads the state :meth:`save_own_variables` wrote.

        A store holding another number of arrays (an optimizer not built yet, or built for other variables) is
        skipped with a warning, as in Keras.
        """
        own = self.variables
        if len(store.keys()) != len(own):
            import warnings

            hint = " Build it first: optimizer.build(model.trainable_variables)." if not self.built else ""
            warnings.warn(
                f"Not loading the state of the optimizer '{self.name}': it has {len(own)} variables, the store "
                f"holds {len(store.keys())}.{hint}",
                stacklevel=2,
            )
            return
        for i, variable in enumerate(own):
            variable.assign(store[str(i)])

    # -------------------------------------------------------------------- apply
    def apply_gradients(self, grads_and_vars):
        """Applies ``[(gradient, variable), ...]``; returns the iteration count."""
        pairs = list(grads_and_vars)
        return self.apply([g for g, _ in pairs], [v for _, v in pairs])

    def apply(self, grads, trainable_variables=None, only_if=None):
        """One optimization step: loss-scale, clipping, weight decay, the update rule, EMA, constraints.

        Args:
            grads: one gradient (or None) per variable.
            trainable_variables: the variables; may be omitted once the optimizer is built (then ``grads``
                match the variables it was built with).
            only_if: ``None``, or a boolean scalar tensor: when it is false the whole step — weights, slots,
                ``iterations`` — leaves every variable as it was (decided by the tensor, so it also works in a
                compiled step). Not in Keras; the trainer uses it to keep a non-finite update out of the
                weights (see ``TerminateOnNaN``).

        Returns:
            The ``iterations`` variable.
        """
        if only_if is not None:
            if not self.built and trainable_variables is not None:
                self.build(list(trainable_variables))  # slots are created for real, not inside the scope
            # The step runs with its assignments recorded, not made; each is then kept only if ``only_if``.
            with StatelessScope() as scope:
                self.apply(grads, trainable_variables)
            for var, new in scope.assigned.values():
                var.assign(ops.where(only_if, new, var.value))
            return self.iterations
        grads = list(grads)
        if trainable_variables is None:
            if not self.built:
                raise ValueError(
                    "apply() without trainable_variables needs a built optimizer: call "
                    "optimizer.build(variables) first or pass the variables."
                )
            variables = list(self._trainable_variables)
        else:
            variables = list(trainable_variables)
        if len(grads) != len(variables):
            raise ValueError(f"apply() received {len(grads)} gradients for {len(variables)} variables.")
        if not variables:
            return self.iterations
        if not self.built:
            self._build_or_undo(variables)
        for v in variables:
            self._slot_index(v)
        pairs = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not pairs:
            raise ValueError("No gradients provided for any variable: every gradient passed to apply() is None.")
        backend = current_backend()
        grads = [g if backend.dtype(g) == v.dtype else ops.cast(g, v.dtype) for g, v in pairs]
        variables = [v for _, v in pairs]
        if self.loss_scale_factor is not None:
            grads = [g / float(self.loss_scale_factor) for g in grads]
        if any(v.overwrite_with_gradient for v in variables):
            self._overwrite_with_gradients([(g, v) for g, v in zip(grads, variables) if v.overwrite_with_gradient])
            pairs = [(g, v) for g, v in zip(grads, variables) if not v.overwrite_with_gradient]
            grads, variables = [g for g, _ in pairs], [v for _, v in pairs]
        self._step_cache = {}  # per-step scalars shared by all variables (see _step_constant)
        try:
            if not variables:
                pass
            elif self.gradient_accumulation_steps:
                self._apply_accumulated(grads, variables)
            else:
                self._apply_update(self._clip_gradients(grads), variables)
        finally:
            self._step_cache = {}
        if self.use_ema:
            self._update_ema(self._trainable_variables)
        for v in variables:
            if v.constraint is not None:
                v.assign(v.constraint(v.value))
        self.iterations.assign_add(1)
        return self.iterations

    def stateless_apply(self, optimizer_variables, grads, trainable_variables):
        """One step of :meth:`apply` as a pure function of values: nothing is assigned.

        The JAX style of training (``jax.jit`` over the state) calls it inside a traced step; it works the same on
        every engine.

        Args:
            optimizer_variables: one value per variable of :attr:`variables` (the current state).
            grads: one gradient (or None) per variable the optimizer was built with.
            trainable_variables: one value per variable the optimizer was built with.

        Returns:
            ``(new_trainable_values, new_optimizer_values)``, two lists in the same orders.

        Raises:
            ValueError: the optimizer is not built, or a list has the wrong length.

        >>> import highlevel as hl
        >>> w = hl.Variable([1.0, 2.0])
        >>> opt = hl.optimizers.SGD(learning_rate=0.5)
        >>> opt.build([w])
        >>> new_w, new_state = opt.stateless_apply(opt.variables, [hl.ops.ones((2,))], [w.value])
        >>> hl.ops.convert_to_numpy(new_w[0]).tolist(), w.numpy().tolist(), int(new_state[0])
        ([0.5, 1.5], [1.0, 2.0], 1)
        """
        if not self.built:
            raise ValueError(
                f"stateless_apply() needs a built optimizer, but {type(self).__name__} '{self.name}' is not built: "
                "call optimizer.build(model.trainable_variables) first."
            )
        own, known = self.variables, list(self._trainable_variables)
        for what, given, expected in (
            ("optimizer_variables", optimizer_variables, own),
            ("trainable_variables", trainable_variables, known),
            ("grads", grads, known),
        ):
            if len(given) != len(expected):
                raise ValueError(
                    f"stateless_apply(): `{what}` must hold one value per variable "
                    f"({'optimizer.variables' if expected is own else 'variable the optimizer was built with'}): "
                    f"expected {len(expected)}, received {len(given)}."
                )
        mapping = list(zip(known, trainable_variables)) + list(zip(own, optimizer_variables))
        with StatelessScope(mapping) as scope:
            self.apply(list(grads))
        new_trainable = [_current(scope, v, value) for v, value in zip(known, trainable_variables)]
        new_state = [_current(scope, v, value) for v, value in zip(own, optimizer_variables)]
        return new_trainable, new_state

    def scale_loss(self, loss):
        """The loss the trainer differentiates: times ``loss_scale_factor`` when set (``apply`` divides the
        gradients by it again), else unchanged."""
        if self.loss_scale_factor is not None:
            return loss * float(self.loss_scale_factor)
        return loss

    def _apply_update(self, grads, variables):
        """Weight decay, then the update rule for every variable."""
        learning_rate = self.learning_rate
        if self.weight_decay:
            for v in variables:
                if self._use_weight_decay(v):
                    lr = ops.cast(learning_rate, v.dtype)
                    v.assign(v.value - v.value * float(self.weight_decay) * lr)
        self._update_variables(grads, variables, learning_rate)

    def _update_variables(self, grads, variables, learning_rate):
        """Runs ``update_step`` on each variable; optimizers with per-step shared state extend it."""
        for g, v in zip(grads, variables):
            self.update_step(g, v, learning_rate)

    def _overwrite_with_gradients(self, pairs):
        """Sets each variable of ``[(gradient, variable), ...]`` (those with ``overwrite_with_gradient``) to its
        gradient: no learning rate, clipping or weight decay. With ``gradient_accumulation_steps``, as in Keras,
        the accumulator keeps the element-wise maximum of the steps' gradients and the variable takes it on the
        update step."""
        if not self.gradient_accumulation_steps:
            for g, v in pairs:
                v.assign(g)
            return
        is_update = ops.equal(ops.mod(self.iterations.value + 1, self.gradient_accumulation_steps), 0)
        for g, v in pairs:
            acc = self._accumulated_gradients[self._slot_index(v)]
            peak = ops.maximum(g, acc.value)
            v.assign(ops.where(is_update, peak, v.value))
            acc.assign(ops.where(is_update, ops.zeros_like(peak), peak))

    def _apply_accumulated(self, grads, variables):
        """Accumulates; every ``gradient_accumulation_steps`` steps, applies the mean and resets.

        The update is computed every step inside a nested ``StatelessScope`` (which records the assignments
        without making them) and kept only on update steps, so that no Python branch depends on a tensor.
        """
        n = self.gradient_accumulation_steps
        is_update = ops.equal(ops.mod(self.iterations.value + 1, n), 0)
        accs = [self._accumulated_gradients[self._slot_index(v)] for v in variables]
        summed = [g + a.value for a, g in zip(accs, grads)]
        with StatelessScope() as scope:
            self._apply_update(self._clip_gradients([s / float(n) for s in summed]), variables)
        for var, new in scope.assigned.values():
            var.assign(ops.where(is_update, new, var.value))
        for a, s in zip(accs, summed):
            a.assign(ops.where(is_update, ops.zeros_like(s), s))

    def _update_ema(self, variables):
        count = self._update_count()
        not_first = ops.not_equal(count, 0)
        for v in variables:
            ema = self._ema[self._slot_index(v)]
            momentum = ops.cast(not_first, v.dtype) * float(self.ema_momentum)
            ema.assign(momentum * ema.value + (1.0 - momentum) * v.value)
        if self.ema_overwrite_frequency:
            overwrite = ops.equal(ops.mod(count + 1, self.ema_overwrite_frequency), 0)
            for v in variables:
                v.assign(ops.where(overwrite, self._ema[self._slot_index(v)].value, v.value))

    def swap_ema_weights(self, variables):
        """Exchanges the weights and their moving averages (used by ``SwapEMAWeights``)."""
        if not self.use_ema:
            raise ValueError("swap_ema_weights() needs an optimizer created with use_ema=True.")
        for v in variables:
            ema = self._ema[self._slot_index(v)]
            current = ops.copy(v.value)
            v.assign(ema.value)
            ema.assign(current)

    def finalize_variable_values(self, var_list):
        """At the end of training: with ``use_ema``, overwrites the weights with their moving averages."""
        if self.use_ema:
            for v in var_list:
                v.assign(self._ema[self._slot_index(v)].value)

    def _clip_gradients(self, grads):
        # Zero means "no clipping", as in Keras.
        if self.clipnorm:
            return [_clip_by_norm(g, float(self.clipnorm)) for g in grads]
        if self.global_clipnorm:
            return _clip_by_global_norm(grads, float(self.global_clipnorm))
        if self.clipvalue:
            c = float(self.clipvalue)
            return [ops.clip(g, -c, c) for g in grads]
        return grads

    def update_step(self, gradient, variable, learning_rate):
        """Applies one gradient to one variable; every optimizer defines its rule here."""
        raise TypeError(f"{type(self).__name__} does not define update_step(gradient, variable, learning_rate).")

    # ------------------------------------------------------------------ configs
    def get_config(self):
        """The constructor arguments (a schedule is serialized as a nested dict)."""
        from .schedules import serialize as serialize_schedule

        lr = (
            serialize_schedule(self._schedule)
            if self._schedule is not None
            else float(ops.convert_to_numpy(self._learning_rate.value))
        )
        return {
            "name": self.name,
            "learning_rate": lr,
            "weight_decay": self.weight_decay,
            "clipnorm": self.clipnorm,
            "global_clipnorm": self.global_clipnorm,
            "clipvalue": self.clipvalue,
            "use_ema": self.use_ema,
            "ema_momentum": self.ema_momentum,
            "ema_overwrite_frequency": self.ema_overwrite_frequency,
            "loss_scale_factor": self.loss_scale_factor,
            "gradient_accumulation_steps": self.gradient_accumulation_steps,
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuilds an optimizer (without its state) from :meth:`get_config`'s output."""
        from .schedules import deserialize as deserialize_schedule

        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = deserialize_schedule(config["learning_rate"], custom_objects)
        return cls(**config)


def _current(scope, variable, given):
    """The value ``variable`` has at the end of ``scope``: assigned there, or the one it was given."""
    value = scope.get_current_value(variable)
    if value is None:
        value = given.value if isinstance(given, Variable) else given
    return value


def _clip_by_norm(g, clipnorm):
    """``g * clipnorm / max(||g||, clipnorm)`` with a safe square root at 0 (``tf.clip_by_norm``)."""
    l2sum = ops.sum(ops.square(g), keepdims=True)
    positive = ops.greater(l2sum, 0)
    l2norm = ops.where(positive, ops.sqrt(ops.where(positive, l2sum, ops.ones_like(l2sum))), l2sum)
    return ops.divide(ops.multiply(g, clipnorm), ops.maximum(l2norm, clipnorm))


def _clip_by_global_norm(grads, clipnorm):
    """Scales all gradients by ``clipnorm / max(global_norm, clipnorm)``; a NaN/inf norm propagates."""
    norm = ops.sqrt(ops.sum(ops.stack([ops.sum(ops.square(g)) for g in grads])))
    scale = ops.multiply(clipnorm, ops.minimum(ops.divide(1.0, norm), 1.0 / clipnorm))
    scale = ops.add(scale, ops.subtract(norm, norm))
    return [g * ops.cast(scale, ops.dtype(g)) for g in grads]
