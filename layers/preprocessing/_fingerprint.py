"""The string hashes Keras' hashing layers use, in pure Python, bit for bit.

Keras 3 (through TensorFlow) hashes the UTF-8 bytes of a value's string form:

* ``tf.strings.to_hash_bucket_fast`` = FarmHash ``Fingerprint64`` (the ``farmhashna::Hash64`` variant)
  modulo the number of buckets — used without a salt;
* ``tf.strings.to_hash_bucket_strong`` = SipHash-2-4 keyed by two 64-bit integers (the salt) modulo
  the number of buckets.

Integers are hashed through their decimal string (``tf.as_string``), floats are first truncated to
int64. The functions here reproduce those results on the host so the same token lands in the same
bin on every backend, without TensorFlow.

>>> import numpy as np
>>> hex(fingerprint64(b"hello"))
'0xb48be5a931380ce8'
>>> hash_bucket_fast(np.array(["a", "b"]), 7).tolist(), hash_bucket_strong(np.array(["a", "b"]), 7, (1, 2)).tolist()
([5, 2], [1, 1])
"""

import numpy as np

_M = 0xFFFFFFFFFFFFFFFF
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F
_KMUL = 0x9DDFEA08EB382D69


def _fetch64(s, i):
    return int.from_bytes(s[i : i + 8], "little")


def _fetch32(s, i):
    return int.from_bytes(s[i : i + 4], "little")


def _rot(v, shift):
    return v if shift == 0 else ((v >> shift) | (v << (64 - shift))) & _M


def _shift_mix(v):
    return v ^ (v >> 47)


def _hash_len16(u, v, mul=_KMUL):
    a = ((u ^ v) * mul) & _M
    a ^= a >> 47
    b = ((v ^ a) * mul) & _M
    b ^= b >> 47
    return (b * mul) & _M


def _hash_len_0_to_16(s):
    n = len(s)
    if n >= 8:
        mul = _K2 + n * 2
        a = (_fetch64(s, 0) + _K2) & _M
        b = _fetch64(s, n - 8)
        c = (_rot(b, 37) * mul + a) & _M
        d = ((_rot(a, 25) + b) * mul) & _M
        return _hash_len16(c, d, mul)
    if n >= 4:
        mul = _K2 + n * 2
        a = _fetch32(s, 0)
        return _hash_len16((n + (a << 3)) & _M, _fetch32(s, n - 4), mul)
    if n > 0:
        a, b, c = s[0], s[n >> 1], s[n - 1]
        y = (a + (b << 8)) & 0xFFFFFFFF
        z = (n + (c << 2)) & 0xFFFFFFFF
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _M) * _K2) & _M
    return _K2


def _hash_len_17_to_32(s):
    n = len(s)
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K1) & _M
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _M
    d = (_fetch64(s, n - 16) * _K2) & _M
    return _hash_len16((_rot((a + b) & _M, 43) + _rot(c, 30) + d) & _M, (a + _rot((b + _K2) & _M, 18) + c) & _M, mul)


def _hash_len_33_to_64(s):
    n = len(s)
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K2) & _M
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _M
    d = (_fetch64(s, n - 16) * _K2) & _M
    y = (_rot((a + b) & _M, 43) + _rot(c, 30) + d) & _M
    z = _hash_len16(y, (a + _rot((b + _K2) & _M, 18) + c) & _M, mul)
    e = (_fetch64(s, 16) * mul) & _M
    f = _fetch64(s, 24)
    g = ((y + _fetch64(s, n - 32)) * mul) & _M
    h = ((z + _fetch64(s, n - 24)) * mul) & _M
    return _hash_len16((_rot((e + f) & _M, 43) + _rot(g, 30) + h) & _M, (e + _rot((f + a) & _M, 18) + g) & _M, mul)


def _weak_hash_len32_with_seeds(s, i, a, b):
    w, x, y, z = _fetch64(s, i), _fetch64(s, i + 8), _fetch64(s, i + 16), _fetch64(s, i + 24)
    a = (a + w) & _M
    b = _rot((b + a + z) & _M, 21)
    c = a
    a = (a + x + y) & _M
    b = (b + _rot(a, 44)) & _M
    return (a + z) & _M, (b + c) & _M


def fingerprint64(data):
    """FarmHash ``Fingerprint64`` of ``data`` (bytes) as an unsigned 64-bit Python int."""
    s = bytes(data)
    n = len(s)
    if n <= 16:
        return _hash_len_0_to_16(s)
    if n <= 32:
        return _hash_len_17_to_32(s)
    if n <= 64:
        return _hash_len_33_to_64(s)
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & _M
    z = (_shift_mix((y * _K2 + 113) & _M) * _K2) & _M
    v0 = v1 = w0 = w1 = 0
    x = (x * _K2 + _fetch64(s, 0)) & _M
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    i = 0
    while True:
        x = (_rot((x + y + v0 + _fetch64(s, i + 8)) & _M, 37) * _K1) & _M
        y = (_rot((y + v1 + _fetch64(s, i + 48)) & _M, 42) * _K1) & _M
        x ^= w1
        y = (y + v0 + _fetch64(s, i + 40)) & _M
        z = (_rot((z + w0) & _M, 33) * _K1) & _M
        v0, v1 = _weak_hash_len32_with_seeds(s, i, (v1 * _K1) & _M, (x + w0) & _M)
        w0, w1 = _weak_hash_len32_with_seeds(s, i + 32, (z + w1) & _M, (y + _fetch64(s, i + 16)) & _M)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = _K1 + ((z & 0xFF) << 1)
    i = last64
    w0 = (w0 + ((n - 1) & 63)) & _M
    v0 = (v0 + w0) & _M
    w0 = (w0 + v0) & _M
    x = (_rot((x + y + v0 + _fetch64(s, i + 8)) & _M, 37) * mul) & _M
    y = (_rot((y + v1 + _fetch64(s, i + 48)) & _M, 42) * mul) & _M
    x ^= (w1 * 9) & _M
    y = (y + v0 * 9 + _fetch64(s, i + 40)) & _M
    z = (_rot((z + w0) & _M, 33) * mul) & _M
    v0, v1 = _weak_hash_len32_with_seeds(s, i, (v1 * mul) & _M, (x + w0) & _M)
    w0, w1 = _weak_hash_len32_with_seeds(s, i + 32, (z + w1) & _M, (y + _fetch64(s, i + 16)) & _M)
    z, x = x, z
    return _hash_len16(
        (_hash_len16(v0, w0, mul) + _shift_mix(y) * _K0 + z) & _M, (_hash_len16(v1, w1, mul) + x) & _M, mul
    )


def siphash64(data, key):
    """SipHash-2-4 of ``data`` (bytes) keyed by ``key = (k0, k1)`` (two 64-bit ints), as an unsigned int."""
    k0, k1 = int(key[0]) & _M, int(key[1]) & _M
    v0 = k0 ^ 0x736F6D6570736575
    v1 = k1 ^ 0x646F72616E646F6D
    v2 = k0 ^ 0x6C7967656E657261
    v3 = k1 ^ 0x7465646279746573

    def rounds(v0, v1, v2, v3, count):
        for _ in range(count):
            v0 = (v0 + v1) & _M
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & _M
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & _M
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & _M
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)
        return v0, v1, v2, v3

    s = bytes(data)
    n = len(s)
    full = n - n % 8
    for i in range(0, full, 8):
        m = _fetch64(s, i)
        v3 ^= m
        v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
        v0 ^= m
    last = int.from_bytes(s[full:], "little") | ((n & 0xFF) << 56)
    v3 ^= last
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
    v0 ^= last
    v2 ^= 0xFF
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


def _rotl(v, shift):
    return ((v << shift) | (v >> (64 - shift))) & _M


def as_hash_strings(values):
    """The strings TensorFlow would hash for ``values`` (a numpy array): str as is, bytes decoded, ints
    through their decimal form and floats truncated to int64 first (as Keras' ``Hashing`` does)."""
    values = np.asarray(values)
    if values.dtype.kind == "f":
        values = values.astype("int64")
    if values.dtype.kind in "iub":
        values = values.astype("int64")
    return values


def _to_bytes(value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, (np.integer, int)) and not isinstance(value, (bool, np.bool_)):
        return str(int(value)).encode()
    if isinstance(value, (float, np.floating)):
        return str(int(value)).encode()
    return str(value).encode("utf-8")


def hash_bucket_fast(values, num_buckets):
    """``tf.strings.to_hash_bucket_fast``: FarmHash Fingerprint64 of each value's string form, modulo
    ``num_buckets``; an int64 numpy array of ``values``' shape."""
    values = as_hash_strings(values)
    flat = [fingerprint64(_to_bytes(v)) % num_buckets for v in values.reshape(-1).tolist()]
    return np.asarray(flat, dtype="int64").reshape(values.shape)


def hash_bucket_strong(values, num_buckets, key):
    """``tf.strings.to_hash_bucket_strong``: SipHash-2-4 keyed by ``key`` of each value's string form,
    modulo ``num_buckets``; an int64 numpy array of ``values``' shape."""
    values = as_hash_strings(values)
    flat = [siphash64(_to_bytes(v), key) % num_buckets for v in values.reshape(-1).tolist()]
    return np.asarray(flat, dtype="int64").reshape(values.shape)
