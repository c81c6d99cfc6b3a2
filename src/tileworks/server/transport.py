"""How the server meets the network: uvicorn, with the HTTP protocol's own
refusals in the API's JSON error shape.

uvicorn answers a request it cannot parse (a bad ``Content-Length``, a
malformed header or request line) before any application sees it, in plain
text. :class:`HttpProtocol` answers those in the shape of every other
refusal, ``{"error": ..., "status": 400}``, and closes the connection as
uvicorn does.
"""

from __future__ import annotations

import gc
import json
from typing import Any

try:  # uvicorn[standard]'s fast parser, which uvicorn itself prefers
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Parser
except ImportError:  # pragma: no cover - a platform without httptools
    from uvicorn.protocols.http.h11_impl import H11Protocol as _Parser  # type: ignore[assignment]

#: the refusal of a request that is not valid HTTP
MALFORMED = "malformed HTTP request: a bad request line, header or Content-Length"


class HttpProtocol(_Parser):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP/1.1 protocol, answering unparseable requests in JSON."""

    def send_400_response(self, msg: str) -> None:
        body = json.dumps({"error": MALFORMED, "status": 400}).encode()
        head = [b"HTTP/1.1 400 Bad Request\r\n"]
        for name, value in self.server_state.default_headers:
            head += [name, b": ", value, b"\r\n"]
        head += [b"content-type: application/json\r\n", b"content-length: %d\r\n" % len(body),
                 b"connection: close\r\n\r\n"]
        self.transport.write(b"".join(head) + body)
        self.transport.close()


#: the garbage collector's thresholds in a server process. It holds many
#: games' states, move logs and views; with Python's defaults (700, 10, 10)
#: a busy server walked them all every second or two, each time stopping
#: every game for up to 0.4 s (docs/performance.md)
COLLECTOR_THRESHOLDS = (10_000, 50, 100)


def tune_collector() -> None:
    """Set up a server process's garbage collector: what it has loaded by
    now (modules, the app) is left out of collections for good, and the
    generations are collected less often (cycles are rare in what a server
    makes per move; reference counting frees the rest at once)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def run(app: Any, host: str, port: int, ws_max_size: int, workers: int = 1) -> None:
    """Serve ``app`` until Ctrl-C: uvicorn with :class:`HttpProtocol`,
    WebSocket frames up to ``ws_max_size`` bytes, and no per-message
    compression (views are small JSON: compressing each costs more CPU than
    it saves on loopback or a LAN). With ``workers`` above 1, ``app`` is the
    import string of an app factory, and uvicorn runs that many processes
    on the one socket, starting a new one when one dies."""
    import uvicorn

    if workers == 1:  # each of several workers tunes its own (app_from_environment)
        tune_collector()
    uvicorn.run(app, host=host, port=port, http=HttpProtocol, ws_max_size=ws_max_size,
                ws_per_message_deflate=False, log_level="info", workers=workers if workers > 1 else None,
                factory=workers > 1)
