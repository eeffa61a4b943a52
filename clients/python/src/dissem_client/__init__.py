"""Python client for the local API of dissemd (proto/ipc.proto).

Blocking::

    from dissem_client import Client
    with Client("/run/dissem/dissemd.sock") as c:
        sub = c.subscribe("news")
        mid = c.publish("news", b"hello")
        for d in c.deliveries(sub, timeout=5.0):
            ...

asyncio (dissem_client.aio)::

    async with await dissem_client.aio.connect("/run/dissem/dissemd.sock") as c:
        sub = await c.subscribe("news")
        async for d in c.deliveries(sub):
            ...
"""

from . import aio
from .client import Client
from .errors import DaemonConnectionError, ErrorCode, RequestError, SubscriptionClosed
from .protocol import DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT
from .values import (
    CachedMessage,
    Delivery,
    Event,
    EventKind,
    LinkEvent,
    LinkEventKind,
    LinkThresholds,
    MessageId,
    MessageList,
    Peer,
    Reloaded,
    Stats,
    TrafficByKind,
    TrafficCounter,
)

__version__ = "0.2.0"

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_REQUEST_TIMEOUT",
    "CachedMessage",
    "Client",
    "DaemonConnectionError",
    "Delivery",
    "ErrorCode",
    "Event",
    "EventKind",
    "LinkEvent",
    "LinkEventKind",
    "LinkThresholds",
    "MessageId",
    "MessageList",
    "Peer",
    "Reloaded",
    "RequestError",
    "Stats",
    "SubscriptionClosed",
    "TrafficByKind",
    "TrafficCounter",
    "aio",
]
