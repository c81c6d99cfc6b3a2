"""The server's one kind of refusal."""

from __future__ import annotations


class ServerError(Exception):
    """A refused request: an HTTP status and a message that names the problem."""

    def __init__(self, status: int, detail: str, retry_after: float | None = None):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        #: seconds a refused client should wait (429: sent as ``Retry-After``)
        self.retry_after = retry_after
