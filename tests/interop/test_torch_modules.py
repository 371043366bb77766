"""On the torch engine a highlevel layer or model is a ``torch.nn.Module``: PyTorch's own tools (``parameters()``,
``state_dict()``, ``train()``/``eval()``, ``backward()``, ``torch.optim``, ``torch.compile``) work on it, and the
training loops of Keras's PyTorch guides train it."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import highlevel as hl  # noqa: E402

RNG = np.random.default_rng(3)
X = RNG.normal(size=(64, 4)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5], [1.5]], dtype="float32")).astype("float32")


@pytest.fixture(autouse=True)
def _torch_engine():
    with hl.config.backend_scope("torch"):
        hl.utils.set_random_seed(0)
        yield


def _mlp(dropout=0.0):
    layers = [hl.Input((4,)), hl.layers.Dense(16, activation="relu")]
    if dropout:
        layers.append(hl.layers.Dropout(dropout))
    layers.append(hl.layers.Dense(1))
    return hl.Sequential(layers)


class _TwoLayers(hl.Model):
    def __init__(self):
        super().__init__()
        self.hidden = hl.layers.Dense(16, activation="relu")
        self.out = hl.layers.Dense(1)

    def call(self, x):
        return self.out(self.hidden(x))


def _mse(model, x=X, y=Y):
    return float(np.mean((np.asarray(model.predict(x, verbose=0)) - y) ** 2))


# ------------------------------------------------------------------------------------------- the module itself
def test_layers_and_models_are_modules_whose_parameters_are_the_variables():
    model = _TwoLayers()
    model(X[:2])
    assert isinstance(model, torch.nn.Module) and isinstance(model.hidden, torch.nn.Module)
    assert type(model).__name__ == "_TwoLayers" and isinstance(model, _TwoLayers)
    names = [name for name, _ in model.named_parameters()]
    assert names == ["hidden.kernel", "hidden.bias", "out.kernel", "out.bias"]
    # the very objects the variables hold: an optimizer stepping them changes the model
    assert [id(p) for p in model.parameters()] == [id(v.value) for v in model.weights]
    assert [name for name, _ in model.named_children()] == ["hidden", "out"]


def test_a_sequential_lists_each_weight_once_in_its_state_dict():
    model = _mlp()
    keys = list(model.state_dict())
    assert len(keys) == 4 and len(set(keys)) == 4
    assert all(k.endswith((".kernel", ".bias")) for k in keys)


def test_state_dict_round_trip_into_a_fresh_model():
    a, b = _TwoLayers(), _TwoLayers()
    a(X[:2]), b(X[:2])
    assert not np.allclose(a.predict(X, verbose=0), b.predict(X, verbose=0))
    result = b.load_state_dict(a.state_dict())
    assert not result.missing_keys and not result.unexpected_keys
    np.testing.assert_allclose(b.predict(X, verbose=0), a.predict(X, verbose=0), rtol=1e-6)
    with pytest.raises(RuntimeError, match="size mismatch"):
        b.load_state_dict({**a.state_dict(), "out.bias": torch.zeros(3)})


def test_train_and_eval_set_the_mode_of_calls_given_no_training_argument():
    model = _mlp(dropout=0.5)
    x = torch.ones(8, 4)
    # neither called: Keras's default, inference (dropout off)
    assert torch.equal(model(x), model(x))
    assert model.train() is model
    assert model.training and all(m._framework_training for m in model.modules())
    assert not torch.equal(model(x), model(x))  # dropout active
    model.eval()
    assert not model.training
    assert torch.equal(model(x), model(x))
    # an explicit argument still wins over the mode
    assert not torch.equal(model(x, training=True), model(x, training=True))
    with pytest.raises(ValueError, match="takes a bool"):
        model.train("yes")


def test_backward_fills_the_grads_and_zero_grad_clears_them():
    model = _mlp()
    loss = torch.mean((model(torch.from_numpy(X)) - torch.from_numpy(Y)) ** 2)
    loss.backward()
    grads = [p.grad for p in model.parameters()]
    assert all(g is not None and g.shape == p.shape for g, p in zip(grads, model.parameters()))
    assert any(float(g.abs().sum()) > 0 for g in grads)
    # the same tensors the Keras guide reads: v.value.grad
    assert all(v.value.grad is p.grad for v, p in zip(model.trainable_weights, model.parameters()))
    model.zero_grad()
    assert all(p.grad is None for p in model.parameters())


def test_a_torch_optim_loop_over_parameters_trains_the_model_and_predict_sees_it():
    model = _mlp()
    start = _mse(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
    x, y = torch.from_numpy(X), torch.from_numpy(Y)
    for _ in range(60):
        optimizer.zero_grad()
        loss = torch.mean((model(x) - y) ** 2)
        loss.backward()
        optimizer.step()
    assert _mse(model) < 0.2 * start


def test_to_moves_and_casts_the_variables_in_place():
    model = _mlp()
    params = list(model.parameters())
    assert model.to("cpu") is model and model.to(torch.device("cpu")) is model
    model.to(torch.float64)
    assert [id(p) for p in model.parameters()] == [id(p) for p in params]
    assert all(v.dtype == "float64" for v in model.weights)
    assert model(torch.ones(2, 4, dtype=torch.float64)).dtype == torch.float64
    model.to(torch.float32)
    assert all(v.dtype == "float32" for v in model.weights)


def test_torch_compile_of_a_model_gives_the_same_outputs():
    model = _TwoLayers()
    x = torch.from_numpy(X)
    expected = model(x)
    compiled = torch.compile(model, backend="eager")  # dynamo's capture of the model, without code generation
    torch.testing.assert_close(compiled(x), expected)
    torch.testing.assert_close(compiled(x * 2.0), model(x * 2.0))


def test_registering_through_the_module_registry_is_refused_with_a_hint():
    layer = hl.layers.Dense(2)
    with pytest.raises(TypeError, match="Assign it as an attribute"):
        layer.register_parameter("extra", torch.nn.Parameter(torch.zeros(2)))
