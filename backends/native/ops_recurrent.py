"""A whole LSTM layer's time loop as one recorded op of the native engine, with a hand-written backward.

Op by op, one LSTM step costs about fifteen graph nodes (two matrix products, a bias add, a split, three
sigmoids, two tanhs, the state update); a 64-step sequence is a thousand nodes per layer, each a Tensor, a
closure and a few temporaries. Here the sequence is one node: the input projection of every step is one GEMM
``(time * batch, features) @ kernel`` before the loop; each step adds ``h @ recurrent_kernel`` into its slice
of one gate buffer and applies the gate nonlinearities in place (one tanh over the step's whole row, the
sigmoid gates' pre-activations having been halved through their kernel columns, then ``0.5 * t + 0.5`` over the
input, forget and output gates: the buffer holds them as ``[i, f, o, c]``, the kernels' columns reordered from
Keras's ``[i, f, c, o]`` once per call). The backward pass walks the steps in reverse, writing
each step's pre-activation gradient into one buffer, then gets the kernels' and the inputs' gradients from
three GEMMs over the whole sequence. Every array goes through ``xp``: the same code runs on CuPy.

The op returns one packed array ``(batch, time + 1, units)``: the step outputs, then the final cell state (the
final hidden state is the last step's output); :func:`lstm_sequence` slices it into ``(outputs, h, c)``.

>>> import numpy as np
>>> from highlevel.backends.native.tensor import Tensor
>>> x = Tensor(np.ones((2, 3, 4)))
>>> z = Tensor(np.zeros((2, 5)))
>>> seq, h, c = lstm_sequence(x, z, z, Tensor(np.zeros((4, 20))), Tensor(np.zeros((5, 20))), None)
>>> seq.shape, h.shape, c.shape
((2, 3, 5), (2, 5), (2, 5))
"""

from .autograd import enable_grad, grad, linear, record
from .convert import to_tensor
from .tensor import FLOAT_DTYPES
from .xp import xp


def _swap_co(a):
    """``a`` with its last axis's third and fourth quarters swapped: gates ``[i, f, c, o]`` <-> ``[i, f, o, c]``."""
    q = a.shape[-1] // 4
    return xp.concatenate([a[..., : 2 * q], a[..., 3 * q :], a[..., 2 * q : 3 * q]], axis=-1)


def _halve_sigmoid_columns(a):
    """A copy of ``a`` (gates ``[i, f, o, c]`` on the last axis) with the sigmoid gates' columns times 0.5."""
    out = a.copy()
    out[..., : 3 * (a.shape[-1] // 4)] *= 0.5
    return out


def lstm_sequence(inputs, h0, c0, kernel, recurrent_kernel, bias=None):
    """The LSTM recurrence over ``inputs`` (see :meth:`FusedContract.lstm_sequence`) as one recorded op.

    Returns:
        ``(outputs, h, c)``: every step's hidden state ``(batch, time, units)``, the final ``h`` and ``c``.
    """
    x = to_tensor(inputs)
    dtype = x.data.dtype
    if dtype not in FLOAT_DTYPES:
        raise TypeError(f"lstm_sequence needs float inputs; received {x.dtype}. Cast the inputs first.")
    name = x.dtype
    tensors = [x] + [to_tensor(t, name) for t in (h0, c0, kernel, recurrent_kernel)]
    if bias is not None:
        tensors.append(to_tensor(bias, name))
    xd, hd, cd, wd, ud = (t.data for t in tensors[:5])
    bd = tensors[5].data if bias is not None else None
    if xd.ndim != 3:
        raise ValueError(f"lstm_sequence: inputs must be (batch, time, features); received shape {xd.shape}.")
    b, steps, features = xd.shape
    units = ud.shape[0]
    want = {"kernel": (features, 4 * units), "recurrent_kernel": (units, 4 * units), "h": (b, units)}
    got = {"kernel": wd.shape, "recurrent_kernel": ud.shape, "h": hd.shape}
    if bd is not None:
        want["bias"], got["bias"] = (4 * units,), bd.shape
    want["c"], got["c"] = (b, units), cd.shape
    for key in want:
        if tuple(got[key]) != want[key]:
            raise ValueError(
                f"lstm_sequence: {key} has shape {tuple(got[key])}; expected {want[key]} for inputs of shape "
                f"{xd.shape} and a recurrent kernel of shape {ud.shape} (units = {units})."
            )
    u = units
    # The gate buffer is laid out [i, f, o, c] (Keras's is [i, f, c, o]): the three sigmoid gates side by side
    # take one pass per step forward and one derivative backward, instead of two and three. The
    # kernels' columns are swapped to match once per call; their gradients are swapped back at the end.
    wd, ud = _swap_co(wd), _swap_co(ud)  # the backward pass's kernels
    xt = xp.ascontiguousarray(xd.transpose(1, 0, 2)).reshape(steps * b, features)  # time-major rows
    # sigmoid(a) = 0.5 * tanh(a / 2) + 0.5: with the sigmoid gates' columns of the forward pass's kernels halved
    # (exact in binary floating point, so the halved pre-activations are bit for bit those of halving afterwards),
    # one tanh over each step's whole contiguous row of gates serves all four gates.
    gates = (xt @ _halve_sigmoid_columns(wd)).reshape(steps, b, 4 * u)  # pre-activations, then the gates
    if bd is not None:
        gates += _halve_sigmoid_columns(_swap_co(bd))
    ud_half = _halve_sigmoid_columns(ud)
    hs = xp.empty((steps + 1, b, u), dtype)  # h_{-1} = h0, h_0, ..., h_{T-1}
    cs = xp.empty((steps + 1, b, u), dtype)
    tcs = xp.empty((steps, b, u), dtype)  # tanh(c_t)
    hs[0], cs[0] = hd, cd
    tmp = xp.empty((b, u), dtype)
    for t in range(steps):
        z = gates[t]
        z += hs[t] @ ud_half
        xp.tanh(z, out=z)
        sg = z[:, : 3 * u]
        sg *= 0.5
        sg += 0.5
        c = cs[t + 1]
        xp.multiply(z[:, u : 2 * u], cs[t], out=c)
        xp.multiply(z[:, :u], z[:, 3 * u :], out=tmp)
        c += tmp
        xp.tanh(c, out=tcs[t])
        xp.multiply(z[:, 2 * u : 3 * u], tcs[t], out=hs[t + 1])
    packed = xp.empty((b, steps + 1, u), dtype)
    packed[:, :steps] = hs[1:].transpose(1, 0, 2)
    packed[:, steps] = cs[steps]
    n_in = len(tensors)

    def backward(g, out=None):
        if out is not None:  # graph mode: differentiate the op-by-op composition again, recording
            return _graph_grads(tensors, g)
        wanted = [t.requires_grad for t in tensors]
        gy = xp.ascontiguousarray(g[:, :steps].transpose(1, 0, 2))  # (T, B, U)
        dh = gy[steps - 1].copy() if steps else xp.zeros((b, u), dtype)
        dc = g[:, steps].copy()
        dz = xp.empty_like(gates)
        buf = xp.empty((b, u), dtype)
        buf3 = xp.empty((b, 3 * u), dtype)
        ut = ud.T
        for t in range(steps - 1, -1, -1):
            z = gates[t]
            i, f, o, cc = z[:, :u], z[:, u : 2 * u], z[:, 2 * u : 3 * u], z[:, 3 * u :]
            d = dz[t]
            di, df, do, dg = d[:, :u], d[:, u : 2 * u], d[:, 2 * u : 3 * u], d[:, 3 * u :]
            tc = tcs[t]
            xp.multiply(dh, tc, out=do)  # dL/do
            xp.multiply(tc, tc, out=buf)  # dc += dh * o * (1 - tanh(c)^2)
            xp.subtract(1, buf, out=buf)
            buf *= o
            buf *= dh
            dc += buf
            xp.multiply(dc, cc, out=di)
            xp.multiply(dc, cs[t], out=df)
            xp.multiply(dc, i, out=dg)
            dc *= f  # dL/dc_{t-1}
            # through the nonlinearities: sigmoid' = s (1 - s) on the three sigmoid gates at once, tanh' = 1 - y^2
            xp.subtract(1, z[:, : 3 * u], out=buf3)
            buf3 *= z[:, : 3 * u]
            d[:, : 3 * u] *= buf3
            xp.multiply(cc, cc, out=buf)
            xp.subtract(1, buf, out=buf)
            dg *= buf
            dh = d @ ut
            if t:
                dh += gy[t - 1]
        dz2 = dz.reshape(steps * b, 4 * u)
        grads = [None] * n_in
        if wanted[0]:
            grads[0] = xp.ascontiguousarray((dz2 @ wd.T).reshape(steps, b, features).transpose(1, 0, 2))
        grads[1] = dh if wanted[1] else None
        grads[2] = dc if wanted[2] else None
        if wanted[3]:
            grads[3] = _swap_co(xt.T @ dz2)
        if wanted[4]:
            grads[4] = _swap_co(hs[:steps].reshape(steps * b, u).T @ dz2)
        if n_in == 6 and wanted[5]:
            grads[5] = _swap_co(dz2.sum(axis=0))
        return tuple(grads)

    whole = record(packed, tuple(tensors), backward, (), "lstm_sequence")
    return _unpack(whole, steps)


def _unpack(packed, steps):
    """``(outputs, h, c)`` from the packed ``(batch, time + 1, units)`` result, as linear (slicing) ops."""

    def pick(index):
        def fwd(a):
            return a[index]

        def adj(g):
            full = xp.zeros(packed.data.shape, g.dtype)
            full[index] = g
            return full

        return linear(packed, fwd, adj, "lstm_sequence_unpack")

    return pick((slice(None), slice(0, steps))), pick((slice(None), max(steps - 1, 0))), pick((slice(None), steps))


def lstm_composed(backend, inputs, h, c, kernel, recurrent_kernel, bias=None):
    """The same recurrence op by op on ``backend`` (the contract's generic definition), packed like the op."""
    from highlevel.backends.contract.fused import FusedContract

    seq, h, c = FusedContract.lstm_sequence(backend, inputs, h, c, kernel, recurrent_kernel, bias)
    return backend.concatenate([seq, backend.expand_dims(c, 1)], axis=1)


def _graph_grads(tensors, g):
    """Graph-mode VJP: the gradients of the op-by-op composition, themselves recorded (any order)."""
    from .backend import NativeBackend

    with enable_grad():
        packed = lstm_composed(NativeBackend(), *tensors)
    wanted = [t for t in tensors if t.requires_grad]
    got = iter(grad([packed], wanted, [g], create_graph=True))
    return tuple(next(got) if t.requires_grad else None for t in tensors)
