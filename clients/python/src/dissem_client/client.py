"""Blocking Python client for the local dissemd API (proto/ipc.proto).

Mirrors the C++ client (src/client/client.h)::

    from dissem_client import Client

    with Client("/run/dissem/dissemd.sock") as c:
        sub = c.subscribe("news")
        c.publish("news", b"hello")          # returns once durable
        while (d := c.next_delivery(timeout=1.0)) is not None:
            use(d.payload)

Each request method sends one frame and waits for its response. Deliveries
and events the daemon pushes meanwhile are queued, not lost, and handed out
by next_delivery() / next_event(). The queues are unbounded on this side: an
application that never calls next_delivery() while subscribed grows them
(the daemon, in turn, closes a connection that stops reading).

Errors: a request the daemon refuses raises RequestError and leaves the
connection usable; I/O failure, a timeout, the daemon closing the connection
or a protocol violation raises DaemonConnectionError (a ConnectionError) and
leaves the client disconnected.

Not thread-safe: use one Client per thread, or serialise calls.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import socket
import time
from typing import Deque, Dict, List, Optional

from . import framing
from . import ipc_pb2 as pb

DEFAULT_REQUEST_TIMEOUT = 60.0  # seconds; publishing a large message takes a while to make durable
DEFAULT_CONNECT_TIMEOUT = 5.0


# --- errors --------------------------------------------------------------------


class ErrorCode(enum.IntEnum):
    """Mirrors ipc.Error.Code."""

    UNSPECIFIED = 0
    REJECTED = 1  # the daemon refused a well-formed request (e.g. bad group)
    FAILED = 2  # the daemon could not carry out the request
    MALFORMED_FRAME = 3
    FRAME_TOO_LARGE = 4
    UNKNOWN_REQUEST = 5

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


# --- values --------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class MessageId:
    group: str
    publisher: int
    seq: int


@dataclasses.dataclass(frozen=True)
class Delivery:
    """A message released to one of this connection's subscriptions."""

    subscription: int
    group: str
    publisher: int
    seq: int
    priority: int
    expiry_s: int
    tag: str
    payload: bytes
    history_window: int = 0

    @property
    def id(self) -> MessageId:
        return MessageId(self.group, self.publisher, self.seq)


class EventKind(enum.IntEnum):
    """Mirrors ipc.Event.Kind (UNSPECIFIED is never handed out)."""

    PEER_APPEARED = 1
    PEER_SILENT = 2
    MESSAGE_SKIPPED = 3  # ordered delivery gave up waiting for it
    MESSAGE_EVICTED = 4  # removed from the cache
    MESSAGE_REJECTED = 5  # its data failed the integrity check: dropped, fetched again
    FORGED_OWN_DATA = 6  # data under this node's id that it never published


@dataclasses.dataclass(frozen=True)
class Event:
    kind: EventKind
    peer: int = 0  # PEER_APPEARED, PEER_SILENT
    group: str = ""  # MESSAGE_SKIPPED, MESSAGE_EVICTED, MESSAGE_REJECTED, FORGED_OWN_DATA
    publisher: int = 0
    seq: int = 0


@dataclasses.dataclass(frozen=True)
class Peer:
    node_id: int
    last_heard_ms_ago: int
    estimated_loss: float  # fraction in [0, 1]
    srtt_ms: float  # smoothed round-trip time from beacon echoes


@dataclasses.dataclass(frozen=True)
class TrafficCounter:
    datagrams: int = 0
    bytes: int = 0


@dataclasses.dataclass(frozen=True)
class TrafficByKind:
    data: TrafficCounter = TrafficCounter()
    repair: TrafficCounter = TrafficCounter()
    mfr: TrafficCounter = TrafficCounter()
    beacon: TrafficCounter = TrafficCounter()
    forward: TrafficCounter = TrafficCounter()  # rebroadcast by a forwarding controller
    summary: TrafficCounter = TrafficCounter()  # anti-entropy summaries


@dataclasses.dataclass(frozen=True)
class Stats:
    """Mirrors ipc.Stats (engine statistics plus the cache's size)."""

    sent: TrafficByKind = TrafficByKind()
    received: TrafficByKind = TrafficByKind()
    # Received datagrams dropped before protocol logic, keyed by reason.
    malformed: Dict[str, int] = dataclasses.field(default_factory=dict)
    # Data refused or dropped by the integrity checks, keyed by reason.
    integrity: Dict[str, int] = dataclasses.field(default_factory=dict)
    own_datagrams_ignored: int = 0
    messages_published: int = 0
    messages_completed: int = 0
    deliveries: int = 0
    duplicate_fragments: int = 0
    mfrs_sent: int = 0
    mfr_items_sent: int = 0
    mfr_rounds_gated: int = 0
    mfrs_received: int = 0
    repairs_queued: int = 0
    repairs_suppressed_ntm: int = 0
    queue_drops: int = 0
    messages_evicted: int = 0
    messages_expired: int = 0
    hearsay_expired: int = 0  # known only from beacons/summaries/requests, forgotten after their lifetime
    hearsay_displaced: int = 0  # ... displaced by data when the tracker was full
    hearsay_refused: int = 0  # ... refused: tracker full, or too many streams
    peers_refused: int = 0  # new neighbours not tracked: engine.max_peers reached
    requests_trimmed: int = 0  # request items the serving budget cut
    request_bytes_trimmed: int = 0  # ... and the repair bytes they asked for
    signatures_checked: int = 0  # keyed groups: manifests checked on their signature
    signatures_vouched: int = 0  # ... and vouched for by an authentic successor's chain link
    cache_bytes: int = 0
    rss_bytes: int = 0  # the daemon's resident memory
    peak_rss_bytes: int = 0  # ... at its peak
    cache_messages: int = 0
    forwards_queued: int = 0
    forwards_suppressed_ntm: int = 0
    summaries_sent: int = 0
    summaries_received: int = 0
    pushes_queued: int = 0
    pushes_sent: int = 0
    pushes_suppressed_ntm: int = 0

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


# --- proto -> Python -----------------------------------------------------------


def _traffic(m: "pb.TrafficByKind") -> TrafficByKind:
    return TrafficByKind(
        **{
            name: TrafficCounter(getattr(m, name).datagrams, getattr(m, name).bytes)
            for name in ("data", "repair", "mfr", "beacon", "forward", "summary")
        }
    )


def stats_from_proto(m: "pb.Stats") -> Stats:
    scalars = {
        f.name: getattr(m, f.name)
        for f in dataclasses.fields(Stats)
        if f.name not in ("sent", "received", "malformed", "integrity")
    }
    return Stats(
        sent=_traffic(m.sent),
        received=_traffic(m.received),
        malformed=dict(m.malformed),
        integrity=dict(m.integrity),
        **scalars,
    )


def delivery_from_proto(m: "pb.Delivery") -> Delivery:
    return Delivery(
        subscription=m.subscription_id,
        group=m.group,
        publisher=m.publisher,
        seq=m.seq,
        priority=m.priority,
        expiry_s=m.expiry_s,
        tag=m.tag,
        payload=bytes(m.payload),
        history_window=m.history_window,
    )


def event_from_proto(m: "pb.Event") -> Optional[Event]:
    try:
        kind = EventKind(m.kind)
    except ValueError:
        return None  # a kind newer than this library (or unspecified): nothing to hand out
    return Event(kind=kind, peer=m.peer, group=m.group, publisher=m.publisher, seq=m.seq)


def peer_from_proto(m: "pb.Peer") -> Peer:
    return Peer(
        node_id=m.node_id,
        last_heard_ms_ago=m.last_heard_ms_ago,
        estimated_loss=m.estimated_loss,
        srtt_ms=m.srtt_ms,
    )


# --- the client ----------------------------------------------------------------


def _deadline(timeout: Optional[float]) -> Optional[float]:
    return None if timeout is None else time.monotonic() + max(0.0, timeout)


class Client:
    """A connection to one dissemd. Connects at once if `socket_path` is given."""

    def __init__(
        self,
        socket_path: Optional[str] = None,
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
        self._deliveries: Deque[Delivery] = collections.deque()
        self._events: Deque[Event] = collections.deque()
        self._closed_reason = "not connected"
        if socket_path is not None:
            self.connect(socket_path)

    # -- connection -------------------------------------------------------------

    def connect(self, socket_path) -> None:
        """Connects to the daemon listening on `socket_path` (str or os.PathLike).
        Raises DaemonConnectionError if nobody listens there."""
        self.close()
        path = str(socket_path)
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

    def __exit__(self, *exc) -> None:
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
        self._closed_reason = reason

    def _fail(self, reason: str, cause: Optional[BaseException] = None) -> "DaemonConnectionError":
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

    def _pump(self, deadline: Optional[float]) -> Optional["pb.Response"]:
        """Reads one frame by `deadline` and files it: pushed messages go to
        their queues, a response is returned. None on timeout or after a push."""
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
            return None
        m = pb.ServerMessage()
        try:
            m.ParseFromString(body)
        except Exception as e:  # google.protobuf.message.DecodeError
            raise self._fail("unparseable frame from dissemd", e)
        kind = m.WhichOneof("kind")
        if kind == "delivery":
            self._deliveries.append(delivery_from_proto(m.delivery))
        elif kind == "event":
            event = event_from_proto(m.event)
            if event is not None:
                self._events.append(event)
        elif kind == "response":
            r = m.response
            if r.request_id == 0 and r.WhichOneof("result") == "error":
                # The daemon refused our stream and is closing the connection.
                raise self._fail(f"dissemd closed the connection: {r.error.message}")
            return r
        return None  # a message kind newer than this library

    def _call(self, request: "pb.ClientMessage", expect: str) -> "pb.Response":
        self._live()
        request_id = self._next_request_id
        self._next_request_id += 1
        request.request_id = request_id
        deadline = _deadline(self.request_timeout)
        body = request.SerializeToString()
        if len(body) > framing.MAX_FRAME_BYTES:
            # Would make the daemon close the connection; refuse it here.
            raise RequestError(
                ErrorCode.FRAME_TOO_LARGE,
                f"request of {len(body)} bytes exceeds the {framing.MAX_FRAME_BYTES}-byte frame limit",
            )
        try:
            framing.write_frame(self._sock, body, deadline)
        except (socket.timeout, TimeoutError) as e:
            raise self._fail("timed out sending a request to dissemd", e)
        except OSError as e:
            raise self._fail(f"write failed: {e.strerror or e}", e)
        while True:
            response = self._pump(deadline)
            if response is None:
                if deadline is not None and time.monotonic() >= deadline:
                    raise self._fail("timed out waiting for dissemd to answer")
                continue
            if response.request_id != request_id:
                raise self._fail("dissemd answered a request that was not asked")
            result = response.WhichOneof("result")
            if result == "error":
                raise RequestError(ErrorCode.from_wire(response.error.code), response.error.message)
            if result != expect:
                raise self._fail(f"dissemd answered {request.WhichOneof('request')} with {result}")
            return response

    # -- operations ----------------------------------------------------------------

    def publish(
        self,
        group: str,
        payload: bytes,
        priority: int = 0,
        expiry_s: int = 0,
        history_window: int = 0,
        tag: str = "",
    ) -> MessageId:
        """Publishes `payload` to `group`; returns once the daemon has made the
        message durable in its cache. `expiry_s` is absolute Unix seconds
        (0 = never); `history_window` is how many prior messages a new
        subscriber should fetch."""
        m = pb.ClientMessage()
        p = m.publish
        p.group = group
        p.payload = bytes(payload)
        p.priority = priority
        p.expiry_s = expiry_s
        p.history_window = history_window
        p.tag = tag
        ack = self._call(m, "publish_ack").publish_ack
        return MessageId(ack.group, ack.publisher, ack.seq)

    def subscribe(
        self,
        group: str,
        reliable: bool = True,
        ordered: bool = False,
        history: int = 0,
        use_publisher_history: bool = False,
    ) -> int:
        """Subscribes this connection to `group`; returns the subscription id.
        `history` prior messages are fetched per publisher (or the publisher's
        history window when larger and `use_publisher_history` is set)."""
        m = pb.ClientMessage()
        s = m.subscribe
        s.group = group
        s.reliable = reliable
        s.ordered = ordered
        s.history = history
        s.use_publisher_history = use_publisher_history
        return self._call(m, "subscribe_ack").subscribe_ack.subscription_id

    def unsubscribe(self, subscription: int) -> None:
        m = pb.ClientMessage()
        m.unsubscribe.subscription_id = subscription
        self._call(m, "ok")

    def request_history(self, group: str, count: int) -> None:
        """Fetches up to `count` messages before the oldest held, per known publisher."""
        m = pb.ClientMessage()
        m.request_history.group = group
        m.request_history.count = count
        self._call(m, "ok")

    def stats(self) -> Stats:
        m = pb.ClientMessage()
        m.get_stats.SetInParent()
        return stats_from_proto(self._call(m, "stats").stats)

    def peers(self) -> List[Peer]:
        m = pb.ClientMessage()
        m.list_peers.SetInParent()
        return [peer_from_proto(p) for p in self._call(m, "peers").peers.peers]

    # -- pushed messages -------------------------------------------------------------

    def _next(self, queue: Deque, timeout: Optional[float]):
        if not queue and self._sock is None:
            raise DaemonConnectionError(self._path, self._closed_reason)
        deadline = _deadline(timeout)
        while True:
            if queue:
                return queue.popleft()
            if self._pump(deadline) is not None:
                raise self._fail("dissemd sent a response nobody asked for")
            if not queue and deadline is not None and time.monotonic() >= deadline:
                return None

    def next_delivery(self, timeout: Optional[float] = None) -> Optional[Delivery]:
        """The oldest pushed delivery, waiting up to `timeout` seconds for one
        (None waits without limit, 0 only takes what is already there). None on
        timeout. Raises DaemonConnectionError once the connection is gone and
        nothing queued remains."""
        return self._next(self._deliveries, timeout)

    def next_event(self, timeout: Optional[float] = None) -> Optional[Event]:
        """The oldest pushed event; as next_delivery()."""
        return self._next(self._events, timeout)

    @property
    def pending_deliveries(self) -> int:
        """Deliveries received and queued, not yet handed out."""
        return len(self._deliveries)

    @property
    def pending_events(self) -> int:
        return len(self._events)
