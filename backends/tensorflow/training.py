"""Training hooks of the TensorFlow engine: tape gradients on variables, and steps as ``tf.function``."""

import tensorflow as tf

from highlevel.backends.contract import TrainingContract, index_checks
from highlevel.backends.contract.variable import _scopes


class TrainingOps(TrainingContract):
    def check_index_range(self, x, low, high, template, ignore=None):
        # In a graph: an assertion the result depends on, so it runs before anything computed from ``x``. XLA
        # (compile(jit_compile=True)) drops assertions: there the check does nothing.
        if tf.executing_eagerly():
            return super().check_index_range(x, low, high, template, ignore=ignore)
        x = tf.convert_to_tensor(x)
        probe = tf.cast(x, tf.int64) if x.dtype.is_integer else tf.cast(tf.math.floor(x), tf.int64)
        if ignore is not None:
            probe = tf.where(tf.equal(probe, int(ignore)), tf.constant(low, tf.int64), probe)
        lo, hi = tf.reduce_min(probe), tf.reduce_max(probe)  # empty: the largest and smallest int64, both pass
        ok = tf.logical_and(lo >= low, hi < high)
        check = tf.debugging.Assert(ok, [index_checks.tag(template), lo, hi], name="index_range_check")
        with tf.control_dependencies([check]):
            return tf.identity(x)

    def variables_value_and_grad(self, fn, variables):
        if _scopes.stack:  # inside a stateless scope the values are not the variables: use the generic path
            return super().variables_value_and_grad(fn, variables)
        handles = [v._handle for v in variables]  # the tf.Variables
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            for h in handles:
                tape.watch(h)
            value, aux = fn()
        grads = tape.gradient(value, handles, unconnected_gradients=tf.UnconnectedGradients.ZERO)
        # Embedding-style gathers give IndexedSlices; optimizers work on dense tensors.
        grads = [tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g for g in grads]
        return (value, aux), grads

    def compile_step(self, fn, state_variables, jit_compile="auto", read_only=()):
        # A graph function: variables are tf.Variables, so assignments inside it are real updates.
        # One trace per batch shape (in practice: full batches and the last, partial one); retracing with
        # generalized (None) dimensions would give up the static shapes several ops rely on.
        # autograph=False: the step is written for tracing already (no Python control flow on tensor values,
        # loops through `scan`), and AutoGraph's source rewriting of every function the step calls costs tens
        # of seconds on a model's first trace.
        return tf.function(
            fn, jit_compile=True if jit_compile is True else None, reduce_retracing=False, autograph=False
        )
