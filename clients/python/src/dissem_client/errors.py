"""Exceptions of both clients (blocking dissem_client.Client and
dissem_client.aio.Client), and the error codes of proto/ipc.proto."""

from __future__ import annotations

import enum
from typing import Optional


class ErrorCode(enum.IntEnum):
    """Mirrors ipc.Error.Code."""

    UNSPECIFIED = 0
    REJECTED = 1  # the daemon refused a well-formed request (e.g. bad group)
    FAILED = 2  # the daemon could not carry out the request
    MALFORMED_FRAME = 3
    FRAME_TOO_LARGE = 4
    UNKNOWN_REQUEST = 5
    QUEUE_FULL = 6  # the daemon's send queue has no room now (publish: retried until `wait` runs out)

    @classmethod
    def from_wire(cls, value: int) -> "ErrorCode":
        try:
            return cls(value)
        except ValueError:
            return cls.UNSPECIFIED


class RequestError(Exception):
    """The daemon refused a request; the connection stays usable."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message


class DaemonConnectionError(ConnectionError):
    """No usable connection to dissemd; the message names the socket path."""

    def __init__(self, socket_path: Optional[str], reason: str) -> None:
        where = f"dissemd at {socket_path}" if socket_path else "dissemd"
        super().__init__(f"{where}: {reason}")
        self.socket_path = socket_path
        self.reason = reason


class SubscriptionClosed(LookupError):
    """A subscription that is not open on this connection (never was, or was
    unsubscribed) and has nothing of it left queued."""

    def __init__(self, subscription: int) -> None:
        super().__init__(f"subscription {subscription} is not open on this connection and has nothing queued")
        self.subscription = subscription


class ProtocolError(Exception):
    """dissemd sent something this client cannot accept, or said it is closing
    the connection. Internal: each client turns it into a
    DaemonConnectionError and disconnects."""
