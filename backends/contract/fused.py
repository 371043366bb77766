"""The backend contract, part 6: fused kernels for the hot spots of a training step.

An eager engine pays its bookkeeping per op (a dispatch, a tensor object, a graph node): Adam written op by op
costs about a dozen ops per variable and step, sparse softmax cross-entropy four. Each method here computes one
such piece of a step in one call. The generic implementation, written once on this contract's own ops (and
:meth:`Variable.assign`, so that it also runs traced, under a :class:`StatelessScope`), is the definition; an
engine overrides a method with a faster kernel of the same numbers (the PyTorch engine with multi-tensor
``torch._foreach_*`` ops, the native engine with numpy buffers written as they are computed). Compiled engines
(JAX, TensorFlow) keep the generic version: their compilers fuse it anyway.

The front end calls these methods where it has the matching pattern (``Adam``, the sparse cross-entropy loss);
the conformance suite compares every engine's override with the generic version and with a float64 reference.
"""


class FusedContract:
    """Kernels with a generic definition that engines may override with faster ones."""

    def adam_update(self, variables, grads, momentums, velocities, alpha, beta_1, beta_2, epsilon,
                    velocity_hats=None):
        """One Adam (or AMSGrad) update of every variable in ``variables``, in Keras's formula.

        For each variable ``w`` with gradient ``g`` and slots ``m``, ``v`` (and ``v_hat`` for AMSGrad)::

            m <- m + (g - m)(1 - beta_1);   v <- v + (g² - v)(1 - beta_2)
            v_hat <- max(v_hat, v)          (AMSGrad; the update then uses v_hat)
            w <- w - alpha · m / (sqrt(v) + epsilon)

        Args:
            variables, momentums, velocities: lists of :class:`Variable` of equal length and matching shapes.
            grads: one gradient tensor per variable, of the variable's dtype.
            alpha: the bias-corrected learning rate ``lr · sqrt(1 - beta_2^t) / (1 - beta_1^t)``: a scalar
                tensor of the variables' dtype (or a Python float).
            beta_1, beta_2, epsilon: Python floats.
            velocity_hats: ``None`` for Adam, or the AMSGrad slots (a list like ``velocities``).
        """
        c1, c2 = 1.0 - float(beta_1), 1.0 - float(beta_2)
        for i, (w, g, m, v) in enumerate(zip(variables, grads, momentums, velocities)):
            m_new = self.add(m.value, self.multiply(self.subtract(g, m.value), c1))
            v_new = self.add(v.value, self.multiply(self.subtract(self.square(g), v.value), c2))
            m.assign(m_new)
            v.assign(v_new)
            if velocity_hats is not None:
                v_hat = velocity_hats[i]
                v_new = self.maximum(v_hat.value, v_new)
                v_hat.assign(v_new)
            step = self.divide(self.multiply(m_new, alpha), self.add(self.sqrt(v_new), float(epsilon)))
            w.assign(self.subtract(w.value, step))

    def sparse_softmax_cross_entropy(self, labels, logits, axis=-1):
        """Per-example ``-log softmax(logits)[label]`` along ``axis``; finite for logits of ±1e4.

        Args:
            labels: integer class indices, of the shape of ``logits`` without ``axis``.
            logits: float scores.
            axis: the class axis.

        Returns:
            The losses, of the labels' shape and the logits' dtype. Labels must lie in
            ``[0, num_classes)``; the caller checks that (out-of-range labels give engine-dependent values).
        """
        log_probs = self.log_softmax(logits, axis=axis)
        index = self.expand_dims(self.cast(labels, "int32"), axis)
        return self.negative(self.squeeze(self.take_along_axis(log_probs, index, axis=axis), axis=axis))
