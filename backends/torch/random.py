"""Seeded random draws on torch generators.

A contract seed is a pair ``(seed, counter)`` of uint32 values (a tuple of ints or an int tensor of shape
(2,)). It becomes one ``torch.Generator`` seeded with a 64-bit mix of the pair. The mix matters: torch's
CPU generator (mt19937) keeps only the low 32 bits of its seed, so a plain ``seed << 32 | counter`` would
make every seed give the same draws.
"""

import math

import numpy as np
import torch

from highlevel.backends.contract import Variable
from highlevel.backends.contract.axes import canonical_axis

from . import _convert as cv

_MASK64 = 2**64 - 1


def _splitmix64(z):
    z = (z + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _seed_pair(seed):
    if isinstance(seed, Variable):
        seed = seed.value
    if isinstance(seed, torch.Tensor):
        values = seed.detach().reshape(-1).tolist()
    elif isinstance(seed, np.ndarray):
        values = seed.reshape(-1).tolist()
    elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        values = [int(seed), 0]
    elif isinstance(seed, (list, tuple)):
        values = [cv.to_int(v) for v in seed]
    else:
        raise TypeError(
            f"A seed must be a pair of ints (a tuple or an int tensor of shape (2,)); received {type(seed).__name__}."
        )
    if len(values) != 2:
        raise ValueError(f"A seed must hold exactly two ints (seed, counter); received {values!r}.")
    return int(values[0]) & 0xFFFFFFFF, int(values[1]) & 0xFFFFFFFF


def make_generator(seed, device=None):
    """A ``torch.Generator`` on ``device`` for a contract seed (fresh entropy when ``seed`` is None)."""
    device = torch.get_default_device() if device is None else device
    g = torch.Generator(device=device)
    if seed is None:
        g.seed()
        return g
    a, b = _seed_pair(seed)
    mixed = _splitmix64((a << 32) | b)
    # mt19937 seeds from the low 32 bits only: fold the high half in so that both halves count
    g.manual_seed(mixed ^ (mixed >> 32) if g.device.type == "cpu" else mixed)
    return g


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(cv.to_int(s) for s in shape)


def _float_dtype(dtype):
    t = cv.to_torch_dtype(dtype)
    if t not in cv.FLOATS:
        raise ValueError(f"This random op draws floats; expected a float dtype, received dtype={dtype!r}.")
    return t


def _draw_dtype(dtype):
    # draw in at least float32: float16/bfloat16 generators differ and lose the tails
    return torch.float64 if dtype == torch.float64 else torch.float32


def _scalar_or_tensor(v, dtype, device):
    if isinstance(v, (bool, int, float)) and not isinstance(v, np.generic):
        return v
    return cv.convert(v, dtype, device)


class TorchRandomMixin:
    """Contract random ops on torch generators."""

    def random_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
        dtype = _float_dtype(dtype)
        device = torch.get_default_device()
        g = make_generator(seed, device)
        work = _draw_dtype(dtype)
        z = torch.randn(_shape(shape), generator=g, dtype=work, device=device)
        z = z * _scalar_or_tensor(stddev, work, device) + _scalar_or_tensor(mean, work, device)
        return z.to(dtype)

    def random_uniform(self, shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
        dtype = _float_dtype(dtype)
        device = torch.get_default_device()
        g = make_generator(seed, device)
        work = _draw_dtype(dtype)
        u = torch.rand(_shape(shape), generator=g, dtype=work, device=device)
        lo = _scalar_or_tensor(minval, work, device)
        hi = _scalar_or_tensor(maxval, work, device)
        out = (u * (hi - lo) + lo).to(dtype)
        if isinstance(hi, (int, float)) and isinstance(lo, (int, float)) and hi > lo:
            # rounding (of u * range, or of the cast to a narrower float) can reach maxval: keep [min, max)
            top = torch.tensor(float(hi), dtype=dtype, device=out.device)
            below = torch.nextafter(top, torch.full_like(top, -math.inf))
            out = torch.minimum(out, below)
        return out

    def random_truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
        # inverse-CDF sampling (as torch.nn.init.trunc_normal_): a uniform draw between Phi(-2) and Phi(2)
        # mapped through the normal quantile; one draw per element, no rejection loop.
        dtype = _float_dtype(dtype)
        device = torch.get_default_device()
        g = make_generator(seed, device)
        lo = 0.5 * (1.0 + math.erf(-2.0 / math.sqrt(2.0)))
        hi = 0.5 * (1.0 + math.erf(2.0 / math.sqrt(2.0)))
        u = torch.rand(_shape(shape), generator=g, dtype=_draw_dtype(dtype), device=device)
        u = u * (hi - lo) + lo
        z = torch.erfinv(2.0 * u - 1.0) * math.sqrt(2.0)
        z = torch.clamp(z, -2.0, 2.0)
        work = z.dtype
        z = z * _scalar_or_tensor(stddev, work, device) + _scalar_or_tensor(mean, work, device)
        return z.to(dtype)

    def random_randint(self, shape, minval, maxval, dtype="int32", seed=None):
        tdtype = cv.to_torch_dtype(dtype)
        device = torch.get_default_device()
        g = make_generator(seed, device)
        lo, hi = cv.to_int(minval), cv.to_int(maxval)
        if hi <= lo:
            raise ValueError(f"randint needs minval < maxval; received minval={lo}, maxval={hi}.")
        out = torch.randint(lo, hi, _shape(shape), generator=g, dtype=torch.int64, device=device)
        return out.to(tdtype)

    def random_shuffle(self, x, axis=0, seed=None):
        x = cv.convert(x)
        axis = canonical_axis(axis, x.ndim)
        g = make_generator(seed, x.device)
        perm = torch.randperm(x.shape[axis], generator=g, device=x.device)
        return cv.move(lambda v: torch.index_select(v, axis, perm), x)

    def random_gamma(self, shape, alpha, dtype, seed=None):
        dtype = _float_dtype(dtype)
        device = torch.get_default_device()
        work = _draw_dtype(dtype)
        alpha = torch.broadcast_to(cv.convert(alpha, work, device), _shape(shape)).contiguous()
        return torch._standard_gamma(alpha, generator=make_generator(seed, alpha.device)).to(dtype)

    def random_binomial(self, shape, counts, probabilities, dtype, seed=None):
        tdtype = cv.to_torch_dtype(dtype)
        device = torch.get_default_device()
        work = _draw_dtype(tdtype)
        n = torch.broadcast_to(cv.convert(counts, work, device), _shape(shape)).contiguous()
        p = torch.broadcast_to(cv.convert(probabilities, work, device), _shape(shape)).contiguous()
        return torch.binomial(n, p, generator=make_generator(seed, n.device)).to(tdtype)

    def random_categorical(self, logits, num_samples, dtype="int32", seed=None):
        logits = cv.convert(logits)
        probs = torch.softmax(logits.to(_draw_dtype(logits.dtype)), dim=-1)
        draws = torch.multinomial(probs, num_samples, replacement=True, generator=make_generator(seed, probs.device))
        return draws.to(cv.to_torch_dtype(dtype))
