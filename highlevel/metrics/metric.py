"""The metric base class (``keras.metrics.Metric``): state in non-trainable variables, updated batch by batch.

All of a metric's state lives in :class:`highlevel.Variable` objects created with :meth:`Metric.add_variable`
and changed only with ``assign``, so an update is pure under ``StatelessScope`` (JAX steps) and traces
inside ``tf.function``.

>>> import highlevel as hl
>>> class Count(Metric):
...     def __init__(self, name="count"):
...         super().__init__(name=name)
...         self.n = self.add_variable((), "zeros", name="n")
...     def update_state(self, values):
...         self.n.assign(self.n + hl.ops.cast(hl.ops.size(values), self.dtype))
...     def result(self):
...         return self.n.value
>>> m = Count()
>>> float(m([1, 2, 3])), float(m([4]))
(3.0, 4.0)
>>> m.reset_state(); float(m.result())
0.0
"""

import numpy as np

from highlevel import ops
from highlevel.backends.contract import StatelessScope, Variable
from highlevel.config import floatx
from highlevel.naming import to_snake_case, unique_name


class Metric:
    """Base class of metrics.

    Subclasses create their state in ``__init__`` with :meth:`add_variable` and implement
    :meth:`update_state` (``assign`` new values) and :meth:`result` (computed from the variables only).

    Args:
        dtype: the dtype of the state and result; ``None`` means floatx.
        name: the metric's name (settable later: the trainer renames metrics); defaults to the snake_case
            class name, made unique.

    >>> import highlevel as hl
    >>> class Count(hl.metrics.Metric):
    ...     def __init__(self, name="count"):
    ...         super().__init__(name=name)
    ...         self.total = self.add_variable(shape=(), initializer="zeros", name="total")
    ...     def update_state(self, y_true, y_pred, sample_weight=None):
    ...         self.total.assign(self.total + hl.ops.cast(hl.ops.shape(y_true)[0], "float32"))
    ...     def result(self):
    ...         return self.total
    >>> m = Count()
    >>> m.update_state(hl.ops.zeros((3, 1)), hl.ops.zeros((3, 1)))
    >>> m.update_state(hl.ops.zeros((2, 1)), hl.ops.zeros((2, 1)))
    >>> float(hl.ops.convert_to_numpy(m.result()))
    5.0
    >>> m.reset_state(); float(hl.ops.convert_to_numpy(m.result()))
    0.0
    """

    def __init__(self, dtype=None, name=None):
        self._variables = []
        self._metrics = []
        self._initial_values = []
        self.name = name or unique_name(to_snake_case(type(self).__name__))
        self._dtype = dtype

    @property
    def dtype(self):
        """The dtype of the state and of the result (floatx unless given)."""
        return self._dtype or floatx()

    def __setattr__(self, name, value):
        # Sub-metrics assigned as attributes contribute their variables (Keras' tracking).
        if isinstance(value, Metric) and name != "_metrics" and "_metrics" in self.__dict__:
            if value not in self._metrics:
                self._metrics.append(value)
        super().__setattr__(name, value)

    def add_variable(self, shape, initializer, dtype=None, aggregation="sum", name=None):
        """Creates a non-trainable state variable, tracked in :attr:`variables`.

        Args:
            shape: the variable's shape.
            initializer: an initializer name (``"zeros"``), object, or a value.
            dtype: defaults to the metric's dtype.
            aggregation: how replicas combine it (``"sum"``, ``"mean"``, ...); recorded on the variable.
            name: the variable's name.

        Returns:
            The :class:`highlevel.Variable`.
        """
        if "_variables" not in self.__dict__:
            raise RuntimeError(f"{type(self).__name__}.__init__ must call super().__init__() before add_variable.")
        from highlevel import initializers

        dtype = dtype or self.dtype
        shape = tuple(shape)
        init = initializers.get(initializer)
        value = init(shape, dtype) if callable(init) else init
        initial = np.asarray(ops.convert_to_numpy(ops.convert_to_tensor(value, dtype=dtype)))
        variable = Variable(initial, shape=shape, dtype=dtype, trainable=False, name=name)
        variable.path = f"{self.name}/{variable.name}"
        self._variables.append(variable)
        self._initial_values.append((variable, initial, aggregation))
        return variable

    def add_weight(self, shape=(), initializer=None, dtype=None, name=None):
        """Keras' older spelling of :meth:`add_variable` (zeros by default)."""
        return self.add_variable(shape, initializer or "zeros", dtype=dtype, name=name)

    @property
    def variables(self):
        """Every state variable: this metric's, then those of its sub-metrics."""
        out = list(self._variables)
        for m in self._metrics:
            out.extend(m.variables)
        return out

    def update_state(self, *args, **kwargs):
        """Accumulates statistics from one batch. Subclasses define it."""
        raise TypeError(f"{type(self).__name__} subclasses Metric but does not define update_state().")

    def result(self):
        """The metric's value, computed from the state variables. Subclasses define it."""
        raise TypeError(f"{type(self).__name__} subclasses Metric but does not define result().")

    def reset_state(self):
        """Assigns every state variable its initial value (zeros for the built-in metrics)."""
        for variable, initial, _ in self._initial_values:
            variable.assign(ops.convert_to_tensor(initial, dtype=variable.dtype))
        for m in self._metrics:
            m.reset_state()

    # ----------------------------------------------------------- stateless
    def _check_metric_values(self, metric_variables, method):
        expected = len(self.variables)
        if len(metric_variables) != expected:
            raise ValueError(
                f"{type(self).__name__}.{method}(): `metric_variables` must hold one value per variable of "
                f"`metric.variables` ({expected}), in that order; received {len(metric_variables)}."
            )

    def stateless_update_state(self, metric_variables, *args, **kwargs):
        """:meth:`update_state` as a pure function: takes the state's values, returns the new ones, assigns nothing.

        Args:
            metric_variables: one value per variable of :attr:`variables`.
            *args, **kwargs: what :meth:`update_state` takes.

        Returns:
            The list of new state values.

        >>> import highlevel as hl
        >>> m = hl.metrics.Mean()
        >>> state = m.stateless_update_state(m.variables, [1.0, 3.0])
        >>> float(m.stateless_result(state)), float(m.result())
        (2.0, 0.0)
        >>> [float(v) for v in m.stateless_reset_state()]
        [0.0, 0.0]
        """
        self._check_metric_values(metric_variables, "stateless_update_state")
        variables = self.variables
        with StatelessScope(list(zip(variables, metric_variables))) as scope:
            self.update_state(*args, **kwargs)
        return [_current(scope, v, given) for v, given in zip(variables, metric_variables)]

    def stateless_result(self, metric_variables):
        """:meth:`result` computed from the given state values instead of the variables'."""
        self._check_metric_values(metric_variables, "stateless_result")
        with StatelessScope(list(zip(self.variables, metric_variables))):
            return self.result()

    def stateless_reset_state(self):
        """The state values :meth:`reset_state` would assign, as a list; the variables keep theirs."""
        variables = self.variables
        with StatelessScope() as scope:
            self.reset_state()
        return [_current(scope, v, v) for v in variables]

    def __call__(self, *args, **kwargs):
        """Updates the state with one batch and returns the new :meth:`result`."""
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        """The constructor arguments as a JSON-serializable dict."""
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        """Builds a metric from the output of :meth:`get_config`."""
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


def _current(scope, variable, given):
    """The value ``variable`` has at the end of ``scope``: assigned there, or the one it was given."""
    value = scope.get_current_value(variable)
    if value is None:
        value = given.value if isinstance(given, Variable) else given
    return value
