"""``model.export(format="torch")`` on PyTorch: the ``torch.export`` program, loaded with ``torch.export.load``,
predicts as ``model.predict`` for two batch sizes; other engines refuse it and name PyTorch."""

import numpy as np
import pytest

from .models import BATCHES, MODELS, expected, inputs, others, writers


@pytest.fixture
def torch_backend(backend):
    import torch

    return torch


def _to_torch(torch, arg):
    if isinstance(arg, list):
        return [torch.from_numpy(a) for a in arg]
    return torch.from_numpy(arg)


@pytest.mark.backends(*writers("torch"))
@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_program_predicts_as_the_model_for_any_batch(torch_backend, name, tmp_path):
    torch = torch_backend
    model = MODELS[name]()
    path = tmp_path / "model.pt2"
    model.export(path, format="torch", verbose=False)
    program = torch.export.load(str(path)).module()
    for batch in BATCHES:
        args = inputs(name, batch)
        with torch.no_grad():
            out = program(*[_to_torch(torch, a) for a in args]).numpy()
        np.testing.assert_allclose(out, expected(model, args), rtol=1e-5, atol=1e-6)


def test_the_path_must_end_in_pt2(backend, tmp_path):
    with pytest.raises(ValueError, match=r"ending in '\.pt2'.*model\.bin"):
        MODELS["mlp"]().export(tmp_path / "model.bin", format="torch")


@pytest.mark.backends(*others("torch"))
def test_other_engines_refuse_and_name_torch(backend, tmp_path):
    with pytest.raises(ValueError, match=r"'torch'\) cannot be written on the '\w+' backend.*'torch' backend"):
        MODELS["mlp"]().export(tmp_path / "m.pt2", format="torch")
    assert not (tmp_path / "m.pt2").exists()


@pytest.mark.backends(*writers("torch"))
def test_dynamic_shapes_given_as_keras_does_for_one_input(torch_backend, tmp_path):
    torch = torch_backend
    model = MODELS["mlp"]()
    batch = torch.export.Dim("batch", min=2, max=16)
    model.export(tmp_path / "m.pt2", format="torch", verbose=False, dynamic_shapes={0: batch})
    program = torch.export.load(str(tmp_path / "m.pt2")).module()
    for size in BATCHES:
        x = inputs("mlp", size)[0]
        with torch.no_grad():
            out = program(torch.from_numpy(x)).numpy()
        np.testing.assert_allclose(out, model.predict(x, verbose=0), rtol=1e-5, atol=1e-6)
    with pytest.raises(Exception, match="batch|size|17|<= 16"):
        program(torch.zeros((17, 4)))  # outside the range the program was exported for
