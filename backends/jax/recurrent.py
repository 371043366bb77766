"""The LSTM time loop on JAX as one scan with a hand-written backward pass (``lstm_sequence``).

XLA compiles whatever the generic loop gives it, but the loop's shape is fixed by how it is written. This one:

* the input projection of every step is one matrix product over the whole sequence, before the loop (the
  loop keeps only the ``h @ recurrent_kernel`` product per step);
* the forward scan saves the activated gates and the cell states, and the backward pass is a second scan
  that only carries ``dh`` and ``dc`` and does one product per step (``dz @ recurrent_kernel.T``); the
  weight gradients are one product each over all steps after the loop (automatic differentiation of the scan
  would add a ``(units, 4 * units)`` product into an accumulator at every step instead).

>>> import jax.numpy as jnp
>>> z = jnp.zeros((2, 5))
>>> seq, h, c = lstm_sequence(jnp.ones((2, 3, 4)), z, z, jnp.zeros((4, 20)), jnp.zeros((5, 20)), None)
>>> seq.shape, h.shape, c.shape
((2, 3, 5), (2, 5), (2, 5))
"""

import jax
import jax.numpy as jnp


def _activate(z, units):
    """The gates ``[i, f, g, o]`` from the pre-activations: sigmoid on i, f and o, tanh on the candidate g."""
    sig = jax.nn.sigmoid(z)
    return jnp.concatenate([sig[:, : 2 * units], jnp.tanh(z[:, 2 * units : 3 * units]), sig[:, 3 * units :]], axis=-1)


def _forward(zx, h0, c0, recurrent_kernel):
    """The loop over time-major pre-activations ``zx`` (``(time, batch, 4 * units)``, input product and bias
    included): every step's ``h``, its ``c`` and its activated gates."""
    units = h0.shape[-1]

    def step(carry, z):
        h, c = carry
        gates = _activate(z + h @ recurrent_kernel, units)
        i, f, g, o = (gates[:, k * units : (k + 1) * units] for k in range(4))
        c = f * c + i * g
        h = o * jnp.tanh(c)
        return (h, c), (h, c, gates)

    _, (hs, cs, gates) = jax.lax.scan(step, (h0, c0), zx)
    return hs, cs, gates


@jax.custom_vjp
def _sequence(x, h0, c0, kernel, recurrent_kernel, bias):
    zx = jnp.einsum("btf,fg->tbg", x, kernel) + bias
    hs, cs, _ = _forward(zx, h0, c0, recurrent_kernel)
    return hs, cs[-1]


def _sequence_fwd(x, h0, c0, kernel, recurrent_kernel, bias):
    zx = jnp.einsum("btf,fg->tbg", x, kernel) + bias
    hs, cs, gates = _forward(zx, h0, c0, recurrent_kernel)
    return (hs, cs[-1]), (x, h0, c0, kernel, recurrent_kernel, hs, cs, gates)


def _sequence_bwd(res, cotangents):
    x, h0, c0, kernel, recurrent_kernel, hs, cs, gates = res
    d_hs, d_c_last = cotangents
    units = h0.shape[-1]
    c_prev = jnp.concatenate([c0[None], cs[:-1]], axis=0)
    h_prev = jnp.concatenate([h0[None], hs[:-1]], axis=0)
    rk_t = recurrent_kernel.T

    def step(carry, inputs):
        dh_next, dc_next = carry
        dh_out, gate, c, cp = inputs
        i, f, g, o = (gate[:, k * units : (k + 1) * units] for k in range(4))
        dh = dh_out + dh_next
        tc = jnp.tanh(c)
        dc = dc_next + dh * o * (1 - tc * tc)
        dz = jnp.concatenate(
            [dc * g * i * (1 - i), dc * cp * f * (1 - f), dc * i * (1 - g * g), dh * tc * o * (1 - o)], axis=-1
        )
        return (dz @ rk_t, dc * f), dz

    (dh0, dc0), dz = jax.lax.scan(step, (jnp.zeros_like(h0), d_c_last), (d_hs, gates, cs, c_prev), reverse=True)
    d_kernel = jnp.einsum("btf,tbg->fg", x, dz)
    d_recurrent = jnp.einsum("tbu,tbg->ug", h_prev, dz)
    d_bias = jnp.sum(dz, axis=(0, 1))
    dx = jnp.einsum("tbg,fg->btf", dz, kernel)
    return dx, dh0, dc0, d_kernel, d_recurrent, d_bias


_sequence.defvjp(_sequence_fwd, _sequence_bwd)


def lstm_sequence(inputs, h, c, kernel, recurrent_kernel, bias=None):
    """The LSTM recurrence over ``inputs`` (see ``FusedContract.lstm_sequence``) on ``jax.Array`` arguments of
    one float dtype: ``(outputs (batch, time, units), h, c)``."""
    if bias is None:
        bias = jnp.zeros((kernel.shape[-1],), kernel.dtype)
    hs, c_last = _sequence(inputs, h, c, kernel, recurrent_kernel, bias)
    return jnp.swapaxes(hs, 0, 1), hs[-1], c_last
