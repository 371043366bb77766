"""Fused kernels of the PyTorch engine: Adam as multi-tensor ops, and aten's fused layer kernels.

PyTorch's own optimizers update many parameters with ``torch._foreach_*`` ops, one kernel launch (and one
Python call) per operation for the whole list instead of one per parameter. The update below computes Keras's
formula (the contract's generic ``adam_update``, whose numbers it must match) that way, in place on the
variables' tensors, when it runs eagerly; under a stateless scope (a traced step) it keeps the generic version.
The dense layer, batch normalization, the sparse cross-entropy and an LSTM layer's whole time loop go to the
aten kernels behind ``nn.Linear``, ``nn.BatchNorm``, ``F.cross_entropy`` and ``nn.LSTM``.
"""

import numpy as np
import torch

from highlevel.backends.contract import FusedContract, Variable
from highlevel.backends.contract.variable import _scopes

from . import _convert as cv

_HOST_DTYPES = {torch.float32: np.float32, torch.float64: np.float64, torch.float16: np.float16}
_ONE_PASS_DTYPES = (torch.float32, torch.float64)  # Adam's one-pass weight update, bit for bit
_BATCH_NORM_DTYPES = (torch.float32, torch.float64)  # aten's batch norm (half floats keep the generic formula)
_RNN_DTYPES = (torch.float32, torch.float64)  # aten's fused LSTM (half floats keep the generic loop)
_ACTIVATIONS = {None: None, "linear": None, "relu": torch.relu, "sigmoid": torch.sigmoid, "tanh": torch.tanh}


class TorchFusedMixin(FusedContract):
    def adam_update(self, variables, grads, momentums, velocities, alpha, beta_1, beta_2, epsilon, velocity_hats=None):
        if _scopes.stack or velocity_hats is not None:
            return super().adam_update(
                variables, grads, momentums, velocities, alpha, beta_1, beta_2, epsilon, velocity_hats
            )
        w = [v.handle for v in variables]
        m = [v.handle for v in momentums]
        v = [v.handle for v in velocities]
        g = [cv.convert(x, p.dtype, p.device) for x, p in zip(grads, w)]
        # A gradient laid out unlike its weight (a transposed view: an LSTM kernel's, which aten computes for
        # the transposed weight) makes every elementwise pass below a strided one, ~10x slower on a CPU than
        # the one copy into the weight's layout.
        g = [x if x.stride() == p.stride() else x.contiguous() for x, p in zip(g, w)]
        alpha = cv.convert(alpha, w[0].dtype, w[0].device)
        with torch.no_grad():
            # m += (g - m)(1 - b1); v += (g² - v)(1 - b2): lerp computes exactly start + weight · (end - start)
            torch._foreach_lerp_(m, g, 1.0 - float(beta_1))
            torch._foreach_lerp_(v, torch._foreach_mul(g, g), 1.0 - float(beta_2))
            denom = torch._foreach_sqrt(v)
            torch._foreach_add_(denom, float(epsilon))
            if w[0].dtype in _ONE_PASS_DTYPES and w[0].device.type == "cpu" and not torch.compiler.is_compiling():
                # w - (m·alpha)/denom in one pass over memory instead of three (a product, a division, a
                # subtraction), bit for bit: addcdiv computes w + (value·m)/denom in the variables' dtype, and
                # value = -alpha makes (value·m) the exact negation of m·alpha. Reading alpha on the host costs
                # nothing on a CPU (on a GPU it would wait for the device; half types compute in float).
                torch._foreach_addcdiv_(w, m, denom, -alpha.item())
            else:
                step = torch._foreach_mul(m, alpha)
                torch._foreach_div_(step, denom)
                torch._foreach_sub_(w, step)

    def adam_learning_rate(self, learning_rate, beta_1, beta_2, step):
        # The powers on the host, in the rate's dtype (the generic formula's rounding), as the optimizer's eager
        # path computes them: a replayed step then matches an eager one bit for bit. Traced (torch.compile,
        # a stateless scope), the generic version.
        lr, t = cv.convert(learning_rate), cv.convert(step)
        if _scopes.stack or lr.dtype not in _HOST_DTYPES or torch.compiler.is_compiling():
            return super().adam_learning_rate(learning_rate, beta_1, beta_2, step)
        dtype = _HOST_DTYPES[lr.dtype]
        n = np.asarray(t.item(), dtype)
        one = np.asarray(1.0, dtype)
        b1_power = np.power(np.asarray(beta_1, dtype), n)
        b2_power = np.power(np.asarray(beta_2, dtype), n)
        return lr * float(np.sqrt(one - b2_power)) / float(one - b1_power)

    def divide_no_nan(self, x1, x2):
        # The contract's formula as four torch calls (promotion as divide: integers divide in floatx); the
        # divisor is made safe first, so that the gradient stays finite where it is 0.
        (a, b), _ = cv.promote_float(x1, x2)
        zero = b == 0
        return torch.where(zero, 0.0, torch.div(a, torch.where(zero, 1.0, b)))

    def dense(self, inputs, kernel, bias=None, activation=None):
        # One addmm (the bias added inside the product) and the activation: two autograd nodes instead of three,
        # and one dispatch. Mixed dtypes keep the generic version, which promotes.
        if isinstance(kernel, Variable) and not _scopes.stack:
            _column_major(kernel.handle)
        x, w = cv.convert(inputs), cv.convert(kernel)
        b = None if bias is None else cv.convert(bias)
        if (
            activation not in _ACTIVATIONS
            or not cv.is_float(x)
            or w.dtype != x.dtype
            or w.ndim != 2
            or x.ndim < 1
            or (b is not None and (b.dtype != x.dtype or b.ndim != 1))
        ):
            return super().dense(inputs, kernel, bias, activation)
        if x.shape[-1] != w.shape[0]:
            raise ValueError(
                f"dense: inputs of shape {tuple(x.shape)} do not match a kernel of shape "
                f"{tuple(w.shape)}; the kernel must be (input_dim, units)."
            )
        # addmm with the (input_dim, units) kernel stored column-major (see _column_major): the products of
        # nn.Linear, and a gradient in the kernel's own layout.
        if x.ndim == 2:
            y = torch.mm(x, w) if b is None else torch.addmm(b, x, w)
        else:
            y = torch.matmul(x, w)
            if b is not None:
                y = y + b
        act = _ACTIVATIONS[activation]
        return y if act is None else act(y)

    def fused_batch_norm(self, x, scale=None, offset=None, axis=-1, epsilon=1e-3):
        # aten's batch norm: the statistics, the normalization and their gradient in fused kernels, where the
        # generic formula's var_mean over the batch and spatial axes alone costs several times the whole layer
        # (B3: 4.5 ms of an 11.5 ms step). Fresh running buffers with momentum 1 receive the batch mean and the
        # unbiased variance, which gives the biased one back within an ulp. Half floats, mixed dtypes and a
        # single value per channel keep the generic version.
        t = cv.convert(x)
        w = None if scale is None else cv.convert(scale)
        b = None if offset is None else cv.convert(offset)
        if t.dtype not in _BATCH_NORM_DTYPES or t.ndim < 2 or any(v is not None and v.dtype != t.dtype for v in (w, b)):
            return super().fused_batch_norm(x, scale, offset, axis, epsilon)
        axis = axis % t.ndim
        channels = t.shape[axis]
        count = t.numel() // channels if channels else 0
        if count < 2:
            return super().fused_batch_norm(x, scale, offset, axis, epsilon)
        xc = torch.movedim(t, axis, 1) if axis != 1 else t
        running_mean = torch.zeros(channels, dtype=t.dtype, device=t.device)
        running_var = torch.zeros(channels, dtype=t.dtype, device=t.device)
        y = torch.nn.functional.batch_norm(xc, running_mean, running_var, w, b, True, 1.0, float(epsilon))
        if axis != 1:
            y = torch.movedim(y, 1, axis)
        return y, running_mean, running_var * ((count - 1) / count)

    def lstm_sequence(self, inputs, h, c, kernel, recurrent_kernel, bias=None):
        # aten's LSTM (the kernel behind nn.LSTM: the time loop and its backward in C++, cuDNN on a GPU) instead
        # of ~15 autograd nodes per step. Its gate order [i, f, g, o] is Keras's [i, f, c, o]; its weights are
        # the transposes of Keras's kernels, and its second bias (added to the recurrent product) is zero.
        # Traced code (torch.compile), half floats, mixed dtypes and empty sequences keep the generic loop.
        x, h0, c0, w, u = (cv.convert(t) for t in (inputs, h, c, kernel, recurrent_kernel))
        b = None if bias is None else cv.convert(bias)
        parts = (h0, c0, w, u) if b is None else (h0, c0, w, u, b)
        if (
            torch.compiler.is_compiling()
            or x.dtype not in _RNN_DTYPES
            or any(t.dtype != x.dtype for t in parts)
            or x.ndim != 3
            or x.shape[1] == 0
            or w.ndim != 2
            or u.ndim != 2
            or h0.ndim != 2
            or c0.ndim != 2
        ):
            return super().lstm_sequence(inputs, h, c, kernel, recurrent_kernel, bias)
        units = u.shape[0]
        expected = {"kernel": (x.shape[2], 4 * units), "recurrent_kernel": (units, 4 * units)}
        received = {"kernel": tuple(w.shape), "recurrent_kernel": tuple(u.shape)}
        if b is not None:
            expected["bias"], received["bias"] = (4 * units,), tuple(b.shape)
        if received != expected:
            raise ValueError(
                f"lstm_sequence: inputs of shape {tuple(x.shape)} with {units} units need the shapes "
                f"{expected}; received {received}."
            )
        params = [w.t(), u.t()] if b is None else [w.t(), u.t(), b, torch.zeros_like(b)]
        outputs, h_n, c_n = torch._VF.lstm(
            x, (h0[None], c0[None]), params, b is not None, 1, 0.0, torch.is_grad_enabled(), False, True
        )
        return outputs, h_n[0], c_n[0]

    def sparse_softmax_cross_entropy(self, labels, logits, axis=-1):
        # F.cross_entropy is log_softmax + pick in one autograd node, with the class axis at position 1.
        z = cv.convert(logits)
        if not cv.is_float(z):
            z = z.to(cv.floatx_torch())
        if z.ndim == 0:
            raise ValueError("sparse_softmax_cross_entropy needs logits with a class axis; received a scalar.")
        axis = axis % z.ndim
        if z.ndim > 1 and axis != 1:
            z = torch.movedim(z, axis, 1)
        lab = cv.convert(labels).long()
        expected = tuple(z.shape[:1] + z.shape[2:]) if z.ndim > 1 else ()
        if tuple(lab.shape) != expected:
            raise ValueError(
                f"sparse_softmax_cross_entropy: labels of shape {tuple(lab.shape)} do not match logits "
                f"of shape {tuple(cv.convert(logits).shape)} with class axis {axis}."
            )
        return torch.nn.functional.cross_entropy(z, lab, reduction="none", ignore_index=-(2**62))


def _column_major(p):
    """Stores the dense kernel ``p`` (a variable's Parameter) column-major, once, values unchanged.

    Keras's kernels are (input_dim, units), and so are ours; ``nn.Linear`` stores the transpose. The BLAS
    products of a layer differ with the layout: on one CPU core, B1's three products and their gradients take
    about 5% longer with the kernel row-major. Column-major storage of the (input_dim, units) kernel is
    ``nn.Linear``'s memory layout under Keras's shape, so ``addmm`` makes the same BLAS calls as ``nn.Linear``,
    and autograd returns the gradient in the same layout. The optimizer's slots follow it
    (``match_variable_layout``). Done on a kernel's first use in ``dense``, outside any traced code.
    """
    if (
        p.ndim == 2
        and p.shape[0] > 1
        and p.shape[1] > 1
        and p.stride() == (p.shape[1], 1)
        and not torch.compiler.is_compiling()
    ):
        with torch.no_grad(), torch.inference_mode(False):
            p.data = p.data.t().contiguous().t()
