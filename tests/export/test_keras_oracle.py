"""Real Keras 3 serves what highlevel exports: its ``TFSMLayer`` loads a SavedModel written from a native-engine
model (rebuilt on TensorFlow) and predicts what the model predicts."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import highlevel as hl
from tests.conftest import selected_backends

from .models import MODELS, inputs

_KERAS_SERVES = r"""
import json, sys
import numpy as np
import keras
layer = keras.layers.TFSMLayer(sys.argv[1], call_endpoint="serve")
x = np.load(sys.argv[2])
print("@@" + json.dumps(keras.ops.convert_to_numpy(layer(x)).tolist()))
"""


def test_keras_tfsm_layer_serves_a_highlevel_export(tmp_path):
    pytest.importorskip("keras")
    pytest.importorskip("tensorflow")
    if "native" not in selected_backends():
        pytest.skip("the native backend is not selected")
    with hl.config.backend_scope("native"):
        model = MODELS["mlp"]()
        model.export(tmp_path / "sm", verbose=False)
        x = inputs("mlp", 4)[0]
        want = model.predict(x, verbose=0)
    np.save(tmp_path / "x.npy", x)
    env = dict(os.environ, KERAS_BACKEND="tensorflow")
    proc = subprocess.run(
        [sys.executable, "-c", _KERAS_SERVES, str(tmp_path / "sm"), str(tmp_path / "x.npy")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("@@")][-1]
    np.testing.assert_allclose(np.array(json.loads(line[2:]), "float32"), want, rtol=1e-4, atol=1e-5)
