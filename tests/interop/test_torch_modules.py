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
    # highlevel's own loops say what they mean: predict runs inference whatever the module's mode
    np.testing.assert_array_equal(model.predict(X, verbose=0), model.predict(X, verbose=0))
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
    # the layers compute in the new dtype, as a cast torch module does
    assert all(layer.compute_dtype == "float64" for layer in model.layers)
    assert model(torch.ones(2, 4)).dtype == torch.float64
    model.float()
    assert all(v.dtype == "float32" for v in model.weights)
    assert model(torch.ones(2, 4, dtype=torch.float64)).dtype == torch.float32


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


# --------------------------------------------------------------------------------------- TorchModuleWrapper
def _wrapped_model():
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.BatchNorm1d(16), torch.nn.ReLU())
    inputs = hl.Input((4,))
    wrapper = hl.layers.TorchModuleWrapper(net)
    return hl.Model(inputs, hl.layers.Dense(1)(wrapper(inputs))), wrapper, net


def test_a_wrapped_module_s_parameters_and_buffers_are_the_layer_s_weights():
    model, wrapper, net = _wrapped_model()
    assert [id(v.value) for v in wrapper.trainable_weights] == [id(p) for p in net.parameters()]
    assert [v.name for v in wrapper.non_trainable_weights] == [
        "1.running_mean",
        "1.running_var",
        "1.num_batches_tracked",
    ]
    assert model.layers[-1].output.shape == (None, 1)
    # as a module, the wrapper's child is the torch module: names and kinds as torch gives them, each once
    keys = list(model.state_dict())
    assert sum(k.endswith("module.1.running_mean") for k in keys) == 1 and len(keys) == len(set(keys))
    assert len(list(model.parameters())) == 6


def _fit_wrapped(run_eagerly):
    model, wrapper, net = _wrapped_model()
    model.compile(hl.optimizers.Adam(0.02), "mse", run_eagerly=run_eagerly)
    start = _mse(model)
    before = net[1].running_mean.clone()
    history = model.fit(X, Y, epochs=6, batch_size=16, verbose=0, shuffle=False)
    return model, net, start, before, history.history["loss"]


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_fit_trains_a_wrapped_module_and_its_batch_norm_statistics(run_eagerly):
    model, net, start, before, _ = _fit_wrapped(run_eagerly)
    assert _mse(model) < 0.5 * start
    assert not torch.equal(net[1].running_mean, before)  # the module ran in training mode inside fit
    assert int(net[1].num_batches_tracked) == 6 * 4


def test_the_recorded_step_trains_a_wrapped_module_as_the_eager_step_does():
    losses = []
    for run_eagerly in (False, True):
        hl.utils.set_random_seed(0)
        losses.append(_fit_wrapped(run_eagerly)[-1])
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-5)


def test_a_model_with_a_wrapped_module_saves_and_loads(tmp_path):
    model, wrapper, net = _wrapped_model()
    model.compile(hl.optimizers.Adam(0.02), "mse")
    model.fit(X, Y, epochs=2, batch_size=16, verbose=0)
    expected = model.predict(X, verbose=0)
    path = str(tmp_path / "wrapped.keras")
    model.save(path)
    with pytest.raises(ValueError, match="safe_mode=False"):
        hl.saving.load_model(path)
    loaded = hl.saving.load_model(path, safe_mode=False)
    np.testing.assert_allclose(loaded.predict(X, verbose=0), expected, rtol=1e-6)
    # weights alone need no consent: into a model built the same way
    weights = str(tmp_path / "wrapped.weights.h5")
    model.save_weights(weights)
    fresh, _, _ = _wrapped_model()
    fresh.load_weights(weights)
    np.testing.assert_allclose(fresh.predict(X, verbose=0), expected, rtol=1e-6)


def test_a_torch_module_assigned_to_a_layer_is_wrapped_and_trained_by_fit():
    class WithTorchPart(hl.Model):
        def __init__(self):
            super().__init__()
            self.body = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU())
            self.head = hl.layers.Dense(1)

        def call(self, x):
            return self.head(self.body(x))

    torch.manual_seed(0)
    model = WithTorchPart()
    assert isinstance(model.body, hl.layers.TorchModuleWrapper)
    model(X[:2])
    assert len(model.trainable_weights) == 4
    model.compile(hl.optimizers.Adam(0.02), "mse")
    start = _mse(model)
    model.fit(X, Y, epochs=5, batch_size=16, verbose=0)
    assert _mse(model) < 0.5 * start


def test_the_wrapper_runs_the_module_in_the_mode_of_the_call():
    wrapper = hl.layers.TorchModuleWrapper(torch.nn.Dropout(0.5))
    x = torch.ones(4, 64)
    assert torch.equal(wrapper(x), x)  # no training flag: inference
    assert not torch.equal(wrapper(x, training=True), x)
    assert torch.equal(wrapper(x, training=False), x)


def test_the_wrapper_refuses_what_it_cannot_wrap():
    with pytest.raises(TypeError, match="expects a torch.nn.Module; received int"):
        hl.layers.TorchModuleWrapper(3)
    with pytest.raises(TypeError, match="highlevel layer"):
        hl.layers.TorchModuleWrapper(hl.layers.Dense(2))
    with pytest.raises(ValueError, match="not initialized yet"):
        hl.layers.TorchModuleWrapper(torch.nn.LazyLinear(2))
    for other in ("native", "jax"):
        with hl.config.backend_scope(other):
            with pytest.raises(ValueError, match=f"needs the torch backend; the current backend is '{other}'"):
                hl.layers.TorchModuleWrapper(torch.nn.Linear(2, 2))


# ----------------------------------------------------------- the loops of Keras's PyTorch guides, as they are written
def _classification_data():
    rng = np.random.default_rng(11)
    centers = rng.normal(scale=3.0, size=(3, 8)).astype("float32")
    labels = rng.integers(0, 3, size=(192,))
    points = (centers[labels] + rng.normal(size=(192, 8))).astype("float32")
    return points, labels


def _classifier():
    return hl.Sequential([hl.Input((8,)), hl.layers.Dense(32, activation="relu"), hl.layers.Dense(3)])


def _loader(points, labels):
    dataset = torch.utils.data.TensorDataset(torch.from_numpy(points), torch.from_numpy(labels))
    return torch.utils.data.DataLoader(dataset, batch_size=32, shuffle=True)


def _accuracy(model, points, labels):
    return float(np.mean(np.argmax(model.predict(points, verbose=0), axis=-1) == labels))


def _check_learned_and_saves(model, points, labels, first_loss, last_loss, tmp_path):
    assert last_loss < 0.5 * first_loss
    assert _accuracy(model, points, labels) > 0.9
    expected = model.predict(points, verbose=0)
    path = str(tmp_path / "model.keras")
    model.save(path)
    loaded = hl.saving.load_model(path)
    np.testing.assert_allclose(loaded.predict(points, verbose=0), expected, rtol=1e-5, atol=1e-6)


def test_the_guide_loop_with_a_highlevel_optimizer_applying_the_torch_grads(tmp_path):
    points, labels = _classification_data()
    model = _classifier()
    loss_fn = hl.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = hl.optimizers.Adam(learning_rate=1e-2)
    train_acc_metric = hl.metrics.SparseCategoricalAccuracy()
    accuracy_per_epoch, losses = [], []
    for _ in range(4):
        for x, y in _loader(points, labels):
            logits = model(x, training=True)
            loss = loss_fn(y, logits)
            model.zero_grad()
            loss.backward()
            trainable_weights = [v for v in model.trainable_weights]
            gradients = [v.value.grad for v in trainable_weights]
            with torch.no_grad():
                optimizer.apply(gradients, trainable_weights)
            train_acc_metric.update_state(y, logits)
            losses.append(float(loss.detach()))
        accuracy_per_epoch.append(float(train_acc_metric.result()))
        train_acc_metric.reset_state()
    assert accuracy_per_epoch[-1] > accuracy_per_epoch[0] and accuracy_per_epoch[-1] > 0.9
    assert int(optimizer.iterations.numpy()) == 4 * 6
    _check_learned_and_saves(model, points, labels, losses[0], np.mean(losses[-6:]), tmp_path)


def test_the_guide_loop_with_a_torch_optimizer_over_the_model_parameters(tmp_path):
    points, labels = _classification_data()
    model = _classifier()
    loss_fn = hl.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(4):
        for x, y in _loader(points, labels):
            logits = model(x, training=True)
            loss = loss_fn(y, logits)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            losses.append(float(loss.detach()))
    _check_learned_and_saves(model, points, labels, losses[0], np.mean(losses[-6:]), tmp_path)


class _GuideModel(hl.Model):
    """``train_step`` as "Customizing what happens in fit()" writes it for PyTorch."""

    def train_step(self, data):
        x, y = data
        self.zero_grad()
        y_pred = self(x, training=True)
        loss = self.compute_loss(y=y, y_pred=y_pred)
        loss.backward()
        trainable_weights = [v for v in self.trainable_weights]
        gradients = [v.value.grad for v in trainable_weights]
        with torch.no_grad():
            self.optimizer.apply(gradients, trainable_weights)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def _guide_model():
    inputs = hl.Input(shape=(8,))
    outputs = hl.layers.Dense(3)(hl.layers.Dense(32, activation="relu")(inputs))
    return _GuideModel(inputs, outputs)


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_a_pytorch_style_train_step_trains_under_fit(run_eagerly, tmp_path):
    points, labels = _classification_data()
    model = _guide_model()
    model.compile(
        optimizer=hl.optimizers.Adam(1e-2),
        loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
        run_eagerly=run_eagerly,
    )
    history = model.fit(points, labels, epochs=4, batch_size=32, verbose=0).history
    assert history["accuracy"][-1] > history["accuracy"][0] and history["accuracy"][-1] > 0.9
    assert int(model.optimizer.iterations.numpy()) == 4 * 6
    assert history["loss"][-1] < 0.5 * history["loss"][0]
    loaded_path = str(tmp_path / "custom.keras")
    expected = model.predict(points, verbose=0)
    model.save(loaded_path)
    loaded = hl.saving.load_model(loaded_path, custom_objects={"_GuideModel": _GuideModel})
    np.testing.assert_allclose(loaded.predict(points, verbose=0), expected, rtol=1e-5, atol=1e-6)


def test_the_recorded_fit_runs_a_step_that_calls_backward_as_the_eager_fit_does():
    points, labels = _classification_data()
    histories = []
    for run_eagerly in (False, True):
        hl.utils.set_random_seed(0)
        model = _guide_model()
        model.compile(
            optimizer=hl.optimizers.Adam(1e-2), loss="sparse_categorical_crossentropy", run_eagerly=run_eagerly
        )
        histories.append(model.fit(points, labels, epochs=2, batch_size=32, verbose=0, shuffle=False).history["loss"])
    np.testing.assert_allclose(histories[0], histories[1], rtol=1e-5)


def test_to_keeps_a_wrapped_module_s_weights_linked_to_its_tensors():
    model, wrapper, net = _wrapped_model()
    model.to(torch.float64)
    assert all(v.dtype == "float64" for v in model.weights if v.dtype.startswith("float"))
    assert [id(v.value) for v in wrapper.weights] == [id(t) for t in (*net.parameters(), *net.buffers())]
    model.compile(hl.optimizers.Adam(0.02), "mse")
    model.fit(X.astype("float64"), Y.astype("float64"), epochs=1, batch_size=16, verbose=0)
    assert int(net[1].num_batches_tracked) == 4


def test_a_train_step_stepping_a_torch_optimizer_trains_under_fit():
    class TorchOptimModel(hl.Model):
        def train_step(self, data):
            x, y = data
            self.torch_optimizer.zero_grad()
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
            loss.backward()
            self.torch_optimizer.step()
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    points, labels = _classification_data()
    inputs = hl.Input(shape=(8,))
    model = TorchOptimModel(inputs, hl.layers.Dense(3)(hl.layers.Dense(32, activation="relu")(inputs)))
    model.torch_optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.compile(loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    history = model.fit(points, labels, epochs=4, batch_size=32, verbose=0).history
    assert history["loss"][-1] < 0.5 * history["loss"][0]
    assert history["accuracy"][-1] > 0.9
    assert _accuracy(model, points, labels) > 0.9


def test_a_model_pickles_and_deep_copies_as_a_module():
    import copy
    import pickle

    model = _TwoLayers()
    model(X[:2])
    for again in (pickle.loads(pickle.dumps(model)), copy.deepcopy(model)):
        assert isinstance(again, _TwoLayers) and isinstance(again, torch.nn.Module)
        assert [n for n, _ in again.named_parameters()] == [n for n, _ in model.named_parameters()]
        assert again.weights[0].value is not model.weights[0].value
        np.testing.assert_allclose(again.predict(X, verbose=0), model.predict(X, verbose=0), rtol=1e-6)
