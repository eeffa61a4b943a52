"""The dissemd IPC API (proto/ipc.proto) without I/O, shared by both clients.

Every request kind is one builder function below returning a :class:`Call`:
the ClientMessage to send, the Response field that answers it, how to read
that answer into a Python value, and what the answer changes in the
connection's :class:`Inbox` (a subscription opening or closing). The
blocking ``dissem_client.Client`` and the asyncio ``dissem_client.aio.Client``
send a Call and read its answer with the same code, so a new request kind is
a builder here plus a one-line method in each client::

    def cancel(group: str, seq: int) -> Call[None]:
        m = pb.ClientMessage()
        m.cancel.group = group
        m.cancel.seq = seq
        return Call(m, "ok", _read_ok)

    # client.py:      def cancel(self, group, seq): return self._call(protocol.cancel(group, seq))
    # aio.py:   async def cancel(self, group, seq): return await self._call(protocol.cancel(group, seq))

Pushed messages are decoded by :func:`decode` and kept by an :class:`Inbox`:
deliveries per subscription, in arrival order, and events.
"""

from __future__ import annotations

import abc
import collections
import dataclasses
import itertools
import time
from typing import Callable, Deque, Dict, Generic, List, Optional, Sequence, Set, Tuple, TypeVar, Union

from google.protobuf.message import DecodeError

from . import framing
from . import ipc_pb2 as pb
from .errors import DaemonConnectionError, ErrorCode, ProtocolError, RequestError, SubscriptionClosed
from .links import link_event_from_proto, peer_from_proto, thresholds_to_proto
from .values import (
    CachedMessage,
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
    known_kind,
)

DEFAULT_REQUEST_TIMEOUT = 60.0  # seconds; publishing a large message takes a while to make durable
DEFAULT_CONNECT_TIMEOUT = 5.0

T = TypeVar("T")


# --- proto -> Python -----------------------------------------------------------


def _traffic(m: pb.TrafficByKind) -> TrafficByKind:
    def counter(c: pb.TrafficCounter) -> TrafficCounter:
        return TrafficCounter(c.datagrams, c.bytes)

    return TrafficByKind(
        data=counter(m.data),
        repair=counter(m.repair),
        mfr=counter(m.mfr),
        beacon=counter(m.beacon),
        forward=counter(m.forward),
        summary=counter(m.summary),
    )


_STATS_NESTED = ("sent", "received", "malformed", "integrity", "silent", "cache_paused", "links")


def stats_from_proto(m: pb.Stats) -> Stats:
    # Every other field of Stats is a uint64 of the same name in ipc.Stats.
    scalars: Dict[str, int] = {
        f.name: int(getattr(m, f.name)) for f in dataclasses.fields(Stats) if f.name not in _STATS_NESTED
    }
    return Stats(
        sent=_traffic(m.sent),
        received=_traffic(m.received),
        malformed=dict(m.malformed),
        integrity=dict(m.integrity),
        silent=bool(m.silent),
        cache_paused=bool(m.cache_paused),
        links={name: stats_from_proto(own) for name, own in m.links.items()},
        **scalars,
    )


def delivery_from_proto(m: pb.Delivery) -> Delivery:
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
        expiry_ms=m.expiry_ms,
        replace=m.replace,
    )


def event_from_proto(m: pb.Event) -> Optional[Event]:
    kind = known_kind(EventKind, m.kind)
    if kind is None:
        return None
    return Event(kind=kind, peer=m.peer, group=m.group, publisher=m.publisher, seq=m.seq,
                 clock_offset_ms=m.clock_offset_us / 1000.0, detail=m.detail)




# --- pushed messages -------------------------------------------------------------


class Inbox:
    """Deliveries and events received and not yet handed out, and which
    subscriptions are open on the connection.

    Deliveries are queued per subscription; each remembers its arrival so
    that taking "any delivery" hands out the oldest. The queues are unbounded
    on this side: an application that never takes deliveries while subscribed
    grows them (the daemon, in turn, closes a connection that stops reading).
    """

    def __init__(self) -> None:
        self._deliveries: Dict[int, Deque[Tuple[int, Delivery]]] = {}
        self._arrivals = itertools.count()
        self._queued_deliveries = 0
        self._events: Deque[Event] = collections.deque()
        self._link_events: Deque[LinkEvent] = collections.deque()
        self._open: Set[int] = set()
        self._dropped: Set[int] = set()

    # -- subscriptions ---------------------------------------------------------------

    def open(self, subscription: int) -> None:
        self._open.add(subscription)
        self._dropped.discard(subscription)

    def close(self, subscription: int) -> None:
        """Unsubscribed: nothing more comes for it; what is queued stays."""
        self._open.discard(subscription)
        self._dropped.discard(subscription)

    def drop(self, subscription: int) -> None:
        """Nobody will read this subscription (its subscribe call was
        abandoned): discard what is queued for it and what still comes."""
        self._open.discard(subscription)
        self._dropped.add(subscription)
        queue = self._deliveries.pop(subscription, None)
        if queue is not None:
            self._queued_deliveries -= len(queue)

    def close_all(self) -> None:
        """The connection is gone, and every subscription with it."""
        self._open.clear()
        self._dropped.clear()

    def is_open(self, subscription: int) -> bool:
        return subscription in self._open

    def ended(self, subscription: int) -> bool:
        """Not open, and nothing of it is queued: nothing more can be taken."""
        return subscription not in self._open and subscription not in self._deliveries

    # -- filing and taking ---------------------------------------------------------------

    def push(self, item: Union[Delivery, Event, LinkEvent]) -> bool:
        """Files a pushed message; False if it was discarded."""
        if isinstance(item, Event):
            self._events.append(item)
            return True
        if isinstance(item, LinkEvent):
            self._link_events.append(item)
            return True
        if item.subscription in self._dropped:
            return False
        self._deliveries.setdefault(item.subscription, collections.deque()).append((next(self._arrivals), item))
        self._queued_deliveries += 1
        return True

    def pop_delivery(self, subscription: Optional[int] = None) -> Optional[Delivery]:
        """The oldest queued delivery of `subscription` (None: of any), or None."""
        if subscription is None:
            if not self._deliveries:
                return None
            subscription = min(self._deliveries, key=lambda s: self._deliveries[s][0][0])
        queue = self._deliveries.get(subscription)
        if not queue:
            return None
        _, delivery = queue.popleft()
        if not queue:
            del self._deliveries[subscription]
        self._queued_deliveries -= 1
        return delivery

    def deliveries_of(
        self, subscription: Optional[int]
    ) -> Tuple[Callable[[], Optional[Delivery]], Callable[[], bool]]:
        """How a client waits for deliveries of `subscription` (None: of
        any): what takes the oldest one, and what tells that none can come
        any more (never, for any subscription)."""
        if subscription is None:
            return self.pop_delivery, lambda: False
        sub = subscription
        return lambda: self.pop_delivery(sub), lambda: self.ended(sub)

    def pop_event(self) -> Optional[Event]:
        return self._events.popleft() if self._events else None

    def pop_link_event(self) -> Optional[LinkEvent]:
        return self._link_events.popleft() if self._link_events else None

    def pending_deliveries(self, subscription: Optional[int] = None) -> int:
        if subscription is None:
            return self._queued_deliveries
        queue = self._deliveries.get(subscription)
        return len(queue) if queue is not None else 0

    def pending_events(self) -> int:
        return len(self._events)

    def pending_link_events(self) -> int:
        return len(self._link_events)


class InboxClient(abc.ABC):
    """What both clients hand out of their Inbox alike: the counts of what
    is queued, and whether a subscription can still be read from."""

    _inbox: Inbox
    _closed_reason: str  # why the connection is gone ("" while it is not)

    @property
    @abc.abstractmethod
    def connected(self) -> bool: ...

    @property
    @abc.abstractmethod
    def socket_path(self) -> Optional[str]: ...

    def _check_subscription(self, subscription: int) -> None:
        if self._inbox.ended(subscription):
            if not self.connected:  # it ended with the connection
                raise DaemonConnectionError(self.socket_path, self._closed_reason)
            raise SubscriptionClosed(subscription)

    @property
    def pending_deliveries(self) -> int:
        """Deliveries received and queued, not yet handed out."""
        return self._inbox.pending_deliveries()

    @property
    def pending_events(self) -> int:
        return self._inbox.pending_events()

    @property
    def pending_link_events(self) -> int:
        return self._inbox.pending_link_events()


def decode(body: bytes) -> Union[pb.Response, Delivery, Event, LinkEvent, None]:
    """One ServerMessage: a Response to match with its request, or a pushed
    Delivery, Event or LinkEvent; None for a kind newer than this library. Raises
    ProtocolError for a frame that does not parse and for the daemon's
    "closing your connection" response (request_id 0 with an error)."""
    m = pb.ServerMessage()
    try:
        m.ParseFromString(body)
    except DecodeError as e:
        raise ProtocolError("unparseable frame from dissemd") from e
    kind = m.WhichOneof("kind")
    if kind == "delivery":
        return delivery_from_proto(m.delivery)
    if kind == "event":
        return event_from_proto(m.event)
    if kind == "link_event":
        return link_event_from_proto(m.link_event)
    if kind == "response":
        r = m.response
        if r.request_id == 0 and r.WhichOneof("result") == "error":
            raise ProtocolError(f"dissemd closed the connection: {r.error.message}")
        return r
    return None


# --- requests --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Call(Generic[T]):
    """One request and how to read its answer.

    message: the ClientMessage (its request_id is set by encode()).
    expect:  the Response.result field that answers it.
    read:    the answer as a Python value.
    effect:  what the answer changes in the connection's Inbox (applied by
             the client before anything read after the answer is filed).
    orphan:  for a request whose caller stopped waiting (asyncio
             cancellation) and whose answer came anyway: what to undo in the
             Inbox, and a request to send so the daemon undoes it too.
    rejected: for a request whose REJECTED refusal is an answer (nothing by
             that name, nothing held): the value it stands for, instead of
             raising RequestError.
    """

    message: pb.ClientMessage
    expect: str
    read: Callable[[pb.Response], T]
    effect: Optional[Callable[[Inbox, T], None]] = None
    orphan: Optional[Callable[[Inbox, T], Optional["Call[None]"]]] = None
    rejected: Optional[Callable[[], T]] = None

    @property
    def kind(self) -> str:
        return self.message.WhichOneof("request") or "an empty request"

    def encode(self, request_id: int) -> bytes:
        """The request as one frame. Raises RequestError(FRAME_TOO_LARGE) for
        a request the daemon would refuse by closing the connection."""
        self.message.request_id = request_id
        body = self.message.SerializeToString()
        if len(body) > framing.MAX_FRAME_BYTES:
            raise RequestError(
                ErrorCode.FRAME_TOO_LARGE,
                f"request of {len(body)} bytes exceeds the {framing.MAX_FRAME_BYTES}-byte frame limit",
            )
        return framing.encode_frame(body)

    def result(self, response: pb.Response) -> T:
        """The answer's value. Raises RequestError if the daemon refused the
        request (unless `rejected` answers a REJECTED refusal), ProtocolError
        if it answered with something else."""
        got = response.WhichOneof("result")
        if got == "error":
            code = ErrorCode.from_wire(response.error.code)
            if code == ErrorCode.REJECTED and self.rejected is not None:
                return self.rejected()
            raise RequestError(code, response.error.message)
        if got != self.expect:
            raise ProtocolError(f"dissemd answered {self.kind} with {got or 'an empty response'}")
        return self.read(response)

    def complete(self, response: pb.Response, inbox: Inbox) -> T:
        """result(), with its effect applied to `inbox`."""
        value = self.result(response)
        if self.effect is not None:
            self.effect(inbox, value)
        return value

    def abandon(self, response: pb.Response, inbox: Inbox) -> Optional["Call[None]"]:
        """For an answer nobody waits for any more: undoes what it did, and
        returns a request to send to the daemon for that, if one is needed.
        Raises ProtocolError as result() does; a refusal needs no undoing."""
        try:
            value = self.result(response)
        except RequestError:
            return None
        if self.orphan is None:
            if self.effect is not None:
                self.effect(inbox, value)  # e.g. an unsubscribe the daemon did anyway
            return None
        return self.orphan(inbox, value)

    def forget(self, value: T, inbox: Inbox) -> Optional["Call[None]"]:
        """As abandon(), for an answer already completed (its effect applied)
        whose caller stopped waiting before it could take the value."""
        return self.orphan(inbox, value) if self.orphan is not None else None


def _read_ok(response: pb.Response) -> None:
    return None


class QueueFullRetry:
    """How a publish waits for room in the daemon's send queue: it asks again,
    with backoff (5 ms doubling to 200 ms), while the daemon answers
    QUEUE_FULL, for up to `wait` seconds (0: not at all)."""

    def __init__(self, wait: float) -> None:
        self._deadline = time.monotonic() + wait
        self._pause = 0.005

    def pause_after(self, error: RequestError) -> float:
        """The pause before asking again; raises `error` when it is not
        QUEUE_FULL or the wait is over."""
        if error.code != ErrorCode.QUEUE_FULL or time.monotonic() + self._pause > self._deadline:
            raise error
        pause = self._pause
        self._pause = min(self._pause * 2, 0.2)
        return pause


def _read_message_id(r: pb.Response) -> MessageId:
    return MessageId(r.publish_ack.group, r.publish_ack.publisher, r.publish_ack.seq)


def publish(
    group: str,
    payload: bytes,
    priority: int = 0,
    expiry_s: int = 0,
    history_window: int = 0,
    tag: str = "",
    lifetime_ms: int = 0,
    expiry_ms: int = 0,
    replace: bool = False,
) -> Call[MessageId]:
    m = pb.ClientMessage()
    p = m.publish
    p.group = group
    p.payload = bytes(payload)
    p.priority = priority
    p.expiry_s = expiry_s
    p.history_window = history_window
    p.tag = tag
    p.lifetime_ms = lifetime_ms
    p.expiry_ms = expiry_ms
    p.replace = replace
    return Call(m, "publish_ack", _read_message_id)


def cancel(group: str, seqs: Sequence[int] = (), tag: str = "", expiry_ms: int = 0) -> Call[MessageId]:
    m = pb.ClientMessage()
    c = m.cancel
    c.group = group
    c.seqs.extend(seqs)
    c.tag = tag
    c.expiry_ms = expiry_ms
    return Call(m, "publish_ack", _read_message_id)


def _abandoned_subscription(inbox: Inbox, subscription: int) -> Call[None]:
    inbox.drop(subscription)
    return unsubscribe(subscription)


def subscribe(
    group: str,
    reliable: bool = True,
    ordered: bool = False,
    history: int = 0,
    use_publisher_history: bool = False,
    min_priority: int = 0,
    tags: Sequence[str] = (),
    name: str = "",
    silent: bool = False,
) -> Call[int]:
    m = pb.ClientMessage()
    s = m.subscribe
    s.group = group
    s.reliable = reliable
    s.ordered = ordered
    s.history = history
    s.use_publisher_history = use_publisher_history
    s.min_priority = min_priority
    s.tags.extend(tags)
    s.name = name
    s.silent = silent

    def read(r: pb.Response) -> int:
        return r.subscribe_ack.subscription_id

    return Call(m, "subscribe_ack", read, effect=Inbox.open, orphan=_abandoned_subscription)


def unsubscribe(subscription: int) -> Call[None]:
    m = pb.ClientMessage()
    m.unsubscribe.subscription_id = subscription
    return Call(m, "ok", _read_ok, effect=lambda inbox, _: inbox.close(subscription))


def acknowledge(subscription: int, message: Union[MessageId, Delivery]) -> Call[None]:
    if isinstance(message, Delivery):
        message = message.id
    m = pb.ClientMessage()
    a = m.acknowledge
    a.subscription_id = subscription
    a.group = message.group
    a.publisher = message.publisher
    a.seq = message.seq
    return Call(m, "ok", _read_ok)


def delete_subscription(name: str) -> Call[bool]:
    """True once deleted; False if there was none by that name."""
    m = pb.ClientMessage()
    m.delete_subscription.name = name
    return Call(m, "ok", lambda r: True, rejected=lambda: False)


def request_history(group: str, count: int) -> Call[None]:
    m = pb.ClientMessage()
    m.request_history.group = group
    m.request_history.count = count
    return Call(m, "ok", _read_ok)


def get(group: str, publisher: int, seq: int) -> Call[Optional[Delivery]]:
    """The message; None if the daemon's cache does not hold it whole."""
    m = pb.ClientMessage()
    m.get.group = group
    m.get.publisher = publisher
    m.get.seq = seq
    return Call(m, "message", lambda r: delivery_from_proto(r.message), rejected=lambda: None)


def _cached_from_proto(c: pb.CachedMessage) -> CachedMessage:
    return CachedMessage(
        group=c.group,
        publisher=c.publisher,
        seq=c.seq,
        priority=c.priority,
        expiry_ms=c.expiry_ms,
        tag=c.tag,
        total_length=c.total_length,
        stored_bytes=c.stored_bytes,
        complete=c.complete,
        replace=c.replace,
        cancel=c.cancel,
        key_epoch=c.key_epoch,
    )


def list_messages(group: str, publisher: int = 0, from_seq: int = 0, to_seq: int = 0, limit: int = 1000,
                  incomplete_only: bool = False) -> Call[MessageList]:
    m = pb.ClientMessage()
    q = m.list
    q.group = group
    q.publisher = publisher
    q.from_seq = from_seq
    q.to_seq = to_seq
    q.limit = limit
    q.incomplete_only = incomplete_only

    def read(r: pb.Response) -> MessageList:
        return MessageList(tuple(_cached_from_proto(c) for c in r.messages.messages), r.messages.truncated)

    return Call(m, "messages", read)


def stats() -> Call[Stats]:
    m = pb.ClientMessage()
    m.get_stats.SetInParent()
    return Call(m, "stats", lambda r: stats_from_proto(r.stats))


def peers() -> Call[List[Peer]]:
    m = pb.ClientMessage()
    m.list_peers.SetInParent()
    return Call(m, "peers", lambda r: [peer_from_proto(p) for p in r.peers.peers])


def watch_links(thresholds: Optional[LinkThresholds] = None) -> Call[None]:
    m = pb.ClientMessage()
    m.watch_links.SetInParent()
    if thresholds is not None:
        thresholds_to_proto(thresholds, m.watch_links.thresholds)
    return Call(m, "ok", _read_ok)


def set_silent(silent: bool) -> Call[None]:
    m = pb.ClientMessage()
    m.set_silent.silent = silent
    return Call(m, "ok", _read_ok)


def reload() -> Call[Reloaded]:
    m = pb.ClientMessage()
    m.reload.SetInParent()
    return Call(
        m,
        "reloaded",
        lambda r: Reloaded(list(r.reloaded.applied), list(r.reloaded.needs_restart), r.reloaded.keys),
    )


def unwatch_links() -> Call[None]:
    m = pb.ClientMessage()
    m.watch_links.stop = True
    return Call(m, "ok", _read_ok)
