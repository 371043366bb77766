"""``hl.utils.Config``: a dict with attribute access, freezing and JSON, as ``keras.utils.Config``."""

import copy
import json

import pytest

import highlevel as hl


def test_behaves_like_keras_config(keras):
    for cls in (hl.utils.Config, keras.utils.Config):
        config = cls(learning_rate=0.1, momentum=0.9)
        config.seed = 3
        config["name"] = "run"
        assert config.learning_rate == config["learning_rate"] == 0.1
        assert list(config) == ["learning_rate", "momentum", "name", "seed"]
        assert len(config) == 4 and "seed" in config and "nope" not in config
        assert config.get("nope", 7) == 7
        assert json.loads(config.to_json()) == {"learning_rate": 0.1, "momentum": 0.9, "seed": 3, "name": "run"}
        as_dict = config.as_dict()
        as_dict["seed"] = 99
        assert config.seed == 3
        assert config.pop("momentum") == 0.9
        config.update(extra=1)
        del config["extra"]
        assert sorted(config.keys()) == ["learning_rate", "name", "seed"]
        config.freeze()
        assert config.frozen
        for change in (
            lambda: setattr(config, "seed", 4),
            lambda: config.__setitem__("seed", 4),
            lambda: config.pop("seed"),
            lambda: config.update(seed=4),
            lambda: config.__delitem__("seed"),
        ):
            with pytest.raises(ValueError, match="frozen"):
                change()
        assert config.seed == 3
        config.unfreeze()
        config.seed = 4
        assert config["seed"] == 4


def test_unknown_attribute_suggests_a_close_name():
    config = hl.utils.Config(learning_rate=0.1)
    with pytest.raises(AttributeError, match="Did you mean 'learning_rate'"):
        config.learning_rat  # noqa: B018
    with pytest.raises(AttributeError, match="method of Config"):
        config.keys = 1


def test_copies_and_repr():
    config = hl.utils.Config(a=[1])
    clone = copy.deepcopy(config)
    clone.a.append(2)
    assert config.a == [1] and clone.a == [1, 2]
    assert repr(config) == "<Config {'a': [1]}>"
