"""Tests of the asyncio client (dissem_client.aio).

First against a scripted fake daemon (support.FakeDaemon: pipelining,
ordering, cancellation and failures at exactly chosen points), then against
real dissemd processes (conftest.py). Every test runs its coroutine under
asyncio.wait_for, so a hang fails the test instead of stalling the suite.
"""

import asyncio
import os
import threading
import time

import pytest

import dissem_client
from dissem_client import (
    Client,
    DaemonConnectionError,
    ErrorCode,
    EventKind,
    MessageId,
    Peer,
    RequestError,
    Stats,
    SubscriptionClosed,
    aio,
)
from dissem_client import ipc_pb2 as pb
from support import FakeDaemon, delivery_msg, event_msg, pattern, response_msg, send


def run(coro, timeout=30.0):
    """Runs `coro` in a fresh event loop, failing after `timeout` seconds."""

    async def bounded():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


async def in_thread(fn, *args):
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


# --- against a scripted fake daemon ----------------------------------------------


def test_requests_are_pipelined_and_pushes_routed(tmp_path):
    def script(conn, read_request):
        # All three requests arrive before any answer: the client does not
        # wait for one answer before sending the next request.
        reqs = [read_request(timeout=5) for _ in range(3)]
        assert [r.WhichOneof("request") for r in reqs] == ["subscribe", "subscribe", "get_stats"]
        assert len({r.request_id for r in reqs}) == 3
        send(conn, response_msg(reqs[0].request_id, subscribe_ack=3))
        send(conn, delivery_msg(3, 1, b"a1"))
        send(conn, event_msg(pb.Event.PEER_APPEARED, 9))
        send(conn, response_msg(reqs[1].request_id, subscribe_ack=4))
        send(conn, delivery_msg(4, 1, b"b1"))
        send(conn, delivery_msg(3, 2, b"a2"))
        unknown = pb.ServerMessage()
        unknown.event.kind = 99  # newer than the client: ignored
        send(conn, unknown)
        send(conn, response_msg(reqs[2].request_id, stats=77))
        req = read_request()
        send(conn, response_msg(req.request_id, error=(pb.Error.REJECTED, "no such subscription")))
        req = read_request()
        send(conn, response_msg(req.request_id, peers=[5, 6]))
        assert read_request() is None

    fake = FakeDaemon(tmp_path, script)

    async def main():
        async with await aio.connect(fake.path) as c:
            assert c.connected and c.socket_path == fake.path
            sub_a, sub_b, stats = await asyncio.gather(c.subscribe("g"), c.subscribe("h"), c.stats())
            assert (sub_a, sub_b) == (3, 4)
            assert isinstance(stats, Stats) and stats.received.data.bytes == 77
            assert c.pending_deliveries == 3 and c.pending_events == 1
            # Per-subscription queues: b's delivery waits while a's are taken.
            got = [d.payload async for d in c.deliveries(sub_a, timeout=0)]
            assert got == [b"a1", b"a2"]
            d = await c.next_delivery(0)
            assert d is not None and (d.subscription, d.payload) == (4, b"b1")
            assert await c.next_delivery(0.05) is None
            e = await c.next_event(0)
            assert e is not None and (e.kind, e.peer) == (EventKind.PEER_APPEARED, 9)
            with pytest.raises(RequestError) as err:
                await c.unsubscribe(42)
            assert err.value.code == ErrorCode.REJECTED and err.value.message == "no such subscription"
            assert c.connected  # a refusal leaves the connection usable
            assert [p.node_id for p in await c.peers()] == [5, 6]
            with pytest.raises(SubscriptionClosed):
                c.deliveries(99)
        assert not c.connected
        with pytest.raises(DaemonConnectionError):
            await c.stats()

    run(main())
    fake.join()


def test_out_of_order_answer_is_a_connection_error(tmp_path):
    def script(conn, read_request):
        first, second = read_request(), read_request()
        send(conn, response_msg(second.request_id, ok=True))  # the daemon must answer in order
        assert read_request() is None

    fake = FakeDaemon(tmp_path, script)

    async def main():
        c = await aio.connect(fake.path)
        results = await asyncio.gather(c.stats(), c.request_history("g", 1), return_exceptions=True)
        for r in results:
            assert isinstance(r, DaemonConnectionError) and fake.path in str(r)
        assert "answered request 2 while request 1" in str(results[0])
        assert not c.connected
        await c.close()

    run(main())
    fake.join()


def test_closing_error_from_the_daemon(tmp_path):
    def script(conn, read_request):
        read_request()
        r = pb.ServerMessage()
        r.response.request_id = 0
        r.response.error.code, r.response.error.message = pb.Error.MALFORMED_FRAME, "bad frame"
        send(conn, r)

    fake = FakeDaemon(tmp_path, script)

    async def main():
        c = await aio.connect(fake.path)
        with pytest.raises(DaemonConnectionError) as err:
            await c.peers()
        assert "bad frame" in str(err.value)
        await c.close()

    run(main())
    fake.join()


def test_cancelled_request_is_dropped_and_its_subscription_undone(tmp_path):
    got_subscribe, answer = threading.Event(), threading.Event()

    def script(conn, read_request):
        req = read_request()
        assert req.WhichOneof("request") == "subscribe"
        got_subscribe.set()
        assert answer.wait(10)
        send(conn, response_msg(req.request_id, subscribe_ack=7))  # its caller has gone
        send(conn, delivery_msg(7, 1, b"for nobody"))
        req = read_request()
        assert req.WhichOneof("request") == "get_stats"
        send(conn, response_msg(req.request_id, stats=1))
        req = read_request()
        # The client undoes the subscription nobody knows the id of.
        assert req.WhichOneof("request") == "unsubscribe" and req.unsubscribe.subscription_id == 7
        send(conn, response_msg(req.request_id, ok=True))
        req = read_request()
        assert req.WhichOneof("request") == "list_peers"
        send(conn, response_msg(req.request_id, peers=[1]))
        assert read_request() is None

    fake = FakeDaemon(tmp_path, script)

    async def main():
        c = await aio.connect(fake.path)
        subscribing = asyncio.ensure_future(c.subscribe("g"))
        assert await in_thread(got_subscribe.wait, 10)
        subscribing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await subscribing
        assert c.connected and c.pending_requests == 1  # still on the wire
        stats = asyncio.ensure_future(c.stats())
        await asyncio.sleep(0)  # stats is sent before the late answer arrives
        answer.set()
        assert (await stats).received.data.bytes == 1
        # Sent after the client's own unsubscribe, so answered after it.
        assert [p.node_id for p in await c.peers()] == [1]
        assert c.pending_requests == 0
        assert c.pending_deliveries == 0  # the orphaned subscription's delivery was dropped
        await c.close()

    run(main())
    fake.join()


def test_cancelled_after_its_answer_was_applied(tmp_path):
    """The answer is filed, then the caller is cancelled before it resumes:
    the subscription it opened is undone all the same."""

    def script(conn, read_request):
        req = read_request()
        send(conn, response_msg(req.request_id, subscribe_ack=8))
        req = read_request()
        assert req.WhichOneof("request") == "unsubscribe" and req.unsubscribe.subscription_id == 8
        send(conn, response_msg(req.request_id, ok=True))
        req = read_request()
        send(conn, response_msg(req.request_id, stats=2))
        assert read_request() is None

    fake = FakeDaemon(tmp_path, script)

    async def main():
        c = await aio.connect(fake.path)
        subscribing = asyncio.ensure_future(c.subscribe("g"))
        on_response = c._on_response

        def answer_then_cancel(response):
            on_response(response)  # completes the subscribe call's future
            subscribing.cancel()  # before its task has run again

        c._on_response = answer_then_cancel
        with pytest.raises(asyncio.CancelledError):
            await subscribing
        c._on_response = on_response
        assert not c._inbox.is_open(8)
        assert (await c.stats()).received.data.bytes == 2  # answered after the unsubscribe
        assert c.pending_requests == 0
        await c.close()

    run(main())
    fake.join()


def test_request_timeout_disconnects_and_wakes_readers(tmp_path):
    def script(conn, read_request):
        req = read_request()
        send(conn, response_msg(req.request_id, subscribe_ack=1))
        read_request()  # never answered
        assert read_request() is None  # the client gives up and closes

    fake = FakeDaemon(tmp_path, script)

    async def main():
        c = await aio.connect(fake.path, request_timeout=0.3)
        sub = await c.subscribe("g")
        reader = asyncio.ensure_future(c.next_delivery(subscription=sub))
        start = time.monotonic()
        with pytest.raises(DaemonConnectionError) as err:
            await c.stats()
        assert "timed out" in str(err.value)
        assert 0.25 <= time.monotonic() - start < 5
        with pytest.raises(DaemonConnectionError):
            await reader
        assert not c.connected

    run(main())
    fake.join()


def test_daemon_closing_mid_request(tmp_path):
    def script(conn, read_request):
        req = read_request()
        send(conn, response_msg(req.request_id, subscribe_ack=2))
        send(conn, delivery_msg(2, 1, b"before"))
        read_request()  # then goes away without answering

    fake = FakeDaemon(tmp_path, script)

    async def main():
        c = await aio.connect(fake.path)
        sub = await c.subscribe("g")
        with pytest.raises(DaemonConnectionError) as err:
            await c.publish("g", b"x")
        assert "closed the connection" in str(err.value)
        # What arrived before is still handed out, then the loss is raised.
        it = c.deliveries(sub)
        assert (await it.__anext__()).payload == b"before"
        with pytest.raises(DaemonConnectionError):
            await it.__anext__()
        with pytest.raises(DaemonConnectionError):  # not SubscriptionClosed: the connection ended it
            c.deliveries(sub)
        with pytest.raises(DaemonConnectionError):
            await c.next_delivery(0, subscription=sub)
        await c.close()

    run(main())
    fake.join()


def test_iteration_ends_after_unsubscribe_and_on_idle_timeout(tmp_path):
    def script(conn, read_request):
        req = read_request()
        send(conn, response_msg(req.request_id, subscribe_ack=3))
        send(conn, delivery_msg(3, 1, b"one"))
        send(conn, delivery_msg(3, 2, b"two"))
        req = read_request()
        assert req.WhichOneof("request") == "unsubscribe"
        send(conn, delivery_msg(3, 3, b"three"))  # still in flight when the daemon answers
        time.sleep(0.2)  # the collector has taken it and waits when the answer comes
        send(conn, response_msg(req.request_id, ok=True))
        assert read_request() is None

    fake = FakeDaemon(tmp_path, script)

    async def main():
        async with await aio.connect(fake.path) as c:
            sub = await c.subscribe("g")

            async def collect():
                return [d.payload async for d in c.deliveries(sub)]  # no timeout

            collecting = asyncio.ensure_future(collect())
            await c.unsubscribe(sub)
            assert await asyncio.wait_for(collecting, 5) == [b"one", b"two", b"three"]
            with pytest.raises(SubscriptionClosed):
                await c.next_delivery(0, subscription=sub)
            start = time.monotonic()
            assert [e async for e in c.events(timeout=0.3)] == []
            assert 0.25 <= time.monotonic() - start < 3

    run(main())
    fake.join()


def test_connecting_to_nothing_names_the_socket(tmp_path):
    path = str(tmp_path / "nobody.sock")

    async def main():
        with pytest.raises(DaemonConnectionError) as err:
            await aio.connect(path)
        assert isinstance(err.value, ConnectionError) and path in str(err.value)

    run(main())


# --- against real daemons ---------------------------------------------------------


def test_every_call_against_real_daemons(daemons):
    a, b = daemons

    async def main():
        async with await dissem_client.aio.connect(a.socket) as pub, await aio.connect(b.socket) as sub:
            s1 = await sub.subscribe("pytest/aio", reliable=True, ordered=False, history=0)
            s2 = await sub.subscribe("pytest/aio", reliable=False, ordered=True, history=3, use_publisher_history=True)
            assert s1 != s2
            payload = pattern(1 << 20)
            mid = await pub.publish("pytest/aio", payload, priority=2, expiry_s=0, history_window=4, tag="aio")
            assert isinstance(mid, MessageId) and mid.group == "pytest/aio" and mid.seq >= 1
            d = await sub.next_delivery(60.0, subscription=s1)
            assert d is not None, f"no delivery within 60 s; subscriber stats: {await sub.stats()}"
            assert (d.subscription, d.group, d.publisher, d.seq) == (s1, mid.group, mid.publisher, mid.seq)
            assert (d.priority, d.tag, d.history_window) == (2, "aio", 4)
            assert d.payload == payload
            await sub.unsubscribe(s1)
            with pytest.raises(RequestError) as err:
                await sub.unsubscribe(s1)
            assert err.value.code == ErrorCode.REJECTED
            await sub.request_history("pytest/aio", 5)
            with pytest.raises(RequestError):
                await pub.publish("", b"no group")
            s = await sub.stats()
            assert isinstance(s, Stats) and s.received.data.bytes >= len(payload) and s.deliveries >= 1
            ps = await pub.stats()
            assert ps.messages_published >= 1
            b_node = (await sub.publish("pytest/aio-whoami", b"x")).publisher
            deadline = time.monotonic() + 15
            while not any(p.node_id == b_node for p in await pub.peers()):
                assert time.monotonic() < deadline, "b never showed up in a's peers"
                await asyncio.sleep(0.1)
            assert all(isinstance(p, Peer) for p in await pub.peers())
            await sub.unsubscribe(s2)
            quiet = await sub.subscribe("pytest/aio-quiet", silent=True)
            await sub.unsubscribe(quiet)
            await sub.set_silent(True)
            assert (await sub.stats()).silent
            await sub.set_silent(False)
            assert not (await sub.stats()).silent

    run(main(), timeout=90)


def test_concurrent_requests_with_deliveries_interleaved(daemons):
    a, b = daemons
    n = 40

    async def main():
        async with await aio.connect(a.socket) as c, await aio.connect(b.socket) as remote:
            local_sub = await c.subscribe("pytest/aio-many")
            remote_sub = await remote.subscribe("pytest/aio-many")

            async def consume(client, sub):
                got = {}
                async for d in client.deliveries(sub, timeout=30):
                    got[d.seq] = d.payload
                    if len(got) == n:
                        break
                return got

            # The local subscriber's deliveries arrive on the same connection
            # as the answers to the requests below, interleaved with them.
            local = asyncio.ensure_future(consume(c, local_sub))
            far = asyncio.ensure_future(consume(remote, remote_sub))
            calls = []
            for i in range(n):
                calls.append(c.publish("pytest/aio-many", b"m%d" % i))
                calls.append(c.stats())
                if i % 4 == 0:
                    calls.append(c.peers())
                    calls.append(remote.stats())
            results = await asyncio.gather(*calls)
            ids = [r for r in results if isinstance(r, MessageId)]
            assert len(ids) == n
            seqs = [m.seq for m in ids]
            assert seqs == sorted(seqs) and len(set(seqs)) == n  # answered in the order asked
            assert all(isinstance(r, (MessageId, Stats, list)) for r in results)
            expected = {m.seq: b"m%d" % i for i, m in enumerate(ids)}
            assert await local == expected
            assert await far == expected
            assert c.pending_requests == 0 and remote.pending_requests == 0

    run(main(), timeout=90)


def test_cancelling_a_pending_async_for_loses_nothing(daemons):
    a, b = daemons

    async def main():
        async with await aio.connect(b.socket) as sub, await aio.connect(a.socket) as pub:
            s = await sub.subscribe("pytest/aio-cancel")
            entered = asyncio.Event()

            async def consume():
                entered.set()
                async for d in sub.deliveries(s):
                    return d
                return None

            waiting = asyncio.ensure_future(consume())
            await entered.wait()
            await asyncio.sleep(0.1)
            assert not waiting.done()
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            assert sub.connected and sub._waiters == set()  # nobody left waiting on the connection
            # The connection and the subscription carry on.
            mid = await pub.publish("pytest/aio-cancel", b"after the cancel")
            d = await sub.next_delivery(30, subscription=s)
            assert d is not None and d.seq == mid.seq and d.payload == b"after the cancel"
            # A timeout from outside (wait_for) is a cancellation too.
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(sub.deliveries(s).__anext__(), 0.2)
            assert isinstance(await sub.stats(), Stats)

    run(main())


def test_daemon_dying_mid_request(start_daemon):
    d = start_daemon("dying", same_port=False)

    async def main():
        c = await aio.connect(d.socket)
        sub = await c.subscribe("pytest/aio-dies")
        reading = asyncio.ensure_future(c.next_delivery(subscription=sub))
        d.pause()  # answers nothing from now on
        asking = asyncio.ensure_future(c.stats())
        await asyncio.sleep(0.3)
        assert not asking.done() and not reading.done()
        d.kill()
        for waiting in (asking, reading):
            with pytest.raises(DaemonConnectionError) as err:
                await asyncio.wait_for(waiting, 10)
            assert d.socket in str(err.value)
        assert not c.connected
        with pytest.raises(DaemonConnectionError):
            await c.publish("pytest/aio-dies", b"x")
        await c.close()

    run(main())


def test_events_of_a_peer_coming_and_going(daemons, start_daemon):
    a, _ = daemons

    async def main():
        with Client(a.socket) as blocking:
            async with await aio.connect(a.socket) as c:
                c_node = None
                newcomer = start_daemon("newcomer")
                with Client(newcomer.socket) as nc:
                    c_node = nc.publish("pytest/aio-hello", b"hi").publisher

                async def wait_event(kind):
                    async for e in c.events(timeout=20):
                        if e.kind == kind and e.peer == c_node:
                            return e
                    pytest.fail(f"no {kind.name} event for node {c_node} within 20 s")

                appeared = await wait_event(EventKind.PEER_APPEARED)
                newcomer.stop()
                silent = await wait_event(EventKind.PEER_SILENT)
                assert (appeared.peer, silent.peer) == (c_node, c_node)
            # The blocking client, connected all along, saw the same.
            kinds = [e.kind for e in blocking.events(timeout=0) if e.peer == c_node]
            assert kinds[:1] == [EventKind.PEER_APPEARED] and EventKind.PEER_SILENT in kinds

    run(main(), timeout=60)


def test_replace_cancel_get_list_and_filters(daemons):
    a, b = daemons

    async def main():
        async with await aio.connect(a.socket) as pub, await aio.connect(b.socket) as sub:
            only_alerts = await sub.subscribe("pytest/aio-qos", tags=["alert"], min_priority=3)
            old = await pub.publish("pytest/aio-qos", b"old", tag="alert", priority=3, lifetime_ms=60_000)
            d = await sub.next_delivery(30.0, subscription=only_alerts)
            assert d is not None and d.seq == old.seq and d.expiry_ms > 0
            await pub.publish("pytest/aio-qos", b"low", tag="alert", priority=1)  # filtered out
            new = await pub.publish("pytest/aio-qos", b"new", tag="alert", priority=3, replace=True)
            d = await sub.next_delivery(30.0, subscription=only_alerts)
            assert d is not None and d.seq == new.seq and d.replace
            assert await pub.get("pytest/aio-qos", old.publisher, old.seq) is None, "replaced"
            got = await pub.get("pytest/aio-qos", new.publisher, new.seq)
            assert got is not None and got.payload == b"new"
            gone = await pub.cancel("pytest/aio-qos", seqs=[new.seq])
            listed = await pub.list("pytest/aio-qos")
            assert [m.seq for m in listed.messages] == [gone.seq] and listed.messages[0].cancel

    run(main())


def test_a_full_send_queue_fails_at_once_or_waits(start_daemon):
    slow = start_daemon(
        "slow", same_port=False,
        extra=("--set", "engine.link_capacity_bps=40000", "--set", "engine.group_send_budget_ms=1000"),
    )

    async def main():
        async with await aio.connect(slow.socket) as c:
            with pytest.raises(RequestError) as err:
                for _ in range(40):
                    await c.publish("pytest/bulk", b"x" * 1000, wait=0)
            assert err.value.code == ErrorCode.QUEUE_FULL
            assert (await c.stats()).publish_queue_full >= 1
            for _ in range(5):  # waits for room instead
                await c.publish("pytest/bulk", b"y" * 1000, wait=30.0)

    run(main(), timeout=60.0)
