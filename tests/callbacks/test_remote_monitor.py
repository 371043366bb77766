"""RemoteMonitor: each epoch's logs reach a local HTTP server as JSON (as a body or a form field)."""

import http.server
import json
import socket
import threading
import urllib.parse

import numpy as np
import pytest

import highlevel as hl


class _Recorder(http.server.BaseHTTPRequestHandler):
    received = None  # set per server

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.received.append((self.path, self.headers["Content-Type"], self.headers.get("X-Run"), body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Recorder)
    httpd.received = []
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def _fit(callbacks, epochs=2):
    x = np.linspace(-1, 1, 16, dtype="float32").reshape(8, 2)
    y = x[:, :1] * 2.0
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
    return model.fit(x, y, batch_size=4, epochs=epochs, verbose=0, callbacks=callbacks)


def test_posts_epoch_logs_as_json(backend, server):
    root = f"http://127.0.0.1:{server.server_port}"
    monitor = hl.callbacks.RemoteMonitor(root=root, path="/logs", headers={"X-Run": "r1"}, send_as_json=True)
    history = _fit([monitor])
    assert [r[0] for r in server.received] == ["/logs", "/logs"]
    path, content_type, run, body = server.received[1]
    assert content_type == "application/json" and run == "r1"
    sent = json.loads(body)
    assert sent["epoch"] == 1
    assert sent["loss"] == pytest.approx(history.history["loss"][1], rel=1e-6)


def test_posts_a_form_field_by_default(server):
    root = f"http://127.0.0.1:{server.server_port}"
    _fit([hl.callbacks.RemoteMonitor(root=root, field="payload")], epochs=1)
    ((path, content_type, _, body),) = server.received
    assert path == "/publish/epoch/end/" and content_type == "application/x-www-form-urlencoded"
    form = urllib.parse.parse_qs(body.decode())
    sent = json.loads(form["payload"][0])
    assert sent["epoch"] == 0 and np.isfinite(sent["loss"])


def test_unreachable_server_warns_and_training_goes_on():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.warns(UserWarning, match=f"Could not reach RemoteMonitor root server at http://127.0.0.1:{port}"):
        history = _fit([hl.callbacks.RemoteMonitor(root=f"http://127.0.0.1:{port}")])
    assert len(history.history["loss"]) == 2
