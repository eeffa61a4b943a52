"""Blocking Python client for the local dissemd API (proto/ipc.proto).

Mirrors the C++ client (src/client/client.h)::

    from dissem_client import Client

    with Client("/run/dissem/dissemd.sock") as c:
        sub = c.subscribe("news")
        c.publish("news", b"hello")          # returns once durable
        for d in c.deliveries(sub, timeout=1.0):   # ends after 1 s without one
            use(d.payload)

Each request method sends one frame and waits for its response. Deliveries
and events the daemon pushes meanwhile are queued, not lost, and handed out
by next_delivery() / next_event() or the deliveries() / events() iterators.
The queues are unbounded on this side: an application that never takes
deliveries while subscribed grows them (the daemon, in turn, closes a
connection that stops reading).

Errors: a request the daemon refuses raises RequestError and leaves the
connection usable; I/O failure, a timeout, the daemon closing the connection
or a protocol violation raises DaemonConnectionError (a ConnectionError) and
leaves the client disconnected.

Not thread-safe: use one Client per thread, or serialise calls. For asyncio,
see dissem_client.aio.
"""

from __future__ import annotations

import enum
import os
import socket
import time
from typing import Callable, Iterator, List, Optional, Sequence, TypeVar, Union

from . import framing
from . import ipc_pb2 as pb
from . import protocol
from .errors import DaemonConnectionError, ErrorCode, ProtocolError, RequestError, SubscriptionClosed
from .protocol import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_REQUEST_TIMEOUT,
    delivery_from_proto,
    event_from_proto,
    stats_from_proto,
)
from .links import peer_from_proto
from .values import (
    Delivery,
    Event,
    EventKind,
    LinkEvent,
    LinkThresholds,
    MessageId,
    MessageList,
    Peer,
    Reloaded,
    Stats,
    TrafficByKind,
    TrafficCounter,
)

# Kept importable from here, where they were defined before the asyncio client.
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
    "SubscriptionClosed",
    "TrafficByKind",
    "TrafficCounter",
    "delivery_from_proto",
    "event_from_proto",
    "peer_from_proto",
    "stats_from_proto",
]

T = TypeVar("T")
X = TypeVar("X")



class _Read(enum.Enum):
    """What _pump() did when it returned no response."""

    FILED = 1  # read a pushed message (queued, or ignored if of a newer kind)
    TIMED_OUT = 2  # no frame was complete by the deadline


def _deadline(timeout: Optional[float]) -> Optional[float]:
    return None if timeout is None else time.monotonic() + max(0.0, timeout)


class Client(protocol.InboxClient):
    """A connection to one dissemd. Connects at once if `socket_path` is given."""

    def __init__(
        self,
        socket_path: Union[str, "os.PathLike[str]", None] = None,
        *,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
    ) -> None:
        self.request_timeout = request_timeout
        self.connect_timeout = connect_timeout
        self._sock: Optional[socket.socket] = None
        self._reader: Optional[framing.FrameReader] = None
        self._path: Optional[str] = None
        self._next_request_id = 1
        self._inbox = protocol.Inbox()
        self._closed_reason = "not connected"
        if socket_path is not None:
            self.connect(socket_path)

    # -- connection -------------------------------------------------------------

    def connect(self, socket_path: Union[str, "os.PathLike[str]"]) -> None:
        """Connects to the daemon listening on `socket_path` (str or os.PathLike).
        Raises DaemonConnectionError if nobody listens there."""
        self.close()
        path = os.fspath(socket_path)
        self._path = path
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.connect_timeout)
            sock.connect(path)
        except OSError as e:
            sock.close()
            reason = e.strerror or str(e) or type(e).__name__
            self._closed_reason = f"cannot connect: {reason}"
            raise DaemonConnectionError(path, self._closed_reason) from e
        self._sock = sock
        self._reader = framing.FrameReader(sock)
        self._closed_reason = ""

    @property
    def connected(self) -> bool:
        return self._sock is not None

    @property
    def socket_path(self) -> Optional[str]:
        return self._path

    def close(self) -> None:
        """Closes the connection (the daemon drops its subscriptions). Queued
        deliveries and events stay available to next_delivery()/next_event()."""
        self._drop("connection closed by the application")

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        sock = getattr(self, "_sock", None)
        if sock is not None:
            sock.close()

    def _drop(self, reason: str) -> None:
        if self._sock is not None:
            try:
                self._sock.close()
            finally:
                self._sock = None
                self._reader = None
        self._inbox.close_all()
        self._closed_reason = reason

    def _fail(self, reason: str, cause: Optional[BaseException] = None) -> DaemonConnectionError:
        self._drop(reason)
        err = DaemonConnectionError(self._path, reason)
        if cause is not None:
            err.__cause__ = cause
        return err

    def _live(self) -> framing.FrameReader:
        if self._sock is None or self._reader is None:
            raise DaemonConnectionError(self._path, self._closed_reason)
        return self._reader

    # -- frames ------------------------------------------------------------------

    def _pump(self, deadline: Optional[float]) -> Union[pb.Response, _Read]:
        """Reads one frame by `deadline` and files it: pushed messages go to
        the inbox, a response is returned."""
        reader = self._live()
        try:
            body = reader.read(deadline)
        except framing.StreamClosed as e:
            raise self._fail("dissemd closed the connection", e)
        except framing.FrameError as e:
            raise self._fail(f"bad frame from dissemd: {e}", e)
        except OSError as e:
            raise self._fail(f"read failed: {e.strerror or e}", e)
        if body is None:
            return _Read.TIMED_OUT
        try:
            item = protocol.decode(body)
        except ProtocolError as e:
            raise self._fail(str(e), e.__cause__)
        if isinstance(item, pb.Response):
            return item
        if item is not None:  # None: a message kind newer than this library
            self._inbox.push(item)
        return _Read.FILED

    def _call(self, call: protocol.Call[T]) -> T:
        self._live()
        sock = self._sock
        assert sock is not None
        request_id = self._next_request_id
        self._next_request_id += 1
        frame = call.encode(request_id)
        deadline = _deadline(self.request_timeout)
        try:
            framing.send_all(sock, frame, deadline)
        except (socket.timeout, TimeoutError) as e:
            raise self._fail("timed out sending a request to dissemd", e)
        except OSError as e:
            raise self._fail(f"write failed: {e.strerror or e}", e)
        while True:
            got = self._pump(deadline)
            if not isinstance(got, pb.Response):
                # Checked after pushes too: a busy subscription must not hide a silent daemon.
                if deadline is not None and time.monotonic() >= deadline:
                    raise self._fail("timed out waiting for dissemd to answer")
                continue
            if got.request_id != request_id:
                raise self._fail("dissemd answered a request that was not asked")
            try:
                return call.complete(got, self._inbox)
            except ProtocolError as e:
                raise self._fail(str(e))

    # -- requests (one line each: the request itself is built in protocol.py) ----------

    def publish(
        self,
        group: str,
        payload: bytes,
        priority: int = 0,
        expiry_s: int = 0,
        history_window: int = 0,
        tag: str = "",
        lifetime_ms: int = 0,
        expiry_ms: int = 0,
        replace: bool = False,
        wait: float = 60.0,
    ) -> MessageId:
        """Publishes `payload` to `group`; returns once the daemon has made the
        message durable in its cache. A higher `priority` is sent (and
        repaired) first. Expiry: `lifetime_ms` after publication, or absolute
        `expiry_ms` (Unix milliseconds) or `expiry_s` (Unix seconds); 0 =
        never. `history_window` is how many prior messages a new subscriber
        should fetch. `replace` (with a `tag`) supersedes this node's older
        messages of the group with the same tag. While the daemon's send
        queue is full (its byte budget) the call waits up to `wait` seconds
        for room, then raises RequestError QUEUE_FULL (0: at once)."""
        retry = protocol.QueueFullRetry(wait)  # flow control: room in the send queue
        while True:
            try:
                published: MessageId = self._call(
                    protocol.publish(
                        group, payload, priority, expiry_s, history_window, tag, lifetime_ms, expiry_ms, replace
                    )
                )
                return published
            except RequestError as e:
                pause = retry.pause_after(e)
            time.sleep(pause)

    def cancel(self, group: str, seqs: Sequence[int] = (), tag: str = "", expiry_ms: int = 0) -> MessageId:
        """Cancels this node's messages of `group` numbered `seqs`, and every
        older one with `tag`; returns the id of the cancel message that carries
        the cancellation to the other nodes."""
        return self._call(protocol.cancel(group, seqs, tag, expiry_ms))

    def subscribe(
        self,
        group: str,
        reliable: bool = True,
        ordered: bool = False,
        history: int = 0,
        use_publisher_history: bool = False,
        min_priority: int = 0,
        tags: Sequence[str] = (),
        name: str = "",
        silent: bool = False,
    ) -> int:
        """Subscribes this connection to `group`; returns the subscription id.
        `history` prior messages are fetched per publisher (or the publisher's
        history window when larger and `use_publisher_history` is set). Only
        messages of at least `min_priority`, and with one of `tags` if any
        are given, are delivered. With a `name` the subscription is durable:
        it outlives this connection and the daemon, and subscribing under the
        name again delivers every cached message not acknowledged
        (acknowledge()) yet. A `silent` subscription never makes the daemon
        transmit (radio silence for the group: no requests, no interest
        advertised); it gets what the first pass and others' repairs bring."""
        return self._call(
            protocol.subscribe(
                group, reliable, ordered, history, use_publisher_history, min_priority, tags, name, silent
            )
        )

    def unsubscribe(self, subscription: int) -> None:
        """Ends a subscription. Its deliveries already queued stay available."""
        self._call(protocol.unsubscribe(subscription))

    def acknowledge(self, subscription: int, message: Union[MessageId, Delivery]) -> None:
        """Durable subscriptions (subscribe(name=...)): `message` was handled;
        a resumed subscription never delivers it again. Durable in the
        daemon's cache when this returns."""
        self._call(protocol.acknowledge(subscription, message))

    def delete_subscription(self, name: str) -> bool:
        """Ends a durable subscription for good; False if there was none."""
        return self._call(protocol.delete_subscription(name))

    def request_history(self, group: str, count: int) -> None:
        """Fetches up to `count` messages before the oldest held, per known publisher."""
        self._call(protocol.request_history(group, count))

    def get(self, group: str, publisher: int, seq: int) -> Optional[Delivery]:
        """A message held whole in the daemon's cache (subscription 0), or None
        if it is not held whole there."""
        return self._call(protocol.get(group, publisher, seq))

    def list(
        self, group: str, publisher: int = 0, from_seq: int = 0, to_seq: int = 0, limit: int = 1000,
        incomplete_only: bool = False,
    ) -> MessageList:
        """The cached messages of `group` ("" = every group; whole or
        partial, or with `incomplete_only` only those still being received),
        ascending by group, publisher and sequence number, optionally one
        publisher's and a range of sequence numbers (inclusive; 0 =
        unbounded), at most `limit`."""
        return self._call(protocol.list_messages(group, publisher, from_seq, to_seq, limit, incomplete_only))

    def stats(self) -> Stats:
        return self._call(protocol.stats())

    def peers(self) -> List[Peer]:
        """Neighbours and their links: last heard, loss each way, RTT, rates."""
        return self._call(protocol.peers())

    def watch_links(self, thresholds: Optional[LinkThresholds] = None) -> None:
        """From now on the daemon pushes link events (next_link_event(),
        link_events()): a neighbour appeared, fell silent, or its loss or
        received rate crossed a threshold, starting with every current
        neighbour as appeared. By `thresholds`, or the daemon's engine.link_*
        when None; asking again replaces them. RequestError (REJECTED) names
        a threshold out of range."""
        self._call(protocol.watch_links(thresholds))

    def unwatch_links(self) -> None:
        """No more link events (those already queued stay)."""
        self._call(protocol.unwatch_links())

    def set_silent(self, silent: bool) -> None:
        """Radio silence (EMCON) for the whole node: while silent the daemon
        transmits nothing at all, not even beacons, and receives, caches
        and delivers as usual; its publications wait. False ends it, and
        requests fetch what silence left missing. stats().silent tells."""
        self._call(protocol.set_silent(silent))

    def reload(self) -> Reloaded:
        """The daemon reads its configuration file and key files again (as
        on SIGHUP) and applies what can change while running: log level,
        keys, epochs and revocations, metrics, the socket's mode and the
        engine keys a running node reads at each use. RequestError (FAILED)
        names the key when it refuses the new configuration; nothing
        changed then."""
        return self._call(protocol.reload())

    # -- pushed messages -------------------------------------------------------------

    def _take(
        self,
        take: Callable[[], Optional[X]],
        ended: Callable[[], bool],
        timeout: Optional[float],
    ) -> Optional[X]:
        """What take() gives, reading frames until it gives something, until
        `timeout` passes (None) or until ended() (None). Raises
        DaemonConnectionError once the connection is gone and take() has
        nothing left."""
        deadline = _deadline(timeout)
        while True:
            item = take()
            if item is not None:
                return item
            if self._sock is None:
                raise DaemonConnectionError(self._path, self._closed_reason)
            if ended():
                return None
            got = self._pump(deadline)
            if isinstance(got, pb.Response):
                raise self._fail("dissemd sent a response nobody asked for")
            # Checked after each frame: a flood for other subscriptions must not stretch the wait.
            if got is _Read.TIMED_OUT or (deadline is not None and time.monotonic() >= deadline):
                return take()

    def next_delivery(self, timeout: Optional[float] = None, *, subscription: Optional[int] = None) -> Optional[Delivery]:
        """The oldest pushed delivery (of `subscription` if given, else of
        any), waiting up to `timeout` seconds for one (None waits without
        limit, 0 only takes what is already there). None on timeout.

        Raises DaemonConnectionError once the connection is gone and nothing
        queued remains; SubscriptionClosed if `subscription` is not open here
        (never was, or was unsubscribed) and nothing of it is queued."""
        if subscription is not None:
            self._check_subscription(subscription)
        return self._next_delivery(subscription, timeout)

    def _next_delivery(self, subscription: Optional[int], timeout: Optional[float]) -> Optional[Delivery]:
        """next_delivery(); None also once `subscription` has ended."""
        take, ended = self._inbox.deliveries_of(subscription)
        return self._take(take, ended, timeout)

    def next_event(self, timeout: Optional[float] = None) -> Optional[Event]:
        """The oldest pushed event; as next_delivery()."""
        return self._take(self._inbox.pop_event, lambda: False, timeout)

    def next_link_event(self, timeout: Optional[float] = None) -> Optional[LinkEvent]:
        """The oldest pushed link event (watch_links()); as next_delivery()."""
        return self._take(self._inbox.pop_link_event, lambda: False, timeout)

    def link_events(self, *, timeout: Optional[float] = None) -> Iterator[LinkEvent]:
        """Iterates over link events as they arrive; ends when `timeout`
        seconds pass without one (None: never)."""
        while True:
            e = self.next_link_event(timeout)
            if e is None:
                return
            yield e

    def deliveries(self, subscription: Optional[int] = None, *, timeout: Optional[float] = None) -> Iterator[Delivery]:
        """Iterates over pushed deliveries (of `subscription` if given, else of
        any) as they arrive. The iteration ends when `timeout` seconds pass
        without a new one (None: never), or once `subscription` is
        unsubscribed and what was queued for it is taken.

        Raises SubscriptionClosed at once if `subscription` is not open here
        and has nothing queued; DaemonConnectionError once the connection is
        gone and nothing queued remains."""
        if subscription is not None:
            self._check_subscription(subscription)
        return self._iterate(subscription, timeout)

    def _iterate(self, subscription: Optional[int], timeout: Optional[float]) -> Iterator[Delivery]:
        while True:
            d = self._next_delivery(subscription, timeout)
            if d is None:
                return
            yield d

    def events(self, *, timeout: Optional[float] = None) -> Iterator[Event]:
        """Iterates over pushed events as they arrive; the iteration ends when
        `timeout` seconds pass without a new one (None: never). Raises
        DaemonConnectionError once the connection is gone and nothing queued
        remains."""
        while True:
            e = self.next_event(timeout)
            if e is None:
                return
            yield e
