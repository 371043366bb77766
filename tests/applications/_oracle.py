"""Real Keras as the oracle of an application family.

:func:`keras_reference` has ``keras_worker.py`` (in its own process, on Keras's numpy engine, one process serving
the whole test process) run once per family and keeps its files: the smallest model's randomized weights, images and outputs, and the parameter counts and layer
names of the family's other models. :func:`check_family` loads those weights into highlevel's model on the current
backend and compares the outputs; :func:`check_described` compares the other models' structure without running
them.

The files go to the test suite's cache on disk (``tests/disk_cache.py``), keyed by the worker's source, the
spec and the versions of Keras, numpy and JAX (Keras's numpy engine convolves with ``jax.lax``): one Keras run
serves every xdist worker and later runs.
"""

import atexit
import contextlib
import json
import os
import select
import subprocess
import sys
import tempfile

import numpy as np

import highlevel as hl
from tests.conformance.tolerances import tolerance
from tests.disk_cache import cache_key, cached_folder

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "keras_worker.py")
# Keras's numpy engine builds a deep model in seconds; its JAX engine traces every layer at build, about six times
# the CPU time (a minute for DenseNet121 on one core). Both compute the same model, so either is a fair oracle.
KERAS_ENGINE = "numpy"
PACKAGES = ("keras", "numpy", "jax", "jaxlib", "h5py")
_CACHE = {}


class _KerasServer:
    """One Keras process (``keras_worker.py --serve``) for the whole test process: Keras is imported once, not
    once per family (about 4 s of CPU each), and serves every family's spec and the other short Keras scripts
    of these tests."""

    def __init__(self):
        self.process = None
        self.log = None
        self.engine = None

    def _start(self, engine):
        env = dict(os.environ, KERAS_BACKEND=engine, CUDA_VISIBLE_DEVICES="", TF_CPP_MIN_LOG_LEVEL="3")
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [sys.executable, WORKER, "--serve"],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        self.engine = engine
        atexit.register(self.stop)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process = None

    def _log_tail(self):
        self.log.seek(0)
        return self.log.read()[-4000:]

    def ask(self, request, engine=KERAS_ENGINE, timeout=900):
        """Sends ``request`` (see ``keras_worker.serve``) and waits for its answer; fails the test with Keras's
        traceback if Keras failed."""
        if self.process is None or self.process.poll() is not None or self.engine != engine:
            self.stop()
            self._start(engine)
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        if os.name == "nt":  # no select() on pipes there: wait without a limit
            line = self.process.stdout.readline()
        else:
            ready, _, _ = select.select([self.process.stdout], [], [], timeout)
            line = self.process.stdout.readline() if ready else ""
        if not line:
            self.process.kill()
            self.process = None
            raise AssertionError(f"the Keras worker gave no answer (timeout {timeout} s):\n{self._log_tail()}")
        answer = json.loads(line)
        assert answer["ok"], answer["error"][-4000:]


_SERVER = _KerasServer()


def run_keras_script(source, *argv, engine=KERAS_ENGINE):
    """Runs the Python ``source`` in the Keras worker, with ``sys.argv[1:] == argv``."""
    _SERVER.ask({"script": source, "argv": [str(a) for a in argv]}, engine=engine)


def _run_worker(spec, engine, folder):
    with open(os.path.join(folder, "spec.json"), "w") as f:
        json.dump(spec, f)
    _SERVER.ask({"spec": os.path.join(folder, "spec.json"), "folder": folder}, engine=engine)


def keras_reference(model_name, kwargs, describe=(), legacy=False, engine=KERAS_ENGINE):
    """The folder of Keras's files for ``model_name(weights=None, **kwargs)`` (see ``keras_worker.py``), computed
    by Keras on ``engine`` once for each set of arguments, then read from the cache."""
    spec = {"model": model_name, "kwargs": kwargs, "describe": [list(d) for d in describe], "legacy": legacy}
    spec = json.loads(json.dumps(spec))  # tuples and lists give one key
    key = cache_key([spec, engine], files=[WORKER], packages=PACKAGES)
    if key not in _CACHE:
        _CACHE[key] = cached_folder(model_name, key, lambda folder: _run_worker(spec, engine, folder))
    return _CACHE[key]


#: A model of D weighted layers in sequence chains D convolutions' roundings: the conformance table's float32
#: tolerance of one convolution, widened by the depth's square root (independent roundings add up as a random
#: walk), and taken relative to the outputs' scale.
def model_tolerance(backend_name, depth):
    rtol, atol = tolerance("conv", "float32", backend_name)
    widen = float(np.sqrt(depth))
    return rtol * widen, atol * widen


def check_family(backend, build, model_name, kwargs, legacy=False, describe=(), engine=KERAS_ENGINE):
    """Loads Keras's randomized weights for ``model_name`` into ``build(weights=None, **kwargs)`` and checks that
    its outputs on Keras's images match Keras's. Returns highlevel's model."""
    folder = keras_reference(model_name, kwargs, describe, legacy, engine)
    model = build(weights=None, **kwargs)
    model.load_weights(os.path.join(folder, "legacy.h5" if legacy else "model.weights.h5"))
    images = np.load(os.path.join(folder, "images.npy"))
    want = np.load(os.path.join(folder, "outputs.npy"))
    got = hl.ops.convert_to_numpy(model(images, training=False))
    depth = sum(1 for layer in model.layers if layer.weights)
    rtol, atol = model_tolerance(backend.name, depth)
    scale = float(np.max(np.abs(want))) or 1.0
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol * max(scale, 1.0), err_msg=model_name)
    assert np.std(want) > 0, "the reference outputs are constant: the check would prove nothing"
    return model


class _ZeroDraws:
    """A host generator whose every draw is zeros."""

    def standard_normal(self, size=None):
        return np.zeros(size)

    def uniform(self, low=0.0, high=1.0, size=None):
        return np.zeros(size)


@contextlib.contextmanager
def no_random_draws():
    """highlevel's random initializers fill weights with zeros instead of drawing them: for the models these
    tests only count, name and shape, whose largest ones' draws (EfficientNetV2L: 117M weights) were most of
    their build time. Every family's smallest model is built with its real draws by :func:`check_family`."""
    from highlevel.initializers.random_initializers import RandomInitializer

    draw = RandomInitializer._draw

    def zero_draw(self, shape, dtype):
        shape, dtype, _ = draw(self, shape, dtype)
        return shape, dtype, _ZeroDraws()

    RandomInitializer._draw = zero_draw
    try:
        yield
    finally:
        RandomInitializer._draw = draw


def check_described(build_by_name, model_name, kwargs, describe, legacy=False, engine=KERAS_ENGINE, all_names=False):
    """For each ``(name, kwargs)`` in ``describe``, highlevel's model has Keras's parameter count, the names of its
    layers with weights in Keras's order, and Keras's weight shapes; with ``all_names``, the names of all its
    layers too, in Keras's order."""
    folder = keras_reference(model_name, kwargs, describe, legacy, engine)
    with open(os.path.join(folder, "describe.json")) as f:
        theirs = json.load(f)
    for name, other_kwargs in describe:
        with no_random_draws():
            model = build_by_name(name)(weights=None, **other_kwargs)
        assert [layer.name for layer in model.layers if layer.weights] == theirs[name]["layers"], name
        assert [list(v.shape) for v in model.weights] == theirs[name]["shapes"], name
        assert model.count_params() == theirs[name]["params"], name
        if all_names:
            assert [layer.name for layer in model.layers] == theirs[name]["names"], name
