"""``RemoteMonitor``: posts each epoch's logs to an HTTP server, as JSON.

>>> import highlevel as hl
>>> monitor = hl.callbacks.RemoteMonitor(root="http://localhost:9000", send_as_json=True)
>>> monitor.root + monitor.path
'http://localhost:9000/publish/epoch/end/'
"""

import json
import urllib.error
import urllib.parse
import urllib.request
import warnings

import numpy as np

from .callback import Callback

#: Seconds a POST may take before the epoch's logs are given up (with a warning) and training goes on.
TIMEOUT_S = 10.0


def _plain(value):
    """A JSON-ready Python value for one log entry (numpy scalars and 0-d arrays become numbers)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return value.item() if value.size == 1 else value.tolist()
    return value


class RemoteMonitor(Callback):
    """Sends the logs of every finished epoch to a server with an HTTP POST (``keras.callbacks.RemoteMonitor``).

    The payload is a dictionary ``{"epoch": epoch, **logs}`` encoded as JSON. With ``send_as_json=True``
    it is the request body (``Content-Type: application/json``); otherwise it is sent as a form with one
    field, ``field=<the JSON text>`` (``application/x-www-form-urlencoded``). Only the standard library is
    used (no ``requests``). A server that cannot be reached, refuses the request or answers with an HTTP
    error gives a warning, and training carries on.

    Args:
        root: the server's root URL.
        path: the path after ``root`` that receives the events.
        field: the form field that holds the JSON text (used only when ``send_as_json=False``).
        headers: extra HTTP headers, a dict.
        send_as_json: send the JSON as the request body instead of a form field.

    Raises:
        ValueError: if ``root`` or ``path`` is not a string, or ``headers`` is not a dict.

    >>> import highlevel as hl
    >>> monitor = hl.callbacks.RemoteMonitor(root="http://localhost:9000", path="/publish/epoch/end/")
    >>> monitor.root + monitor.path
    'http://localhost:9000/publish/epoch/end/'
    """

    def __init__(
        self, root="http://localhost:9000", path="/publish/epoch/end/", field="data", headers=None, send_as_json=False
    ):
        super().__init__()
        if not isinstance(root, str) or not isinstance(path, str):
            raise ValueError(
                f"root and path must be strings (e.g. root='http://localhost:9000', "
                f"path='/publish/epoch/end/'); received root={root!r}, path={path!r}."
            )
        if headers is not None and not isinstance(headers, dict):
            raise ValueError(f"headers must be a dict of HTTP headers or None; received {headers!r}.")
        self.root = root
        self.path = path
        self.field = field
        self.headers = headers
        self.send_as_json = send_as_json

    def _request(self, payload):
        text = json.dumps(payload)
        headers = dict(self.headers or {})
        if self.send_as_json:
            body = text.encode("utf-8")
            headers.setdefault("Content-Type", "application/json")
        else:
            body = urllib.parse.urlencode({self.field: text}).encode("utf-8")
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        return urllib.request.Request(self.root + self.path, data=body, headers=headers, method="POST")

    def on_epoch_end(self, epoch, logs=None):
        payload = {"epoch": epoch}
        payload.update({key: _plain(value) for key, value in (logs or {}).items()})
        try:
            with urllib.request.urlopen(self._request(payload), timeout=TIMEOUT_S) as response:
                response.read()
        except urllib.error.HTTPError as error:
            warnings.warn(
                f"RemoteMonitor: the server at {self.root} answered HTTP {error.code} to the logs of "
                f"epoch {epoch} posted to {self.root + self.path}.",
                stacklevel=2,
            )
        except (urllib.error.URLError, OSError, ValueError) as error:
            warnings.warn(
                f"Could not reach RemoteMonitor root server at {self.root} ({error}); the logs of "
                f"epoch {epoch} were not sent. Check that the server runs and that root/path are "
                f"right.",
                stacklevel=2,
            )
