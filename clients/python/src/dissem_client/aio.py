"""asyncio client for the local dissemd API (proto/ipc.proto).

The same calls as the blocking dissem_client.Client, as coroutines::

    import dissem_client.aio

    async with await dissem_client.aio.connect("/run/dissem/dissemd.sock") as c:
        sub = await c.subscribe("news")
        await c.publish("news", b"hello")           # returns once durable
        async for d in c.deliveries(sub):           # until unsubscribed or cancelled
            use(d.payload)

Requests are pipelined: any number of tasks may call at once; each request
carries its own request id, and the daemon answers in request order. A
request whose caller is cancelled stays on the wire; its answer, when it
comes, is dropped (and a subscription made by a cancelled subscribe() is
undone with an unsubscribe). The connection stays usable.

Deliveries and events are read as they arrive, whatever the application is
doing, and queued: deliveries per subscription, taken with deliveries() /
next_delivery(), events with events() / next_event(). Nothing polls: waiting
tasks sleep on futures until something arrives, the connection goes, or
their timeout passes.

Errors, as in the blocking client: a refused request raises RequestError and
the connection stays usable; the daemon closing the connection, a protocol
violation or a request that gets no answer within `request_timeout` raises
DaemonConnectionError in every waiting task and leaves the client
disconnected (the daemon answers in order, so one silent answer holds up
every later one).

One Client belongs to one event loop.
"""

from __future__ import annotations

import asyncio
import collections
import os
from typing import Any, AsyncIterator, Awaitable, Callable, List, Optional, Sequence, Set, TypeVar, Union

from . import framing
from . import ipc_pb2 as pb
from . import protocol
from .errors import DaemonConnectionError, ProtocolError, RequestError
from .protocol import DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT
from .values import Delivery, Event, LinkEvent, LinkThresholds, MessageId, MessageList, Peer, Reloaded, Stats

__all__ = ["Client", "connect"]

T = TypeVar("T")
X = TypeVar("X")


async def connect(
    socket_path: Union[str, "os.PathLike[str]"],
    *,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
) -> "Client":
    """Connects to the daemon listening on `socket_path`. Raises
    DaemonConnectionError if nobody listens there (or the connection is not
    made within `connect_timeout` seconds)."""
    path = os.fspath(socket_path)
    client = Client(path, request_timeout=request_timeout)
    loop = asyncio.get_running_loop()
    try:
        await asyncio.wait_for(loop.create_unix_connection(lambda: _Stream(client), path), timeout=connect_timeout)
    except asyncio.TimeoutError as e:
        client._fail("cannot connect: timed out")
        raise DaemonConnectionError(path, f"cannot connect: no answer within {connect_timeout} s") from e
    except OSError as e:
        reason = e.strerror or str(e) or type(e).__name__
        client._fail(f"cannot connect: {reason}")
        raise DaemonConnectionError(path, f"cannot connect: {reason}") from e
    except BaseException:
        client._fail("connect() was cancelled")
        raise
    return client


class _Stream(asyncio.Protocol):
    """Feeds what the socket reads to the client, frame by frame."""

    def __init__(self, client: "Client") -> None:
        self._client = client
        self._decoder = framing.FrameDecoder()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # Attached here, not when connect() resumes: an event the daemon
        # pushes at once is filed as soon as it is read.
        self._client._attach(transport)

    def data_received(self, data: bytes) -> None:
        self._decoder.feed(data)
        try:
            while self._client.connected:
                body = self._decoder.next_frame()
                if body is None:
                    return
                self._client._on_frame(body)
        except framing.FrameError as e:
            self._client._fail(f"bad frame from dissemd: {e}")

    def eof_received(self) -> Optional[bool]:
        return False  # close the transport; connection_lost() follows

    def connection_lost(self, exc: Optional[Exception]) -> None:
        if exc is None:
            self._client._fail("dissemd closed the connection")
        else:
            self._client._fail(f"connection lost: {exc}")
        self._client._on_lost()


class _Pending:
    """A request on the wire. `future` is None for one the client sent on its
    own (undoing an abandoned subscription), which nobody waits for."""

    __slots__ = ("call", "future", "timer")

    def __init__(
        self,
        call: protocol.Call[Any],
        future: Optional["asyncio.Future[Any]"],
        timer: Optional[asyncio.TimerHandle],
    ) -> None:
        self.call = call
        self.future = future
        self.timer = timer


class Client(protocol.InboxClient):
    """A connection to one dissemd, made by :func:`connect`."""

    def __init__(self, socket_path: str, *, request_timeout: float = DEFAULT_REQUEST_TIMEOUT) -> None:
        self.request_timeout = request_timeout
        self._path = socket_path
        self._loop = asyncio.get_running_loop()
        self._transport: Optional[asyncio.Transport] = None
        self._closed_reason = "not connected"
        self._lost: "asyncio.Future[None]" = self._loop.create_future()
        self._next_request_id = 1
        self._pending: "collections.OrderedDict[int, _Pending]" = collections.OrderedDict()
        self._inbox = protocol.Inbox()
        self._waiters: Set["asyncio.Future[None]"] = set()
        self._gave_up = False  # failed before the connection was made

    def _attach(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        if self._gave_up:  # connect() gave up (timed out or cancelled) just as the connection was made
            transport.abort()
        else:
            self._closed_reason = ""

    # -- connection -------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._transport is not None and not self._closed_reason

    @property
    def socket_path(self) -> str:
        return self._path

    async def close(self) -> None:
        """Closes the connection (the daemon drops its subscriptions). Waiting
        requests raise DaemonConnectionError; queued deliveries and events stay
        available to next_delivery() / next_event()."""
        self._fail("connection closed by the application")
        if self._transport is not None:
            await self._lost

    async def __aenter__(self) -> "Client":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _fail(self, reason: str) -> None:
        """Ends the connection: every waiting request raises
        DaemonConnectionError(reason), every waiting reader wakes up."""
        if self._transport is None:
            self._gave_up = True
            self._closed_reason = reason
            return
        if self._closed_reason:
            return
        self._closed_reason = reason
        self._inbox.close_all()
        pending = list(self._pending.values())
        self._pending.clear()
        for p in pending:
            if p.timer is not None:
                p.timer.cancel()
            if p.future is not None and not p.future.done():
                p.future.set_exception(DaemonConnectionError(self._path, reason))
        if self._transport is not None:
            self._transport.abort()  # connection_lost() follows in the next loop turn
        self._wake()

    def _on_lost(self) -> None:
        if not self._lost.done():
            self._lost.set_result(None)

    def _live(self) -> asyncio.Transport:
        if self._closed_reason or self._transport is None:
            raise DaemonConnectionError(self._path, self._closed_reason)
        return self._transport

    # -- frames ------------------------------------------------------------------

    def _on_frame(self, body: bytes) -> None:
        try:
            item = protocol.decode(body)
            if isinstance(item, pb.Response):
                self._on_response(item)
            elif item is not None and self._inbox.push(item):
                self._wake()
        except ProtocolError as e:
            self._fail(str(e))

    def _on_response(self, response: pb.Response) -> None:
        if not self._pending:
            raise ProtocolError("dissemd sent a response nobody asked for")
        request_id, p = next(iter(self._pending.items()))
        if response.request_id != request_id:
            raise ProtocolError(
                f"dissemd answered request {response.request_id} while request {request_id} was the oldest waiting"
            )
        del self._pending[request_id]
        if p.timer is not None:
            p.timer.cancel()
        if p.future is None or p.future.done():
            # Nobody waits for it (cancelled, or sent by the client itself).
            undo = p.call.abandon(response, self._inbox)
            if undo is not None:
                self._send(undo, None)
            self._wake()
            return
        try:
            value = p.call.complete(response, self._inbox)
        except RequestError as e:  # refused: the caller's to handle; a ProtocolError ends the connection
            p.future.set_exception(e)
            return
        p.future.set_result(value)
        self._wake()  # a subscription opened or closed: iterators may end

    def _send(self, call: protocol.Call[Any], future: Optional["asyncio.Future[Any]"]) -> None:
        transport = self._live()
        request_id = self._next_request_id
        frame = call.encode(request_id)  # may raise RequestError: then nothing is sent
        self._next_request_id += 1
        timer = None
        if future is not None:
            timer = self._loop.call_later(self.request_timeout, self._timed_out, request_id)
        self._pending[request_id] = _Pending(call, future, timer)
        transport.write(frame)  # all of it is buffered at once: a cancelled caller never leaves half a frame

    def _timed_out(self, request_id: int) -> None:
        p = self._pending.get(request_id)
        if p is not None and p.future is not None and not p.future.done():
            self._fail(f"timed out waiting for dissemd to answer (request_timeout {self.request_timeout} s)")

    async def _call(self, call: protocol.Call[T]) -> T:
        future: "asyncio.Future[T]" = self._loop.create_future()
        self._send(call, future)
        try:
            return await future
        except asyncio.CancelledError:
            if future.cancelled():
                # The request is on the wire: its answer will be dropped, and
                # what it did undone (Call.abandon). Its timer goes: nobody waits.
                for p in self._pending.values():
                    if p.future is future and p.timer is not None:
                        p.timer.cancel()
                        p.timer = None
            elif future.exception() is None and self.connected:
                # Answered and applied, but cancelled before this task could
                # take the value: undo it as if the answer had come late.
                undo = call.forget(future.result(), self._inbox)
                if undo is not None:
                    self._send(undo, None)
            raise

    # -- requests (one line each: the request itself is built in protocol.py) ----------

    async def publish(
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
        """As dissem_client.Client.publish(): returns once the message is durable."""
        retry = protocol.QueueFullRetry(wait)  # flow control: room in the send queue
        while True:
            try:
                published: MessageId = await self._call(
                    protocol.publish(
                        group, payload, priority, expiry_s, history_window, tag, lifetime_ms, expiry_ms, replace
                    )
                )
                return published
            except RequestError as e:
                pause = retry.pause_after(e)
            await asyncio.sleep(pause)

    async def cancel(self, group: str, seqs: Sequence[int] = (), tag: str = "", expiry_ms: int = 0) -> MessageId:
        """As dissem_client.Client.cancel()."""
        return await self._call(protocol.cancel(group, seqs, tag, expiry_ms))

    async def subscribe(
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
        """As dissem_client.Client.subscribe(); returns the subscription id."""
        return await self._call(
            protocol.subscribe(
                group, reliable, ordered, history, use_publisher_history, min_priority, tags, name, silent
            )
        )

    async def unsubscribe(self, subscription: int) -> None:
        """Ends a subscription; its deliveries already queued stay available,
        and its deliveries() iterators end once they are taken."""
        await self._call(protocol.unsubscribe(subscription))

    async def acknowledge(self, subscription: int, message: Union[MessageId, Delivery]) -> None:
        """As dissem_client.Client.acknowledge(): durable once this returns."""
        await self._call(protocol.acknowledge(subscription, message))

    async def delete_subscription(self, name: str) -> bool:
        """Ends a durable subscription for good; False if there was none."""
        return await self._call(protocol.delete_subscription(name))

    async def request_history(self, group: str, count: int) -> None:
        await self._call(protocol.request_history(group, count))

    async def get(self, group: str, publisher: int, seq: int) -> Optional[Delivery]:
        """As dissem_client.Client.get(): None if not held whole."""
        return await self._call(protocol.get(group, publisher, seq))

    async def list(
        self, group: str, publisher: int = 0, from_seq: int = 0, to_seq: int = 0, limit: int = 1000,
        incomplete_only: bool = False,
    ) -> MessageList:
        """As dissem_client.Client.list()."""
        return await self._call(protocol.list_messages(group, publisher, from_seq, to_seq, limit, incomplete_only))

    async def stats(self) -> Stats:
        return await self._call(protocol.stats())

    async def peers(self) -> List[Peer]:
        """Neighbours and their links: last heard, loss each way, RTT, rates."""
        return await self._call(protocol.peers())

    async def watch_links(self, thresholds: Optional[LinkThresholds] = None) -> None:
        """As dissem_client.Client.watch_links(): link events from now on."""
        await self._call(protocol.watch_links(thresholds))

    async def unwatch_links(self) -> None:
        await self._call(protocol.unwatch_links())

    async def set_silent(self, silent: bool) -> None:
        """As dissem_client.Client.set_silent(): radio silence on or off."""
        await self._call(protocol.set_silent(silent))

    async def reload(self) -> Reloaded:
        """As dissem_client.Client.reload(): configuration and keys read again."""
        return await self._call(protocol.reload())

    # -- pushed messages -------------------------------------------------------------

    def _wake(self) -> None:
        waiters = self._waiters
        self._waiters = set()
        for w in waiters:
            if not w.done():
                w.set_result(None)

    async def _changed(self, deadline: Optional[float]) -> None:
        """Sleeps until something is filed, the inbox changes or the
        connection goes, or until `deadline` (loop time)."""
        waiter: "asyncio.Future[None]" = self._loop.create_future()
        self._waiters.add(waiter)
        timer = None
        if deadline is not None:
            timer = self._loop.call_at(deadline, _resolve, waiter)
        try:
            await waiter
        finally:
            self._waiters.discard(waiter)
            if timer is not None:
                timer.cancel()

    async def _take(
        self,
        take: Callable[[], Optional[X]],
        ended: Callable[[], bool],
        timeout: Optional[float],
    ) -> Optional[X]:
        deadline = None if timeout is None else self._loop.time() + max(0.0, timeout)
        while True:
            item = take()
            if item is not None:
                return item
            if self._closed_reason:
                raise DaemonConnectionError(self._path, self._closed_reason)
            if ended() or (deadline is not None and self._loop.time() >= deadline):
                return None
            await self._changed(deadline)

    async def _next_delivery(self, subscription: Optional[int], timeout: Optional[float]) -> Optional[Delivery]:
        take, ended = self._inbox.deliveries_of(subscription)
        return await self._take(take, ended, timeout)

    async def next_delivery(
        self, timeout: Optional[float] = None, *, subscription: Optional[int] = None
    ) -> Optional[Delivery]:
        """The oldest pushed delivery (of `subscription` if given, else of
        any), waiting up to `timeout` seconds (None: without limit). None on
        timeout, or when `subscription` is unsubscribed meanwhile.

        Raises DaemonConnectionError once the connection is gone and nothing
        queued remains; SubscriptionClosed if `subscription` is not open here
        and nothing of it is queued."""
        if subscription is not None:
            self._check_subscription(subscription)
        return await self._next_delivery(subscription, timeout)

    async def next_event(self, timeout: Optional[float] = None) -> Optional[Event]:
        """The oldest pushed event; as next_delivery()."""
        return await self._take(self._inbox.pop_event, lambda: False, timeout)

    async def next_link_event(self, timeout: Optional[float] = None) -> Optional[LinkEvent]:
        """The oldest pushed link event (watch_links()); as next_delivery()."""
        return await self._take(self._inbox.pop_link_event, lambda: False, timeout)

    def link_events(self, *, timeout: Optional[float] = None) -> AsyncIterator[LinkEvent]:
        """``async for e in c.link_events()``: link events as they arrive; ends
        when `timeout` seconds pass without one (None: never)."""
        return _Iterator(lambda: self.next_link_event(timeout))

    def deliveries(
        self, subscription: Optional[int] = None, *, timeout: Optional[float] = None
    ) -> AsyncIterator[Delivery]:
        """``async for d in c.deliveries(sub)``: pushed deliveries (of
        `subscription` if given, else of any) as they arrive. The iteration
        ends when `timeout` seconds pass without a new one (None: never), or
        once `subscription` is unsubscribed and what was queued for it is
        taken. Cancelling the task that waits in it loses nothing.

        Raises SubscriptionClosed at once if `subscription` is not open here
        and has nothing queued; DaemonConnectionError once the connection is
        gone and nothing queued remains."""
        if subscription is not None:
            self._check_subscription(subscription)
        sub = subscription
        return _Iterator(lambda: self._next_delivery(sub, timeout))

    def events(self, *, timeout: Optional[float] = None) -> AsyncIterator[Event]:
        """``async for e in c.events()``: pushed events as they arrive; ends
        when `timeout` seconds pass without one (None: never)."""
        return _Iterator(lambda: self.next_event(timeout))

    @property
    def pending_requests(self) -> int:
        """Requests sent and not answered yet (including abandoned ones)."""
        return len(self._pending)


def _resolve(waiter: "asyncio.Future[None]") -> None:
    if not waiter.done():
        waiter.set_result(None)


class _Iterator(AsyncIterator[X]):
    """An async iterator over `step()`'s results, ending at the first None."""

    def __init__(self, step: Callable[[], Awaitable[Optional[X]]]) -> None:
        self._step = step
        self._done = False

    def __aiter__(self) -> "_Iterator[X]":
        return self

    async def __anext__(self) -> X:
        if self._done:
            raise StopAsyncIteration
        item = await self._step()
        if item is None:
            self._done = True
            raise StopAsyncIteration
        return item
