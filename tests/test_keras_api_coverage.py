"""Every public name of Keras 3.15's namespaces exists in highlevel at the same path.

``keras.ops`` has its own check (tests/ops/test_keras_ops_coverage.py). Here the other namespaces are walked:
Keras is read in a child process (it picks an engine when imported; the numpy one loads no framework), and this
process looks each name up on ``highlevel`` by the same path.

Names not there yet are listed in ``NOT_YET`` with the reason (the piece of work they belong to). The list must
stay true both ways: a listed name that now exists fails the test too, so the list only shrinks.
"""

import inspect
import json
import os
import subprocess
import sys

import pytest

import highlevel as hl

#: Keras's public namespaces checked here (relative to the package; "" is the top level).
NAMESPACES = (
    "",
    "layers",
    "activations",
    "initializers",
    "losses",
    "metrics",
    "optimizers",
    "optimizers.schedules",
    "callbacks",
    "regularizers",
    "constraints",
    "models",
    "saving",
    "utils",
    "utils.bounding_boxes",
    "utils.legacy",
    "random",
    "config",
    "backend",
    "tree",
    "datasets",
    "mixed_precision",
    "quantizers",
    "dtype_policies",
    "distribution",
    "preprocessing",
    "preprocessing.image",
    "preprocessing.sequence",
    "wrappers",
    "visualization",
    "legacy",
    "legacy.saving",
    "distillation",
    "export",
    "applications",
    "applications.imagenet_utils",
    "applications.resnet",
    "applications.resnet50",
    "applications.resnet_v2",
    "applications.vgg16",
    "applications.vgg19",
    "applications.densenet",
    "applications.mobilenet",
    "applications.mobilenet_v2",
    "applications.nasnet",
    "applications.xception",
)

#: namespace -> {name: why it is not there yet}.
_APPS_OTHERS = "keras.applications: a family of the second part still to build (InceptionV3, InceptionResNetV2)"
_SECOND_PART = {
    "InceptionResNetV2": "inception_resnet_v2",
    "InceptionV3": "inception_v3",
}


def _apps_not_yet(table, why):
    return {**{name: why for name in table}, **{module: why for module in table.values()}}


NOT_YET = {
    "applications": _apps_not_yet(_SECOND_PART, _APPS_OTHERS),
}

_LIST_KERAS = r"""
import inspect, json, keras
out = {}
for ns in %r:
    mod = keras
    for part in [p for p in ns.split(".") if p]:
        mod = getattr(mod, part)
    names = {}
    for name in dir(mod):
        if name.startswith("_"):
            continue
        obj = getattr(mod, name)
        kind = "module" if inspect.ismodule(obj) else "class" if inspect.isclass(obj) else "other"
        names[name] = kind
    out[ns] = names
print("@@" + json.dumps(out))
""" % (NAMESPACES,)


@pytest.fixture(scope="module")
def keras_names():
    pytest.importorskip("keras")
    env = dict(os.environ, KERAS_BACKEND="numpy")
    proc = subprocess.run([sys.executable, "-c", _LIST_KERAS], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("@@")][-1]
    return json.loads(line[2:])


def _resolve(path):
    obj = hl
    for part in [p for p in path.split(".") if p]:
        obj = getattr(obj, part)
    return obj


def _has(ns, name):
    try:
        return hasattr(_resolve(ns), name)
    except AttributeError:
        return False


@pytest.mark.parametrize("namespace", NAMESPACES, ids=lambda ns: ns or "top")
def test_every_keras_name_exists_at_the_same_path(keras_names, namespace):
    # keras.src is Keras's implementation package, not API.
    expected = {n for n in keras_names[namespace] if not (namespace == "" and n == "src")}
    missing = {n for n in expected if not _has(namespace, n)}
    allowed = NOT_YET.get(namespace, {})
    unexplained = sorted(missing - set(allowed))
    assert not unexplained, f"keras.{namespace or ''} names missing in highlevel: {unexplained}"
    stale = sorted(set(allowed) - missing)
    assert not stale, f"these names of keras.{namespace} exist now; remove them from NOT_YET: {stale}"


def test_classes_are_classes(keras_names):
    """A Keras class is a class here too (``isinstance`` checks and subclassing in user code depend on it)."""
    wrong = []
    for ns, names in keras_names.items():
        for name, kind in names.items():
            if kind == "class" and _has(ns, name) and not inspect.isclass(getattr(_resolve(ns), name)):
                wrong.append(f"{ns}.{name}" if ns else name)
    assert not wrong, f"classes in Keras that are not classes here: {wrong}"
