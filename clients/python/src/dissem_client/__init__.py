"""Python client for the local API of dissemd (proto/ipc.proto).

    from dissem_client import Client
    with Client("/run/dissem/dissemd.sock") as c:
        sub = c.subscribe("news")
        mid = c.publish("news", b"hello")
        d = c.next_delivery(timeout=5.0)
"""

from .client import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_REQUEST_TIMEOUT,
    Client,
    DaemonConnectionError,
    Delivery,
    ErrorCode,
    Event,
    EventKind,
    MessageId,
    Peer,
    RequestError,
    Stats,
    TrafficByKind,
    TrafficCounter,
)

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_REQUEST_TIMEOUT",
    "Client",
    "DaemonConnectionError",
    "Delivery",
    "ErrorCode",
    "Event",
    "EventKind",
    "MessageId",
    "Peer",
    "RequestError",
    "Stats",
    "TrafficByKind",
    "TrafficCounter",
]
