"""Tests of the Python dissemd client.

The first part needs no daemon: framing, and the blocking client against a
scripted fake server on a Unix socket (deterministic interleaving of pushes
and responses). The second part runs against the two real dissemd processes
of conftest.py (support.py says where the binary comes from). The asyncio
client's tests are in test_aio.py.
"""

import filecmp
import shutil
import socket
import subprocess
import time

import pytest

from dissem_client import (
    Client,
    DaemonConnectionError,
    Delivery,
    ErrorCode,
    EventKind,
    MessageId,
    RequestError,
    Stats,
    SubscriptionClosed,
)
from dissem_client import framing
from dissem_client import ipc_pb2 as pb
from support import (
    REPO_ROOT,
    FakeDaemon,
    delivery_msg,
    event_msg,
    pattern,
    response_msg,
    send,
    wait_for,
)


# --- framing -------------------------------------------------------------------


def test_frames_survive_any_split():
    a, b = socket.socketpair()
    try:
        bodies = [b"", b"x", bytes(range(256)) * 1000, b"tail"]
        stream = b"".join(framing.encode_frame(x) for x in bodies)
        reader = framing.FrameReader(b)
        got = []
        # Dribble the stream in odd-sized pieces, reading with short deadlines.
        pos = 0
        while len(got) < len(bodies):
            if pos < len(stream):
                n = min(7777, len(stream) - pos)
                a.sendall(stream[pos : pos + n])
                pos += n
            body = reader.read(time.monotonic() + 0.05)
            while body is not None:
                got.append(body)
                body = reader.read(time.monotonic())
        assert got == bodies
        assert reader.read(time.monotonic() + 0.01) is None  # timeout, nothing lost
        a.close()
        with pytest.raises(framing.StreamClosed):
            reader.read(time.monotonic() + 1)
    finally:
        a.close()
        b.close()


def test_oversized_frame_header_is_refused_before_the_body():
    a, b = socket.socketpair()
    try:
        a.sendall(framing.HEADER.pack(framing.MAX_FRAME_BYTES + 1))
        with pytest.raises(framing.FrameTooLarge):
            framing.FrameReader(b).read(time.monotonic() + 1)
    finally:
        a.close()
        b.close()


def test_generated_code_is_current(tmp_path):
    if shutil.which("protoc") is None:
        pytest.skip("protoc not installed")
    subprocess.run(["bash", str(REPO_ROOT / "clients/python/generate.sh"), str(tmp_path)], check=True, timeout=60)
    for name in ("ipc_pb2.py", "ipc_pb2.pyi"):
        committed = REPO_ROOT / "clients/python/src/dissem_client" / name
        assert filecmp.cmp(tmp_path / name, committed, shallow=False), f"{name} is stale: run clients/python/generate.sh"


# --- against a scripted fake daemon ----------------------------------------------


def test_stats_of_links_of_their_own_and_peers_on_them_are_read():
    """A gateway daemon's links of their own: their figures under Stats.links, and each peer's link."""
    from dissem_client.links import peer_from_proto
    from dissem_client.protocol import stats_from_proto

    m = pb.Stats()
    m.messages_carried = 2
    m.links["hf0"].messages_carried = 7
    m.links["hf0"].carry_too_late = 1
    m.links["hf0"].sent.data.bytes = 5000
    stats = stats_from_proto(m)
    assert stats.messages_carried == 2
    assert list(stats.links) == ["hf0"]
    assert stats.links["hf0"].messages_carried == 7
    assert stats.links["hf0"].carry_too_late == 1
    assert stats.links["hf0"].sent.data.bytes == 5000
    assert stats.links["hf0"].links == {}
    peer = pb.Peer(node_id=5, link="hf0")
    assert peer_from_proto(peer).link == "hf0"
    assert peer_from_proto(pb.Peer(node_id=6)).link == ""


def test_pushes_while_waiting_for_a_response_are_queued(tmp_path):
    seen_ids = []

    def script(conn, read_request):
        req = read_request()
        seen_ids.append(req.request_id)
        assert req.WhichOneof("request") == "subscribe" and req.subscribe.group == "g"
        r = pb.ServerMessage()
        r.response.request_id = req.request_id
        r.response.subscribe_ack.subscription_id = 3
        send(conn, r)

        req = read_request()
        seen_ids.append(req.request_id)
        assert req.WhichOneof("request") == "get_stats"
        # Pushes interleaved before the response.
        send(conn, delivery_msg(3, 1, b"one"))
        ev = pb.ServerMessage()
        ev.event.kind, ev.event.peer = pb.Event.PEER_APPEARED, 9
        send(conn, ev)
        unknown = pb.ServerMessage()
        unknown.event.kind = 99  # a kind newer than the client: ignored
        send(conn, unknown)
        send(conn, delivery_msg(3, 2, b"two"))
        r = pb.ServerMessage()
        r.response.request_id = req.request_id
        r.response.stats.received.data.bytes = 1234
        r.response.stats.malformed["empty"] = 2
        send(conn, r)

        req = read_request()
        seen_ids.append(req.request_id)
        r = pb.ServerMessage()
        r.response.request_id = req.request_id
        r.response.error.code = pb.Error.REJECTED
        r.response.error.message = "no such subscription"
        send(conn, r)

        req = read_request()
        seen_ids.append(req.request_id)
        r = pb.ServerMessage()
        r.response.request_id = 0
        r.response.error.code = pb.Error.MALFORMED_FRAME
        r.response.error.message = "bad frame"
        send(conn, r)

    fake = FakeDaemon(str(tmp_path), script)
    with Client(fake.path) as c:
        assert c.subscribe("g") == 3
        s = c.stats()
        assert isinstance(s, Stats)
        assert s.received.data.bytes == 1234 and s.malformed == {"empty": 2}
        assert c.pending_deliveries == 2 and c.pending_events == 1
        d1 = c.next_delivery(timeout=0)
        assert d1 == Delivery(3, "g", 7, 1, 0, 0, "t", b"one")
        assert c.next_delivery(timeout=0).payload == b"two"
        assert c.next_delivery(timeout=0) is None
        e = c.next_event(timeout=0)
        assert e.kind == EventKind.PEER_APPEARED and e.peer == 9
        assert c.next_event(timeout=0.05) is None
        with pytest.raises(RequestError) as err:
            c.unsubscribe(42)
        assert err.value.code == ErrorCode.REJECTED and "no such subscription" in err.value.message
        assert c.connected
        with pytest.raises(DaemonConnectionError) as cerr:
            c.peers()
        assert "bad frame" in str(cerr.value) and fake.path in str(cerr.value)
        assert not c.connected
        with pytest.raises(DaemonConnectionError):
            c.next_delivery(timeout=0)
    fake.join()
    assert seen_ids == [1, 2, 3, 4]


def test_connecting_to_nothing_names_the_socket(tmp_path):
    path = str(tmp_path / "nobody.sock")
    with pytest.raises(DaemonConnectionError) as err:
        Client(path)
    assert isinstance(err.value, ConnectionError)
    assert path in str(err.value)
    c = Client()
    with pytest.raises(DaemonConnectionError):
        c.stats()


def test_iterators_route_per_subscription_and_end_on_timeout(tmp_path):
    def script(conn, read_request):
        for sub in (3, 4):
            req = read_request()
            assert req.WhichOneof("request") == "subscribe"
            send(conn, response_msg(req.request_id, subscribe_ack=sub))
        # Two subscriptions' deliveries and events, interleaved.
        send(conn, delivery_msg(3, 1, b"a1"))
        send(conn, delivery_msg(4, 1, b"b1"))
        send(conn, event_msg(pb.Event.PEER_APPEARED, 9))
        send(conn, delivery_msg(3, 2, b"a2"))
        send(conn, delivery_msg(4, 2, b"b2"))
        send(conn, event_msg(pb.Event.PEER_SILENT, 9))
        send(conn, delivery_msg(3, 3, b"a3"))
        req = read_request()
        assert req.WhichOneof("request") == "unsubscribe" and req.unsubscribe.subscription_id == 3
        send(conn, response_msg(req.request_id, ok=True))
        assert read_request() is None  # the client closes

    fake = FakeDaemon(tmp_path, script)
    with Client(fake.path) as c:
        assert (c.subscribe("g"), c.subscribe("h")) == (3, 4)
        with pytest.raises(SubscriptionClosed):
            c.deliveries(99)  # raised at once, not at the first next()

        # Subscription 4 only: subscription 3's deliveries stay queued.
        got = []
        for d in c.deliveries(4, timeout=5.0):
            got.append(d.payload)
            if len(got) == 2:
                break
        assert got == [b"b1", b"b2"]
        wait_for(lambda: c.next_delivery(0, subscription=4) is None and c.pending_deliveries == 3, 5, "a1..a3 read")

        # The idle timeout ends the iteration, and waits about that long.
        start = time.monotonic()
        assert list(c.deliveries(4, timeout=0.3)) == []
        assert 0.25 <= time.monotonic() - start < 3.0

        # Events, oldest first; the iteration ends on the idle timeout.
        assert [(e.kind, e.peer) for e in c.events(timeout=0.2)] == [
            (EventKind.PEER_APPEARED, 9),
            (EventKind.PEER_SILENT, 9),
        ]

        # After unsubscribing, what was queued is still handed out; then the iteration ends.
        c.unsubscribe(3)
        start = time.monotonic()
        assert [d.payload for d in c.deliveries(3)] == [b"a1", b"a2", b"a3"]  # no timeout: ends by itself
        assert time.monotonic() - start < 1.0
        with pytest.raises(SubscriptionClosed):
            c.next_delivery(0, subscription=3)
        with pytest.raises(SubscriptionClosed):
            c.deliveries(3)
    fake.join()


def test_any_subscription_iterator_hands_out_the_oldest_first(tmp_path):
    def script(conn, read_request):
        for sub in (3, 4):
            req = read_request()
            send(conn, response_msg(req.request_id, subscribe_ack=sub))
        for sub, seq in ((4, 1), (3, 1), (4, 2), (3, 2)):
            send(conn, delivery_msg(sub, seq, b"%d/%d" % (sub, seq)))
        req = read_request()
        send(conn, response_msg(req.request_id, stats=1))  # everything above is read by now
        assert read_request() is None

    fake = FakeDaemon(tmp_path, script)
    with Client(fake.path) as c:
        c.subscribe("g")
        c.subscribe("h")
        c.stats()
        assert c.pending_deliveries == 4
        assert c.next_delivery(0, subscription=3).payload == b"3/1"
        assert [d.payload for d in c.deliveries(timeout=0)] == [b"4/1", b"4/2", b"3/2"]
    fake.join()


def test_iterator_raises_when_the_daemon_goes(tmp_path):
    def script(conn, read_request):
        req = read_request()
        send(conn, response_msg(req.request_id, subscribe_ack=5))
        send(conn, delivery_msg(5, 1, b"last"))
        # then the daemon goes away

    fake = FakeDaemon(tmp_path, script)
    with Client(fake.path) as c:
        sub = c.subscribe("g")
        it = c.deliveries(sub, timeout=10.0)
        assert next(it).payload == b"last"  # what arrived before is handed out first
        with pytest.raises(DaemonConnectionError) as err:
            next(it)
        assert "closed the connection" in str(err.value)
        assert not c.connected
        with pytest.raises(DaemonConnectionError):  # not SubscriptionClosed: the connection ended it
            c.deliveries(sub)
        with pytest.raises(DaemonConnectionError):
            c.next_delivery(0, subscription=sub)
    fake.join()


# --- against real daemons ---------------------------------------------------------


def test_one_megabyte_arrives_byte_identical(daemons):
    a, b = daemons
    payload = pattern(1 << 20)
    with Client(a.socket) as pub, Client(b.socket) as sub:
        sub_id = sub.subscribe("pytest/big", reliable=True)
        mid = pub.publish("pytest/big", payload, priority=1, tag="one-mb")
        assert isinstance(mid, MessageId) and mid.group == "pytest/big" and mid.seq >= 1

        d = sub.next_delivery(timeout=60.0)
        assert d is not None, f"no delivery within 60 s; subscriber stats: {sub.stats()}"
        assert d.subscription == sub_id
        assert (d.group, d.publisher, d.seq) == (mid.group, mid.publisher, mid.seq)
        assert d.tag == "one-mb" and d.priority == 1
        assert len(d.payload) == len(payload) and d.payload == payload

        s = sub.stats()
        assert s.received.data.bytes >= len(payload), s
        assert s.received.data.datagrams > 0
        assert s.messages_completed >= 1 and s.deliveries >= 1
        assert s.cache_messages >= 1 and s.cache_bytes >= len(payload)
        ps = pub.stats()
        assert ps.messages_published >= 1 and ps.sent.data.bytes >= len(payload)
        assert ps.as_dict()["sent"]["data"]["bytes"] == ps.sent.data.bytes


def test_several_deliveries_queue_while_requests_wait(daemons):
    a, b = daemons
    with Client(a.socket) as pub, Client(b.socket) as sub:
        sub.subscribe("pytest/many")
        ids = [pub.publish("pytest/many", f"m{i}".encode()) for i in range(5)]
        # Only requests here: every delivery pushed meanwhile must be queued.
        def queued():
            if sub.pending_deliveries >= 5:
                return True
            sub.stats()  # reads (and queues) whatever the daemon pushed before answering
            return False

        wait_for(queued, 30, "5 queued deliveries")
        got = [sub.next_delivery(timeout=0) for _ in range(5)]
        assert sorted((d.publisher, d.seq) for d in got) == sorted((m.publisher, m.seq) for m in ids)
        assert sorted(d.payload for d in got) == [f"m{i}".encode() for i in range(5)]
        assert sub.next_delivery(timeout=0) is None


def test_invalid_publish_raises_and_connection_stays_usable(daemons):
    a, _ = daemons
    with Client(a.socket) as c:
        with pytest.raises(RequestError) as err:
            c.publish("", b"payload")
        assert err.value.code == ErrorCode.REJECTED
        assert err.value.message
        assert c.connected
        assert isinstance(c.stats(), Stats)
        mid = c.publish("pytest/after-error", b"fine")
        assert mid.group == "pytest/after-error"


def test_subscription_lifecycle_and_history(daemons):
    a, _ = daemons
    with Client(a.socket) as c:
        s1 = c.subscribe("pytest/life", reliable=False, ordered=True, history=3)
        s2 = c.subscribe("pytest/life", use_publisher_history=True)
        assert s1 != s2
        c.unsubscribe(s1)
        with pytest.raises(RequestError):
            c.unsubscribe(s1)
        c.request_history("pytest/life", 5)
        c.unsubscribe(s2)
        assert c.connected


def test_peers_see_each_other(daemons):
    a, b = daemons
    with Client(a.socket) as ca, Client(b.socket) as cb:
        b_node = cb.publish("pytest/whoami", b"x").publisher
        a_node = ca.publish("pytest/whoami", b"x").publisher
        assert a_node != b_node
        peers = wait_for(lambda: [p for p in ca.peers() if p.node_id == b_node], 15, f"node {b_node} in peers")
        p = peers[0]
        assert 0.0 <= p.estimated_loss <= 1.0 and p.last_heard_ms_ago >= 0 and p.srtt_ms >= 0.0


def test_iterating_deliveries_from_another_daemon(daemons):
    a, b = daemons
    with Client(a.socket) as pub, Client(b.socket) as sub:
        sub_id = sub.subscribe("pytest/iter")
        other = sub.subscribe("pytest/iter-other")
        sent = {pub.publish("pytest/iter", b"i%d" % i).seq: b"i%d" % i for i in range(8)}
        pub.publish("pytest/iter-other", b"not this one")
        got = {}
        for d in sub.deliveries(sub_id, timeout=30.0):
            assert d.subscription == sub_id and d.group == "pytest/iter"
            got[d.seq] = d.payload
            if len(got) == len(sent):
                break
        assert got == sent
        # Nothing more comes: the iteration ends after its idle timeout.
        start = time.monotonic()
        assert list(sub.deliveries(sub_id, timeout=0.5)) == []
        assert time.monotonic() - start < 5.0
        # The other subscription's delivery was kept for it.
        d = sub.next_delivery(30.0, subscription=other)
        assert d is not None and d.payload == b"not this one"


def test_replace_cancel_and_lifetime_reach_the_other_daemon(daemons):
    a, b = daemons
    with Client(a.socket) as pub, Client(b.socket) as sub:
        sub_id = sub.subscribe("pytest/replace")
        first = pub.publish("pytest/replace", b"old position", tag="unit-7", lifetime_ms=600_000)
        d = sub.next_delivery(timeout=30.0)
        assert d is not None and d.seq == first.seq and d.tag == "unit-7"
        assert d.expiry_ms > 0 and d.expiry_s == (d.expiry_ms + 999) // 1000
        assert not d.replace
        newer = pub.publish("pytest/replace", b"new position", tag="unit-7", replace=True)
        d = sub.next_delivery(timeout=30.0)
        assert d is not None and d.seq == newer.seq and d.replace and d.payload == b"new position"
        # The subscriber's daemon dropped the replaced message from its cache.
        wait_for(lambda: sub.stats().messages_superseded >= 1, 15, "the replaced message dropped at the subscriber")
        assert pub.stats().messages_superseded >= 1
        with pytest.raises(RequestError):
            pub.publish("pytest/replace", b"x", replace=True)  # replace needs a tag
        gone = pub.cancel("pytest/replace", seqs=[newer.seq])
        assert gone.seq == newer.seq + 1 and gone.publisher == newer.publisher
        wait_for(lambda: sub.stats().messages_superseded >= 2, 15, "the cancelled message dropped at the subscriber")
        assert sub.next_delivery(timeout=0.5, subscription=sub_id) is None, "a cancel delivers nothing"
        with pytest.raises(RequestError):
            pub.cancel("pytest/replace")  # names nothing


def test_get_list_and_subscription_filters(daemons):
    a, b = daemons
    with Client(a.socket) as pub, Client(b.socket) as sub:
        alerts = sub.subscribe("pytest/filters", tags=["alert"])
        urgent = sub.subscribe("pytest/filters", min_priority=5)
        everything = sub.subscribe("pytest/filters")
        ids = [
            pub.publish("pytest/filters", b"track 1", tag="track", priority=1),
            pub.publish("pytest/filters", b"alert 1", tag="alert", priority=7),
            pub.publish("pytest/filters", b"track 2", tag="track", priority=6),
        ]
        got = {s: [] for s in (alerts, urgent, everything)}
        for d in sub.deliveries(timeout=3.0):
            got[d.subscription].append(d.payload)
            if sum(len(v) for v in got.values()) == 6:
                break
        assert got[alerts] == [b"alert 1"]
        assert sorted(got[urgent]) == [b"alert 1", b"track 2"]
        assert sorted(got[everything]) == [b"alert 1", b"track 1", b"track 2"]

        held = sub.get("pytest/filters", ids[1].publisher, ids[1].seq)
        assert held is not None and held.payload == b"alert 1" and held.subscription == 0 and held.tag == "alert"
        assert sub.get("pytest/filters", ids[1].publisher, 999) is None
        listed = sub.list("pytest/filters", publisher=ids[0].publisher)
        assert [m.seq for m in listed.messages] == [i.seq for i in ids] and not listed.truncated
        assert listed.messages[1].priority == 7 and listed.messages[1].tag == "alert" and listed.messages[1].complete
        cut = sub.list("pytest/filters", from_seq=ids[1].seq, limit=1)
        assert [m.seq for m in cut.messages] == [ids[1].seq] and cut.truncated
        # Every group (""), and only what is still being received: all of it arrived.
        every = sub.list("", publisher=ids[0].publisher)
        assert {m.seq for m in every.messages if m.group == "pytest/filters"} == {i.seq for i in ids}
        assert sub.list("", incomplete_only=True).messages == ()


def test_durable_subscription_resumes_after_the_client_goes(daemons):
    a, b = daemons
    with Client(a.socket) as pub:
        with Client(b.socket) as sub:
            sid = sub.subscribe("pytest/durable", name="pytest-worker")
            first = pub.publish("pytest/durable", b"first")
            d = sub.next_delivery(timeout=30.0, subscription=sid)
            assert d is not None and d.id == first
            sub.acknowledge(sid, d)
        # Published while no client holds the subscription: kept for it.
        second = pub.publish("pytest/durable", b"second")
        with Client(b.socket) as probe:
            wait_for(lambda: any(m.seq == second.seq for m in probe.list("pytest/durable").messages), 30,
                     "the second message cached for the detached subscription")
        with Client(b.socket) as sub:
            sid2 = sub.subscribe("pytest/durable", name="pytest-worker")
            assert sid2 == sid
            d = sub.next_delivery(timeout=30.0, subscription=sid2)
            assert d is not None and d.id == second, "resumed after what was acknowledged"
            sub.acknowledge(sid2, d.id)
            assert sub.next_delivery(timeout=0.5, subscription=sid2) is None
            with pytest.raises(RequestError):
                sub.subscribe("pytest/other-group", name="pytest-worker")
            assert sub.delete_subscription("pytest-worker")
            assert not sub.delete_subscription("pytest-worker")


def test_radio_silence_sends_nothing_yet_delivers_and_ends_on_request(start_daemon, daemons):
    a, _ = daemons
    quiet = start_daemon("quiet")

    def sent(s):
        return sum(getattr(s.sent, k).datagrams for k in ("data", "repair", "mfr", "beacon", "forward", "summary"))

    with Client(quiet.socket) as q, Client(a.socket) as pub:
        q.subscribe("pytest/emcon")
        q.set_silent(True)
        silent = q.stats()
        assert silent.silent
        mid = pub.publish("pytest/emcon", pattern(100_000))
        d = q.next_delivery(timeout=30.0)
        assert d is not None and (d.publisher, d.seq) == (mid.publisher, mid.seq) and d.payload == pattern(100_000)
        time.sleep(2.5)  # beacons would have gone meanwhile (1 s period on loopback)
        assert sent(q.stats()) == sent(silent), "a silent daemon sent datagrams"
        q.set_silent(False)
        wait_for(lambda: sent(q.stats()) > sent(silent), 10, "a beacon once silence ended")
        assert not q.stats().silent
