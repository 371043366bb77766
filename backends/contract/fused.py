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

#: The activations the fused :meth:`FusedContract.dense` applies itself (each a contract op of one tensor).
DENSE_ACTIVATIONS = (None, "linear", "relu", "sigmoid", "tanh")


class FusedContract:
    """Kernels with a generic definition that engines may override with faster ones."""

    def dense(self, inputs, kernel, bias=None, activation=None):
        """A dense layer's forward pass, ``activation(inputs @ kernel + bias)`` over the last axis of ``inputs``.

        Args:
            inputs: a float tensor of shape ``(..., input_dim)``.
            kernel: a ``(input_dim, units)`` matrix of the same dtype.
            bias: None, or a ``(units,)`` vector of the same dtype.
            activation: one of :data:`DENSE_ACTIVATIONS` (None and ``"linear"`` are the identity).

        Returns:
            A tensor of shape ``(..., units)``; differentiable with respect to all three inputs.
        """
        if activation not in DENSE_ACTIVATIONS:
            raise ValueError(
                f"dense: activation must be one of {DENSE_ACTIVATIONS}; received {activation!r}. "
                "Apply other activations to dense's output."
            )
        y = self.matmul(inputs, kernel)
        if bias is not None:
            y = self.add(y, bias)
        if activation not in (None, "linear"):
            y = getattr(self, activation)(y)
        return y

    def int8_matmul(self, x, kernel):
        """``x @ kernel`` of two int8 tensors, accumulated exactly in int32 (a quantized layer's product).

        Args:
            x: an int8 tensor of shape ``(..., k)``.
            kernel: an int8 ``(k, n)`` matrix.

        Returns:
            The int32 tensor ``(..., n)``, exact (not differentiable: a quantized layer defines its gradient).
        """
        return self.matmul(self.cast(x, "int32"), self.cast(kernel, "int32"))

    def fused_batch_norm(self, x, scale=None, offset=None, axis=-1, epsilon=1e-3):
        """Batch normalization in training mode: the statistics of the batch and the normalized tensor.

        As ``tf.nn.fused_batch_norm``: the mean and the (biased) variance over every axis of ``x`` but ``axis``,
        then ``(x - mean) / sqrt(variance + epsilon) * scale + offset``.

        Args:
            x: a float tensor.
            scale, offset: None, or vectors of ``x.shape[axis]`` values of ``x``'s dtype.
            axis: the channel axis (an int; negative counts from the end).
            epsilon: added to the variance.

        Returns:
            ``(outputs, mean, variance)``: ``outputs`` like ``x``, differentiable with respect to ``x``,
            ``scale`` and ``offset``; ``mean`` and ``variance`` of shape ``(x.shape[axis],)``, for the moving
            statistics (an engine may return them without a gradient).
        """
        ndim = len(self.shape(x))
        axis = axis % ndim
        axes = tuple(d for d in range(ndim) if d != axis)
        mean, variance = self.moments(x, axes)
        inv = self.rsqrt(self.add(variance, epsilon))
        if scale is not None:
            inv = self.multiply(inv, scale)
        shift = self.negative(self.multiply(mean, inv))
        if offset is not None:
            shift = self.add(shift, offset)
        if axis != ndim - 1:
            shape = tuple(-1 if d == axis else 1 for d in range(ndim))
            inv, shift = self.reshape(inv, shape), self.reshape(shift, shape)
        return self.add(self.multiply(x, inv), shift), mean, variance

    def adam_update(self, variables, grads, momentums, velocities, alpha, beta_1, beta_2, epsilon, velocity_hats=None):
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

    def lstm_sequence(self, inputs, h, c, kernel, recurrent_kernel, bias=None):
        """An LSTM layer's time loop: Keras's ``LSTMCell`` (sigmoid gates, tanh activation, gates ``[i, f, c, o]``)
        run over every step of ``inputs``.

        Per step ``t``: ``z = x_t @ kernel + h @ recurrent_kernel + bias``; ``i, f, o = sigmoid(z_i, z_f, z_o)``,
        ``g = tanh(z_c)``; ``c = f * c + i * g``; ``h = o * tanh(c)``. The input projections of all steps are
        one matrix product before the loop.

        Args:
            inputs: ``(batch, time, features)`` floats.
            h, c: the initial states, ``(batch, units)`` each.
            kernel: ``(features, 4 * units)``; recurrent_kernel: ``(units, 4 * units)``; bias: None or
                ``(4 * units,)``.

        Returns:
            ``(outputs, h, c)``: every step's ``h`` as ``(batch, time, units)``, then the final ``h`` and ``c``;
            differentiable with respect to every argument.
        """
        zx = self.matmul(inputs, kernel)
        if bias is not None:
            zx = self.add(zx, bias)

        def step(carry, z):
            h_prev, c_prev = carry
            z = self.add(z, self.matmul(h_prev, recurrent_kernel))
            z_i, z_f, z_c, z_o = self.split(z, 4, axis=-1)
            c_new = self.add(self.multiply(self.sigmoid(z_f), c_prev), self.multiply(self.sigmoid(z_i), self.tanh(z_c)))
            h_new = self.multiply(self.sigmoid(z_o), self.tanh(c_new))
            return (h_new, c_new), h_new

        (h, c), ys = self.scan(step, (h, c), self.transpose(zx, (1, 0, 2)))
        return self.transpose(ys, (1, 0, 2)), h, c

    def divide_no_nan(self, x1, x2):
        """``x1 / x2`` with 0 where ``x2 == 0`` (``keras.ops.divide_no_nan``); the gradient is 0 there too.

        Promotes like :meth:`divide` (integers divide in floatx).
        """
        zero = self.equal(x2, 0)
        quotient = self.divide(x1, self.where(zero, 1.0, x2))
        return self.where(zero, 0.0, quotient)

    def adam_learning_rate(self, learning_rate, beta_1, beta_2, step):
        """Adam's bias-corrected learning rate ``lr · sqrt(1 - beta_2^t) / (1 - beta_1^t)``.

        Args:
            learning_rate: a scalar float tensor; the result has its dtype, and every step of the formula is
                computed in that dtype.
            beta_1, beta_2: Python floats.
            step: ``t``, a scalar float tensor of the same dtype (the 1-based step count).

        Returns:
            A scalar tensor of ``learning_rate``'s dtype.
        """
        dtype = self.dtype(learning_rate)
        b1_power = self.power(self.convert_to_tensor(beta_1, dtype=dtype), step)
        b2_power = self.power(self.convert_to_tensor(beta_2, dtype=dtype), step)
        return self.divide(
            self.multiply(learning_rate, self.sqrt(self.subtract(1.0, b2_power))), self.subtract(1.0, b1_power)
        )

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
