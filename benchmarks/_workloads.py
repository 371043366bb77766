"""The benchmark workloads: their models (built the same way in highlevel and Keras 3), data and contestants.

* **B1**: MLP 784-512-512-10, batch 128, Adam (compute-bound: big matrix products);
* **B2**: MLP 32-64-64-10, batch 32, Adam (overhead-bound: every microsecond of Python per step shows);
* **B3**: the small CNN of ``tests/trainers/test_trajectory_layers.py`` on 28x28x1 images, batch 64, Adam:
  ``Conv2D(8, 3, same, no bias)``, ``BatchNormalization``, ReLU, ``MaxPooling2D(2)``, ``Flatten``, ``Dense(10)``;
* **B4-predict** / **B4-evaluate**: ``predict`` / ``evaluate`` (loss and accuracy) of the B1 model on 10,000
  samples, batch 512 (20 batches, the last one partial);
* **B5**: a Transformer encoder classifier: ``Embedding(1000, 128)`` on sequences of 128 tokens, 2 post-norm
  blocks of ``MultiHeadAttention(4 heads, key_dim 32)`` + ``LayerNormalization`` + a ReLU feed-forward
  (256 wide), ``GlobalAveragePooling1D``, ``Dense(10)``; batch 32;
* **B6**: two ``LSTM(128)`` layers on sequences of 64 steps x 32 features, ``Dense(10)``; batch 32;
  **B6-bi** the same with each LSTM wrapped in ``Bidirectional``;
* **B7**: a ResNet-style CNN on 32x32x3 images: a conv stem (32 filters) and two residual blocks of
  ``Conv2D`` + ``BatchNormalization`` (the second strided to 64 filters with a 1x1 projection), global
  average pooling, ``Dense(10)``; batch 64;
* **B8**: inference of ``applications.MobileNetV2(weights=None)`` (alpha 1.0, 224x224x3, the 1000-way softmax
  top) with ``predict_on_batch``, batch 8, over 5 batches (ms per batch).

B5-B7's hand-written loops: PyTorch eager (``_hand_heavy.py``), which is also the native engine's "hand" column
there (the native engine's target on them is PyTorch eager CPU); plain ``jax.numpy`` under ``jax.jit``
(``_hand_heavy_jax.py``) and raw TensorFlow under ``tf.function`` (``_hand_heavy_tf.py``), from the same
initial weights (``_hand_heavy_params.py``). B8's hand-written reference is the same MobileNetV2 as a PyTorch
eager module (``_hand_mobilenet.py``), for native and torch alike.

All train with sparse softmax cross-entropy from logits and Adam(1e-3), float32. A contestant is a function
``run()`` doing one "epoch" (one pass over the data, or one ``predict`` / ``evaluate`` call) that returns a
Python float computed from the last result, so that asynchronous engines finish inside the timed region.
``make_contestant(kind, backend, name, steps)`` builds one: ``kind`` is ``ours`` (highlevel), ``hand`` (the
hand-written loop in the backend's framework, numpy for native) or ``keras`` (Keras 3 on the same framework).

>>> WORKLOADS["B1"].widths, WORKLOADS["B1"].batch
([784, 512, 512, 10], 128)
>>> WORKLOADS["B4-predict"].steps(steps=0)
20
"""

import dataclasses
import math
import os

#: The framework each backend's hand-written loop and Keras run on (native: numpy, and no Keras).
FRAMEWORK = {"native": None, "torch": "torch", "jax": "jax", "tensorflow": "tensorflow"}
BACKENDS = tuple(FRAMEWORK)
KINDS = ("ours", "hand", "keras")
CNN_SHAPE = (28, 28, 1)
MOBILENET_SHAPE = (224, 224, 3)
CLASSES = 10


@dataclasses.dataclass(frozen=True)
class Workload:
    """One row family of the table.

    Attributes:
        model: ``"mlp"``, ``"cnn"``, or one of :data:`HEAVY` (B5-B7).
        task: ``"train"``, ``"predict"``, ``"evaluate"`` or ``"infer"`` (``predict_on_batch`` per batch).
        widths: the MLP's layer widths from input to logits (the CNN's input is :data:`CNN_SHAPE`).
        batch: the batch size.
        default_steps: training steps per timed epoch (training workloads).
        quick_steps: the same for ``--quick``.
        samples: the number of samples of an inference workload (its steps are its batches).
    """

    model: str
    task: str
    widths: list
    batch: int
    default_steps: int = 0
    quick_steps: int = 0
    samples: int = 0

    def steps(self, steps=0, quick=False):
        """Steps (batches) per timed run: ``steps`` if given, else the default (or quick) count.

        An inference workload runs over all its samples (``--quick``: its first 5 batches only).
        """
        if self.task != "train":
            return 5 if quick else math.ceil(self.samples / self.batch)
        return steps or (self.quick_steps if quick else self.default_steps)

    def n_samples(self, steps):
        """The number of samples ``steps`` batches cover (inference: at most :attr:`samples`)."""
        return min(self.samples, self.batch * steps) if self.task != "train" else self.batch * steps


WORKLOADS = {
    "B1": Workload("mlp", "train", [784, 512, 512, 10], 128, 20, 4),
    "B2": Workload("mlp", "train", [32, 64, 64, 10], 32, 120, 20),
    "B3": Workload("cnn", "train", [], 64, 12, 3),
    "B4-predict": Workload("mlp", "predict", [784, 512, 512, 10], 512, samples=10_000),
    "B4-evaluate": Workload("mlp", "evaluate", [784, 512, 512, 10], 512, samples=10_000),
    "B5": Workload("transformer", "train", [], 32, 6, 2),
    "B6": Workload("lstm", "train", [], 32, 6, 2),
    "B6-bi": Workload("bilstm", "train", [], 32, 4, 2),
    "B7": Workload("resnet", "train", [], 64, 6, 2),
    "B8": Workload("mobilenetv2", "infer", [], 8, samples=40),
}
#: The heavier workloads' models (B5-B7), with their own hand-written loops (``_hand_heavy*.py``).
HEAVY = ("transformer", "lstm", "bilstm", "resnet")
#: The MLP workloads as ``name -> (widths, batch)`` (what ``fit_overheads.py`` uses).
MLP = {name: (w.widths, w.batch) for name, w in WORKLOADS.items() if w.model == "mlp" and w.task == "train"}


def expand(names):
    """Workload names from a filter: ``B4`` stands for both B4 rows; case-insensitive.

    >>> expand(["b2", "B4"])
    ['B2', 'B4-predict', 'B4-evaluate']
    """
    out = []
    for name in names:
        key = name.strip()
        matches = [w for w in WORKLOADS if w.upper() == key.upper() or w.upper().split("-")[0] == key.upper()]
        if not matches:
            raise ValueError(
                f"Unknown workload {name!r}; expected some of {', '.join(WORKLOADS)} (B4 for both B4 rows)."
            )
        out += [m for m in matches if m not in out]
    return out


def make_data(workload, steps):
    """Standard-normal float32 features and uniform int64 labels, seed 0."""
    import numpy as np
    from _hand_heavy import IMAGE, RNN_FEATURES, RNN_SEQ, SEQ, VOCAB

    rng = np.random.default_rng(0)
    n = workload.n_samples(steps)
    if workload.model == "transformer":
        x = rng.integers(0, VOCAB, (n, SEQ)).astype(np.int64)
        return x, rng.integers(0, CLASSES, n).astype(np.int64)
    shapes = {
        "mobilenetv2": MOBILENET_SHAPE,
        "cnn": CNN_SHAPE,
        "lstm": (RNN_SEQ, RNN_FEATURES),
        "bilstm": (RNN_SEQ, RNN_FEATURES),
        "resnet": IMAGE,
    }
    shape = shapes[workload.model] if workload.model in shapes else (workload.widths[0],)
    x = rng.standard_normal((n, *shape)).astype(np.float32)
    y = rng.integers(0, CLASSES, n).astype(np.int64)
    return x, y


#: Models built in this process, by (library, architecture): B1, B4-predict and B4-evaluate share one model
#: (recompiled for each), since building costs seconds on some engines (Keras on JAX compiles its initializers).
_BUILT = {}


def build_model(lib, workload, reuse=False):
    """The workload's model in ``lib`` (``highlevel`` or ``keras``: they share the API), compiled.

    With ``reuse``, a model of the same architecture built earlier in this process is recompiled and returned.
    """
    key = (lib.__name__, workload.model, tuple(workload.widths))
    model = _BUILT.get(key) if reuse else None
    if model is None:
        model = _BUILT[key] = _build(lib, workload)
    metrics = ["accuracy"] if workload.task == "evaluate" else None
    model.compile(
        optimizer=lib.optimizers.Adam(1e-3),
        loss=lib.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=metrics,
    )
    return model


def _build(lib, workload):
    if workload.model == "mobilenetv2":
        return lib.applications.MobileNetV2(weights=None, input_shape=MOBILENET_SHAPE)
    if workload.model in HEAVY:
        return _BUILDERS[workload.model](lib)
    if workload.model == "cnn":
        layers = [
            lib.Input(CNN_SHAPE),
            lib.layers.Conv2D(8, 3, padding="same", use_bias=False),
            lib.layers.BatchNormalization(),
            lib.layers.Activation("relu"),
            lib.layers.MaxPooling2D(2),
            lib.layers.Flatten(),
            lib.layers.Dense(CLASSES),
        ]
    else:
        widths = workload.widths
        layers = [lib.Input((widths[0],))]
        layers += [lib.layers.Dense(w, activation="relu") for w in widths[1:-1]]
        layers.append(lib.layers.Dense(widths[-1]))
    return lib.Sequential(layers)


def _transformer(lib):
    from _hand_heavy import BLOCKS, FF, HEADS, SEQ, VOCAB, WIDTH

    L = lib.layers
    tokens = lib.Input((SEQ,), dtype="int32")
    h = L.Embedding(VOCAB, WIDTH)(tokens)
    for _ in range(BLOCKS):
        h = L.LayerNormalization(epsilon=1e-6)(h + L.MultiHeadAttention(HEADS, WIDTH // HEADS)(h, h))
        ff = L.Dense(WIDTH)(L.Dense(FF, activation="relu")(h))
        h = L.LayerNormalization(epsilon=1e-6)(h + ff)
    return lib.Model(tokens, L.Dense(CLASSES)(L.GlobalAveragePooling1D()(h)))


def _lstm(lib, bidirectional=False):
    from _hand_heavy import RNN_FEATURES, RNN_SEQ, RNN_UNITS

    L = lib.layers
    wrap = L.Bidirectional if bidirectional else (lambda layer: layer)
    return lib.Sequential(
        [
            lib.Input((RNN_SEQ, RNN_FEATURES)),
            wrap(L.LSTM(RNN_UNITS, return_sequences=True)),
            wrap(L.LSTM(RNN_UNITS)),
            L.Dense(CLASSES),
        ]
    )


def _resnet(lib):
    from _hand_heavy import BN_EPS, BN_MOMENTUM, IMAGE, STEM

    L = lib.layers

    def conv_bn(h, filters, k=3, stride=1):
        h = L.Conv2D(filters, k, strides=stride, padding="same", use_bias=False)(h)
        return L.BatchNormalization(epsilon=BN_EPS, momentum=BN_MOMENTUM)(h)

    def block(h, filters, stride):
        y = conv_bn(L.Activation("relu")(conv_bn(h, filters, 3, stride)), filters)
        skip = conv_bn(h, filters, 1, stride) if stride != 1 or h.shape[-1] != filters else h
        return L.Activation("relu")(L.Add()([y, skip]))

    image = lib.Input(IMAGE)
    h = L.Activation("relu")(conv_bn(image, STEM))
    h = block(block(h, STEM, 1), 2 * STEM, 2)
    return lib.Model(image, L.Dense(CLASSES)(L.GlobalAveragePooling2D()(h)))


_BUILDERS = {
    "transformer": _transformer,
    "lstm": _lstm,
    "bilstm": lambda lib: _lstm(lib, bidirectional=True),
    "resnet": _resnet,
}


def model_runner(model, workload, x, y):
    """``run()`` for a compiled highlevel or Keras model: one ``fit`` epoch, ``predict``, ``evaluate``, or
    ``predict_on_batch`` on each batch in turn (``"infer"``)."""
    batch = workload.batch
    if workload.task == "infer":
        batches = [x[i : i + batch] for i in range(0, len(x), batch)]

        def run():
            out = None
            for xb in batches:
                out = model.predict_on_batch(xb)
            return float(out[-1, 0])
    elif workload.task == "train":

        def run():
            history = model.fit(x, y, batch_size=batch, epochs=1, verbose=0, shuffle=False)
            return float(history.history["loss"][-1])
    elif workload.task == "predict":

        def run():
            return float(model.predict(x, batch_size=batch, verbose=0)[-1, 0])
    else:

        def run():
            return float(model.evaluate(x, y, batch_size=batch, verbose=0)[0])

    return run


def import_framework(backend, threads):
    """Imports the backend's framework (if any) and fixes its thread pools."""
    from _harness import pin_framework_threads

    framework = FRAMEWORK[backend]
    if framework:
        __import__(framework)
        pin_framework_threads(framework, threads)


def make_contestant(kind, backend, name, steps, threads=1, data=None):
    """The ``run()`` function of one contestant on one workload (see the module docstring).

    ``data`` is ``(x, y)`` from :func:`make_data`; made here when omitted.
    """
    workload = WORKLOADS[name]
    x, y = data if data is not None else make_data(workload, steps)
    if kind == "ours":
        os.environ["HIGHLEVEL_BACKEND"] = backend
        import_framework(backend, threads)
        import highlevel as hl

        hl.utils.set_random_seed(0)
        return model_runner(build_model(hl, workload, reuse=True), workload, x, y)
    if kind == "keras":
        if FRAMEWORK[backend] is None:
            raise ValueError("Keras 3 has no native backend")
        os.environ["KERAS_BACKEND"] = backend
        import_framework(backend, threads)
        import keras  # (not keras.utils.set_random_seed: it imports TensorFlow whatever the backend)

        if backend == "jax":
            return _jax_x32(lambda: model_runner(build_model(keras, workload, reuse=True), workload, x, y))
        return model_runner(build_model(keras, workload, reuse=True), workload, x, y)
    if kind != "hand":
        raise ValueError(f"Unknown contestant {kind!r}; expected one of {', '.join(KINDS)}.")
    if workload.model == "mobilenetv2" and backend not in ("native", "torch"):
        raise NotImplementedError(
            f"{name} has a hand-written reference in PyTorch eager only (the native engine's reference); "
            f"none for {backend} yet"
        )
    if (workload.model in HEAVY or workload.model == "mobilenetv2") and backend in ("native", "torch"):
        import_framework("torch", threads)
        if workload.model == "mobilenetv2":
            import _hand_mobilenet

            return _hand_mobilenet.make_mobilenet_v2(x, y, workload.batch)
        import _hand_heavy

        return _hand_heavy.MAKERS[workload.model](x, y, workload.batch)
    import_framework(backend, threads)
    if backend == "jax":
        return _jax_x32(lambda: _make_hand(backend, workload, x, y))
    return _make_hand(backend, workload, x, y)


def _jax_x32(make):
    """A hand-written JAX loop or a Keras model built and run under ``jax.enable_x64(False)``, JAX's default,
    whatever the process has set: highlevel's JAX engine turns ``jax_enable_x64`` on process-wide, and they
    share ours' process (``run.py``), where they would otherwise trace float64 and run 1.5-2x slower."""
    import jax

    with jax.enable_x64(False):
        run = make()

    def run_x32():
        with jax.enable_x64(False):
            return run()

    return run_x32


def _make_hand(backend, workload, x, y):
    if workload.model in HEAVY:
        if backend == "jax":
            import _hand_heavy_jax as heavy
        else:
            import _hand_heavy_tf as heavy

        return heavy.MAKERS[workload.model](x, y, workload.batch)
    if workload.model == "cnn":
        import _hand_cnn

        return _hand_cnn.MAKERS[backend](x, y, workload.batch)
    if workload.task == "train":
        import _hand_loops

        return _hand_loops.MAKERS[backend](x, y, workload.widths, workload.batch)
    import _hand_infer

    return _hand_infer.MAKERS[backend](x, y, workload.widths, workload.batch, workload.task)
