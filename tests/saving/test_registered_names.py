"""Two registered classes with the same class name in different packages: loading builds the one the file's
registered name (``"package>Name"``) spells, in both archive formats, whichever was registered last."""

import numpy as np
import pytest

import highlevel as hl


@hl.saving.register_keras_serializable(package="names_a")
class Twin(hl.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = hl.layers.Dense(2)

    def call(self, x):
        return self.dense(x) * 2.0


_TwinA = Twin


@hl.saving.register_keras_serializable(package="names_b")
class Twin(hl.layers.Layer):  # noqa: F811 - the point: a second class of the same name, registered later
    def build(self, input_shape):
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="scale")

    def call(self, x):
        return x * self.scale


@pytest.mark.parametrize("name", ["m.keras", "m.hl.zip"])
def test_the_registered_name_picks_the_class(backend, tmp_path, name):
    model = _TwinA()
    x = np.arange(6, dtype="float32").reshape(2, 3)
    want = model.predict(x, verbose=0)
    model.save(tmp_path / name)
    again = hl.saving.load_model(tmp_path / name)
    assert type(again).__name__ == "Twin" and isinstance(again, _TwinA)
    np.testing.assert_allclose(again.predict(x, verbose=0), want, rtol=1e-6)
