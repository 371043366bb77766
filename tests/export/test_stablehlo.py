"""``model.export(format="jax_export")`` on JAX: the serialized program, run by ``jax.export.deserialize(...).call``,
predicts as ``model.predict`` for two batch sizes; other engines refuse it and name JAX."""

import numpy as np
import pytest

from .models import BATCHES, MODELS, expected, inputs, others, writers


@pytest.fixture
def jax_backend(backend):
    import jax

    return jax


@pytest.mark.backends(*writers("jax_export"))
@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_program_predicts_as_the_model_for_any_batch(jax_backend, name, tmp_path):
    jax = jax_backend
    model = MODELS[name]()
    path = tmp_path / "model.stablehlo"
    model.export(path, format="jax_export", verbose=False)
    program = jax.export.deserialize(bytearray(path.read_bytes()))
    assert "b" in str(program.in_avals[0].shape)  # the batch is a symbol, not a number
    for batch in BATCHES:
        args = inputs(name, batch)
        out = np.asarray(program.call(*args))
        np.testing.assert_allclose(out, expected(model, args), rtol=1e-5, atol=1e-6)


@pytest.mark.backends(*writers("jax_export"))
def test_stablehlo_is_another_name_for_the_format(jax_backend, tmp_path):
    jax = jax_backend
    model = MODELS["mlp"]()
    model.export(tmp_path / "m.bin", format="stablehlo", verbose=False)
    program = jax.export.deserialize(bytearray((tmp_path / "m.bin").read_bytes()))
    x = inputs("mlp", 2)[0]
    np.testing.assert_allclose(np.asarray(program.call(x)), model.predict(x, verbose=0), rtol=1e-5, atol=1e-6)


@pytest.mark.backends(*others("jax_export"))
def test_other_engines_refuse_and_name_jax(backend, tmp_path):
    with pytest.raises(ValueError, match=r"jax_export.*cannot be written on the '\w+' backend.*'jax'"):
        MODELS["mlp"]().export(tmp_path / "m.bin", format="jax_export")
    assert not (tmp_path / "m.bin").exists()
