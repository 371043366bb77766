"""A small HTTP server on 127.0.0.1 for download tests: no network leaves the machine.

``serve({"/a.bin": b"..."})`` serves those bytes and counts the requests per path. ``TRUNCATED`` bytes are
sent with a Content-Length larger than what follows, and the connection is closed: a download cut short.
"""

import contextlib
import http.server
import socket
import threading


class Truncated(bytes):
    """Bytes served with a Content-Length announcing twice as many."""


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the name http.server calls)
        files, hits = self.server.files, self.server.hits
        hits[self.path] = hits.get(self.path, 0) + 1
        body = files.get(self.path)
        if body is None:
            self.send_error(404, "Not Found")
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(2 * len(body) if isinstance(body, Truncated) else len(body)))
        self.end_headers()
        self.wfile.write(bytes(body))
        if isinstance(body, Truncated):
            self.close_connection = True

    def log_message(self, *args):
        pass


class _Server:
    def __init__(self, httpd):
        self._httpd = httpd
        self.files, self.hits = httpd.files, httpd.hits

    def url(self, path):
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}{path}"


@contextlib.contextmanager
def serve(files):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.files, httpd.hits = dict(files), {}
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield _Server(httpd)
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def unreachable_url(path="/file"):
    """A URL on 127.0.0.1 where nothing listens (a port taken from the OS, then released): connecting is
    refused at once, as when offline."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}{path}"
