"""Training hooks of the TensorFlow engine: tape gradients on variables, and steps as ``tf.function``."""

import tensorflow as tf

from highlevel.backends.contract import TrainingContract
from highlevel.backends.contract.variable import _scopes


class TrainingOps(TrainingContract):
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
