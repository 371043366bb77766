"""``Config``: a dict whose entries are also attributes, that can be frozen and written as JSON.

>>> config = Config(learning_rate=0.1)
>>> config.momentum = 0.9
>>> config["seed"] = 1
>>> config.learning_rate, config["momentum"], sorted(config)
(0.1, 0.9, ['learning_rate', 'momentum', 'seed'])
>>> config.freeze()
>>> config.seed = 2
Traceback (most recent call last):
...
ValueError: Cannot change 'seed': this Config is frozen. Call config.unfreeze() first to modify it.
"""

import copy
import difflib
import json


class Config:
    """A container of named values, read and written as attributes or as dict items.

    Args:
        **kwargs: the initial entries.

    A frozen config (``freeze()``) refuses every change until ``unfreeze()``. ``as_dict()`` returns a shallow
    copy of the entries, ``to_json()`` their JSON text. Iterating yields the keys in sorted order.

    >>> import highlevel as hl
    >>> config = hl.utils.Config(learning_rate=0.1, layers={"units": 8})
    >>> config.learning_rate, config["layers"]
    (0.1, {'units': 8})
    """

    # Names that are real attributes of the object; every other attribute name is an entry.
    _OWN = frozenset({"_config", "_frozen"})

    def __init__(self, **kwargs):
        object.__setattr__(self, "_config", dict(kwargs))
        object.__setattr__(self, "_frozen", False)

    @property
    def frozen(self):
        """Whether changes are refused."""
        return self._frozen

    def freeze(self):
        """Refuses every later change (until ``unfreeze()``)."""
        object.__setattr__(self, "_frozen", True)

    def unfreeze(self):
        """Allows changes again."""
        object.__setattr__(self, "_frozen", False)

    def _check_not_frozen(self, what):
        if self._frozen:
            raise ValueError(f"Cannot change {what}: this Config is frozen. Call config.unfreeze() first to modify it.")

    def as_dict(self):
        """A shallow copy of the entries as a plain dict."""
        return copy.copy(self._config)

    def to_json(self):
        """The entries as a JSON string (they must be JSON-serializable)."""
        return json.dumps(self._config)

    def keys(self):
        return self._config.keys()

    def values(self):
        return self._config.values()

    def items(self):
        return self._config.items()

    def get(self, keyname, value=None):
        return self._config.get(keyname, value)

    def pop(self, *args):
        self._check_not_frozen(repr(args[0]) if args else "the config")
        return self._config.pop(*args)

    def update(self, *args, **kwargs):
        self._check_not_frozen("the config")
        return self._config.update(*args, **kwargs)

    def __setattr__(self, name, value):
        if name in self._OWN:
            return object.__setattr__(self, name, value)
        if hasattr(Config, name):
            raise AttributeError(f"{name!r} is a method of Config; store this entry as config[{name!r}] instead.")
        self._check_not_frozen(repr(name))
        self._config[name] = value

    def __getattr__(self, name):
        # Only called when normal lookup fails, i.e. for entries.
        config = self.__dict__.get("_config", {})
        if name in config:
            return config[name]
        message = f"Unknown attribute: {name!r}."
        close = difflib.get_close_matches(name, list(config), n=1, cutoff=0.7)
        if close:
            message += f" Did you mean {close[0]!r}?"
        raise AttributeError(message)

    def __delattr__(self, name):
        self._check_not_frozen(repr(name))
        if name not in self._config:
            raise AttributeError(f"Unknown attribute: {name!r}.")
        del self._config[name]

    def __setitem__(self, key, item):
        self._check_not_frozen(repr(key))
        self._config[key] = item

    def __getitem__(self, key):
        return self._config[key]

    def __delitem__(self, key):
        self._check_not_frozen(repr(key))
        del self._config[key]

    def __contains__(self, item):
        return item in self._config

    def __iter__(self):
        return iter(sorted(self._config))

    def __len__(self):
        return len(self._config)

    def __repr__(self):
        return f"<Config {self._config}>"
