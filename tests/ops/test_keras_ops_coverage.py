"""Every public name of ``keras.ops`` (and of ``keras.ops.nn``, ``.numpy``, ``.linalg``, ``.image``) exists in
``hl.ops`` at the same path, with Keras's arguments.

Keras is read in a child process (it picks an engine when imported; the numpy one loads no framework), and this
process compares. A name counts when it resolves at the same path; its signature must take every argument Keras's
takes, in Keras's order, with the same default where Keras's default is a plain constant.
"""

import inspect
import json
import os
import subprocess
import sys

import pytest

import highlevel as hl

NAMESPACES = ("", "nn", "numpy", "linalg", "image")

_LIST_KERAS = r"""
import inspect, json, keras
out = {}
for ns in %r:
    mod = keras.ops if not ns else getattr(keras.ops, ns)
    names = {}
    for name in dir(mod):
        obj = getattr(mod, name)
        if name.startswith("_") or inspect.ismodule(obj):
            continue
        params = []
        try:
            for p in inspect.signature(obj).parameters.values():
                const = isinstance(p.default, (bool, int, float, str, type(None))) and p.default is not p.empty
                params.append([p.name, str(p.kind), repr(p.default) if const else None])
        except (TypeError, ValueError):
            params = None
        names[name] = params
    out[ns] = names
print("@@" + json.dumps(out))
""" % (NAMESPACES,)


@pytest.fixture(scope="module")
def keras_ops():
    pytest.importorskip("keras")
    env = dict(os.environ, KERAS_BACKEND="numpy")
    proc = subprocess.run([sys.executable, "-c", _LIST_KERAS], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("@@")][-1]
    return json.loads(line[2:])


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_every_keras_ops_name_exists_at_the_same_path(keras_ops, namespace):
    ours = hl.ops if not namespace else getattr(hl.ops, namespace)
    missing = sorted(n for n in keras_ops[namespace] if not hasattr(ours, n))
    assert not missing, f"keras.ops{'.' + namespace if namespace else ''} names missing in hl.ops: {missing}"
    assert len(keras_ops[namespace]) >= {"": 300, "nn": 50, "numpy": 200, "linalg": 16, "image": 16}[namespace]


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_signatures_take_keras_arguments(keras_ops, namespace):
    ours = hl.ops if not namespace else getattr(hl.ops, namespace)
    gaps = []
    for name, params in keras_ops[namespace].items():
        if params is None or not callable(getattr(ours, name, None)):
            continue
        try:
            mine = list(inspect.signature(getattr(ours, name)).parameters.values())
        except (TypeError, ValueError):
            continue
        my_names = [p.name for p in mine]
        theirs = [p[0] for p in params if "VAR" not in p[1]]  # *args/**kwargs pass-throughs are not arguments
        if not set(theirs) <= set(my_names) and not any(p.kind == p.VAR_KEYWORD for p in mine):
            gaps.append(f"{name}: lacks {sorted(set(theirs) - set(my_names))}")
            continue
        positional = [n for n, kind, _ in params if "POSITIONAL" in kind and "VAR" not in kind]
        if [n for n in my_names if n in positional] != positional:
            gaps.append(f"{name}: positional order {my_names} vs Keras {positional}")
        for n, kind, default in params:
            mine_p = next((p for p in mine if p.name == n), None)
            if (
                default is not None
                and mine_p is not None
                and mine_p.default is not mine_p.empty
                and repr(mine_p.default) != default
            ):
                gaps.append(f"{name}: {n}={mine_p.default!r}, Keras {default}")
    assert not gaps, "\n".join(gaps)
