"""Dtype policies: the dtype a layer computes in and the dtype its variables are stored in.

``"float32"`` (or any float dtype name) computes and stores in that dtype; ``"mixed_float16"`` and
``"mixed_bfloat16"`` compute in half precision while keeping the variables in float32, so that small updates
are not lost to rounding. A layer created without ``dtype`` takes the global policy
(:func:`set_dtype_policy`), which defaults to ``floatx``.

>>> import highlevel as hl
>>> policy = hl.mixed_precision.DTypePolicy("mixed_float16")
>>> policy.compute_dtype, policy.variable_dtype
('float16', 'float32')
"""

import threading

from highlevel.backends.contract import dtypes as _dtypes

_MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}


class DTypePolicy:
    """A named pair (compute dtype, variable dtype) (``keras.DTypePolicy``).

    Args:
        name: ``"mixed_float16"``, ``"mixed_bfloat16"`` or a dtype name such as ``"float32"``; None takes the
            global policy's name.

    >>> p = DTypePolicy("bfloat16")
    >>> p.name, p.compute_dtype, p.variable_dtype
    ('bfloat16', 'bfloat16', 'bfloat16')
    """

    def __init__(self, name=None):
        if name is None:
            name = dtype_policy().name
        self._name, self._compute_dtype, self._variable_dtype = _parse(name)

    @property
    def name(self):
        """The policy's name (``"mixed_float16"``, ``"float32"``, ...)."""
        return self._name

    @property
    def compute_dtype(self):
        """The dtype layers compute in: their float inputs and variables are cast to it inside ``call``."""
        return self._compute_dtype

    @property
    def variable_dtype(self):
        """The dtype layers create their variables in."""
        return self._variable_dtype

    @property
    def quantization_mode(self):
        """The quantization mode (``"int8"``, ``"int4"``, ...) of a quantized policy; None for a float one."""
        return None

    @property
    def is_mixed(self):
        """Whether computations and variables use different dtypes."""
        return self._compute_dtype != self._variable_dtype

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __eq__(self, other):
        return isinstance(other, DTypePolicy) and type(other) is type(self) and other.name == self.name

    def __hash__(self):
        return hash((type(self).__name__, self._name))

    def __repr__(self):
        return f'<{type(self).__name__} "{self.name}">'


#: Keras 2's name of the class.
Policy = DTypePolicy
#: Keras's name for a policy of float dtypes: every policy here is one, so it is the same class.
FloatDTypePolicy = DTypePolicy


def _parse(name):
    if isinstance(name, DTypePolicy):
        return name.name, name.compute_dtype, name.variable_dtype
    if not isinstance(name, str):
        raise TypeError(
            f"A dtype policy name must be a string such as 'mixed_float16' or 'float32'; received "
            f"{name!r} of type {type(name).__name__}."
        )
    if name in _MIXED:
        return name, _MIXED[name], "float32"
    if name.startswith("mixed_"):
        raise ValueError(f"Unknown mixed precision policy {name!r}: the mixed policies are {sorted(_MIXED)}.")
    try:
        dtype = _dtypes.standardize_dtype(name)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"Cannot convert {name!r} to a dtype policy: expected 'mixed_float16', 'mixed_bfloat16' "
            f"or a dtype name such as 'float32'. ({error})"
        ) from None
    return dtype, dtype, dtype


class _GlobalPolicy(threading.local):
    policy = None


_global = _GlobalPolicy()


def get(identifier):
    """Returns the dtype policy an identifier names.

    Args:
        identifier: None (the global policy), a policy name (``"mixed_float16"``, a quantized one such as
            ``"int8_from_float32"``) or dtype name
            (``"float32"``), a :class:`DTypePolicy` (returned as it is), a dtype object, or a config dict from
            :func:`serialize`.

    Returns:
        A :class:`DTypePolicy`.

    Raises:
        ValueError: a dict that is not a serialized policy, or a name that is neither a policy nor a dtype.

    >>> get("mixed_bfloat16").compute_dtype
    'bfloat16'
    >>> get("float64").variable_dtype
    'float64'
    """
    if identifier is None:
        return dtype_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        from highlevel.dtype_policies.serialization import deserialize as _deserialize

        return _deserialize(identifier)
    if isinstance(identifier, str):
        from highlevel.dtype_policies.quantized_policies import is_quantized_name, policy_from_name

        return policy_from_name(identifier) if is_quantized_name(identifier) else DTypePolicy(identifier)
    return DTypePolicy(_dtypes.standardize_dtype(identifier))


def serialize(dtype_policy):
    """Returns a dtype policy as a JSON-friendly dict.

    Args:
        dtype_policy: a :class:`DTypePolicy` (or a quantized policy, or a policy map).

    Returns:
        ``{"class_name": <the policy's class name>, "config": <its get_config()>}``.

    Raises:
        TypeError: if ``dtype_policy`` is not a DTypePolicy.

    >>> import highlevel as hl
    >>> hl.mixed_precision.serialize(hl.mixed_precision.DTypePolicy("mixed_bfloat16"))["config"]
    {'name': 'mixed_bfloat16'}
    """
    if not isinstance(dtype_policy, DTypePolicy):
        raise TypeError(
            f"serialize takes a DTypePolicy; received {dtype_policy!r} of type {type(dtype_policy).__name__}. "
            "Turn a name into a policy first with hl.dtype_policies.get(name)."
        )
    return {"class_name": type(dtype_policy).__name__, "config": dtype_policy.get_config()}


def deserialize(config):
    """Rebuilds a dtype policy from :func:`serialize`'s output.

    Args:
        config: a dict ``{"class_name": "DTypePolicy", "config": {"name": ...}}``.

    Returns:
        A :class:`DTypePolicy`.

    >>> import highlevel as hl
    >>> policy = hl.mixed_precision.DTypePolicy("mixed_float16")
    >>> hl.mixed_precision.deserialize(hl.mixed_precision.serialize(policy)).name
    'mixed_float16'
    """
    return get(config)


def set_dtype_policy(policy):
    """Sets the global dtype policy that layers created afterwards (without a ``dtype``) use.

    Args:
        policy: a :class:`DTypePolicy` or a name (``"mixed_float16"``, ``"mixed_bfloat16"``, ``"float32"``, ...);
            None restores the default (``floatx``).

    Returns:
        None.

    >>> set_dtype_policy("mixed_bfloat16")
    >>> dtype_policy().name
    'mixed_bfloat16'
    >>> set_dtype_policy(None)
    """
    _global.policy = None if policy is None else get(policy)


def dtype_policy():
    """Returns the global dtype policy, which layers created without a ``dtype`` use.

    Returns:
        A :class:`DTypePolicy`: ``floatx`` unless :func:`set_dtype_policy` changed it.

    >>> import highlevel as hl
    >>> hl.mixed_precision.dtype_policy().name
    'float32'
    """
    policy = _global.policy
    if policy is None:
        return DTypePolicy(_dtypes.floatx())
    return policy


#: Keras 2 names of the global-policy functions.
set_global_policy = set_dtype_policy
global_policy = dtype_policy
