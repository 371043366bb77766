"""A dtype policy per layer path (``keras.dtype_policies.DTypePolicyMap``): one composite layer's config can
give each of its sub-layers its own policy (a quantized attention block with float norms, ...).

Keys are layer paths (``layer.path``, such as ``"encoder/layer_0/dense"``) or regular expressions matched
against the whole path; a path that matches no key gets the default policy.

>>> import highlevel as hl
>>> policies = DTypePolicyMap(default_policy="float32")
>>> policies["encoder/.*"] = "bfloat16"
>>> policies["encoder/dense"] = "int8_from_float32"
>>> policies["encoder/dense"].name, policies["encoder/norm"].name, policies["decoder"].name
('int8_from_float32', 'bfloat16', 'float32')
"""

import re
from collections.abc import MutableMapping

from highlevel.mixed_precision.policy import DTypePolicy, get


class DTypePolicyMap(DTypePolicy, MutableMapping):
    """A mapping from layer paths (or regular expressions of them) to dtype policies, itself usable as a
    policy: its dtypes and quantization mode are the default policy's.

    Args:
        default_policy: the policy of paths that match no key: a policy, a name, or None for the global policy
            (read when asked, so a later ``set_dtype_policy`` applies).
        policy_map: an optional dict ``{path or regex: policy}`` to start with.

    Raises:
        ValueError: if ``default_policy`` is itself a DTypePolicyMap.
        TypeError: if ``policy_map`` is not a dict.

    >>> policies = DTypePolicyMap("mixed_bfloat16", {"head": "float32"})
    >>> policies.name, policies.compute_dtype, policies["head"].compute_dtype, len(policies)
    ('map_mixed_bfloat16', 'bfloat16', 'float32', 1)
    """

    def __init__(self, default_policy=None, policy_map=None):
        if isinstance(default_policy, DTypePolicyMap):
            raise ValueError("default_policy cannot be a DTypePolicyMap; pass a single policy or its name.")
        if policy_map is not None and not isinstance(policy_map, dict):
            raise TypeError(
                f"policy_map must be a dict {{path: policy}}; received {policy_map!r} of type "
                f"{type(policy_map).__name__}."
            )
        self._default_policy_arg = default_policy
        if default_policy is not None:
            get(default_policy)  # a bad name fails here, not at the first lookup
        self._policy_map = {}
        for key, policy in (policy_map or {}).items():
            self[key] = policy

    @property
    def default_policy(self):
        """The policy of the paths that match no key (the global policy when none was given)."""
        return get(self._default_policy_arg)

    @property
    def name(self):
        """``"map_<default policy's name>"``."""
        return f"map_{self.default_policy.name}"

    @property
    def compute_dtype(self):
        """The default policy's compute dtype."""
        return self.default_policy.compute_dtype

    @property
    def variable_dtype(self):
        """The default policy's variable dtype."""
        return self.default_policy.variable_dtype

    @property
    def quantization_mode(self):
        """The default policy's quantization mode (None for a float policy)."""
        return self.default_policy.quantization_mode

    @property
    def is_mixed(self):
        """Whether the default policy computes and stores in different dtypes."""
        return self.default_policy.is_mixed

    def __getitem__(self, key):
        """The policy of a path: the exact key first, else the one key that matches it as a regex, else the
        default policy.

        Args:
            key: a layer path.

        Returns:
            A DTypePolicy.

        Raises:
            ValueError: if more than one key matches the path as a regular expression.

        >>> policies = DTypePolicyMap("float32", {"a/.*": "float16", ".*/b": "bfloat16"})
        >>> policies["a/c"].name
        'float16'
        >>> policies["a/b"]
        Traceback (most recent call last):
        ...
        ValueError: Path 'a/b' matches more than one key of the DTypePolicyMap: ['a/.*', '.*/b']. ...
        """
        if key in self._policy_map:
            return self._policy_map[key]
        matches = [pattern for pattern in self._policy_map if re.fullmatch(pattern, key)]
        if len(matches) > 1:
            raise ValueError(
                f"Path {key!r} matches more than one key of the DTypePolicyMap: {matches}. Make the keys specific "
                "enough that each path matches at most one."
            )
        if matches:
            return self._policy_map[matches[0]]
        return self.default_policy

    def __setitem__(self, key, policy):
        """Sets the policy of a path or regex; a key can be set once.

        Args:
            key: a layer path or a regular expression of paths.
            policy: a DTypePolicy or anything ``hl.dtype_policies.get`` accepts.

        Raises:
            ValueError: if the key is already set or the policy cannot be interpreted.

        >>> policies = DTypePolicyMap()
        >>> policies["dense"] = "int8_from_float32"
        >>> policies["dense"].quantization_mode
        'int8'
        """
        if key in self._policy_map:
            raise ValueError(
                f"{key!r} is already in the DTypePolicyMap (with {self._policy_map[key]!r}); each key can be set "
                "once. Delete it first to replace it."
            )
        try:
            policy = get(policy)
        except (TypeError, ValueError) as error:
            raise ValueError(
                f"Cannot use {policy!r} (type {type(policy).__name__}) as the dtype policy of {key!r}: {error}"
            ) from None
        self._policy_map[key] = policy

    def __delitem__(self, key):
        del self._policy_map[key]

    def __contains__(self, key):
        return key in self._policy_map

    def __len__(self):
        return len(self._policy_map)

    def __iter__(self):
        return iter(self._policy_map)

    def get_config(self):
        """The default policy as given and every entry serialized.

        Returns:
            ``{"default_policy": ..., "policy_map": {key: serialized policy}}``.

        >>> DTypePolicyMap("float32", {"d": "int8_from_float32"}).get_config()["policy_map"]["d"]["class_name"]
        'QuantizedDTypePolicy'
        """
        from . import serialize

        default = self._default_policy_arg
        if isinstance(default, DTypePolicy):
            default = serialize(default)
        return {"default_policy": default, "policy_map": {k: serialize(v) for k, v in self._policy_map.items()}}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuilds a map from :meth:`get_config`'s dict.

        Args:
            config: the dict.
            custom_objects: optional ``{name: class}`` for your own policy classes.

        Returns:
            A DTypePolicyMap.

        >>> policies = DTypePolicyMap("float32", {"d": "int4/64_from_float32"})
        >>> DTypePolicyMap.from_config(policies.get_config()) == policies
        True
        """
        from . import deserialize

        default = config.get("default_policy")
        if isinstance(default, dict):
            default = deserialize(default, custom_objects)
        entries = config.get("policy_map") or {}
        if isinstance(entries, dict) and "class_name" in entries and "config" in entries:
            entries = entries["config"]  # a Keras file writes the dict itself as a serialized object
        policy_map = {
            key: deserialize(value, custom_objects) if isinstance(value, dict) else value
            for key, value in entries.items()
        }
        return cls(default_policy=default, policy_map=policy_map)

    def __eq__(self, other):
        return (
            type(other) is type(self)
            and other._default_policy_arg == self._default_policy_arg
            and other._policy_map == self._policy_map
        )

    def __hash__(self):
        return id(self)

    def __repr__(self):
        mapping = [(key, policy.name) for key, policy in self._policy_map.items()]
        return f"<DTypePolicyMap default_policy={self.default_policy.name} mapping={mapping}>"
