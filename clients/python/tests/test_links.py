"""Link monitoring in both clients: the peers' link figures, and link events
for connections that watch them (watch_links / link_events)."""

import asyncio

import pytest

from dissem_client import (
    Client,
    ErrorCode,
    LinkEvent,
    LinkEventKind,
    LinkThresholds,
    Peer,
    RequestError,
    aio,
)
from dissem_client import ipc_pb2 as pb
from support import FakeDaemon, send, wait_for


def link_event_msg(kind, node, loss_in=None):
    m = pb.ServerMessage()
    m.link_event.kind = kind
    m.link_event.peer.node_id = node
    m.link_event.peer.received_bytes_per_s = 1500.0
    if loss_in is not None:
        m.link_event.peer.loss_in = loss_in
    return m


def test_watch_links_sends_thresholds_and_files_link_events_apart(tmp_path):
    seen = {}

    def script(conn, read_request):
        req = read_request()
        seen["watch"] = req.watch_links
        ok = pb.ServerMessage()
        ok.response.request_id = req.request_id
        ok.response.ok.SetInParent()
        send(conn, ok)
        send(conn, link_event_msg(pb.LinkEvent.LOSS_ABOVE, 21, loss_in=0.25))
        send(conn, link_event_msg(99, 22))  # a kind newer than the client: ignored
        send(conn, link_event_msg(pb.LinkEvent.PEER_SILENT, 23))
        req = read_request()
        r = pb.ServerMessage()
        r.response.request_id = req.request_id
        p = r.response.peers.peers.add()
        p.node_id, p.last_heard_ms_ago, p.srtt_ms = 21, 40, 2.5
        p.loss_out, p.received_bytes_per_s, p.sent_bytes_per_s = 0.125, 300.0, 900.0
        send(conn, r)
        req = read_request()
        seen["stop"] = req.watch_links.stop
        ok = pb.ServerMessage()
        ok.response.request_id = req.request_id
        ok.response.ok.SetInParent()
        send(conn, ok)

    fake = FakeDaemon(str(tmp_path), script)
    with Client(fake.path) as c:
        c.watch_links(LinkThresholds(loss_threshold=0.3, rate_threshold=1000.0))
        e = c.next_link_event(timeout=5)
        assert e == LinkEvent(
            LinkEventKind.LOSS_ABOVE, Peer(21, 0, 0.0, 0.0, loss_in=0.25, loss_out=None, received_bytes_per_s=1500.0)
        )
        [p] = c.peers()
        assert p.loss_in is None and p.loss_out == 0.125
        assert (p.received_bytes_per_s, p.sent_bytes_per_s, p.srtt_ms) == (300.0, 900.0, 2.5)
        assert [x.kind for x in c.link_events(timeout=0.05)] == [LinkEventKind.PEER_SILENT]
        assert c.next_event(timeout=0) is None, "link events are not plain events"
        c.unwatch_links()
    fake.join()
    w = seen["watch"]
    assert w.HasField("thresholds") and not w.stop
    assert (w.thresholds.loss_threshold, w.thresholds.rate_threshold) == (0.3, 1000.0)
    assert (w.thresholds.loss_hysteresis, w.thresholds.rate_hysteresis) == (0.05, 0.2)
    assert seen["stop"] is True


def test_a_real_daemon_reports_its_neighbour_and_refuses_bad_thresholds(daemons):
    a, b = daemons
    with Client(a.socket) as ca, Client(b.socket) as cb, Client(a.socket) as bystander:
        b_node = cb.publish("pytest/links", b"x").publisher
        ca.watch_links()
        appeared = None
        for e in ca.link_events(timeout=15.0):
            if e.kind == LinkEventKind.PEER_APPEARED and e.peer.node_id == b_node:
                appeared = e
                break
        assert appeared is not None, "no PEER_APPEARED for the other daemon"
        assert appeared.peer.srtt_ms >= 0.0
        # Loss both ways becomes known from beacons (about 8 s of them).
        peer = wait_for(
            lambda: [p for p in ca.peers() if p.node_id == b_node and p.loss_in is not None and p.loss_out is not None],
            30,
            "loss both ways",
        )[0]
        assert 0.0 <= peer.loss_in <= 0.2 and 0.0 <= peer.loss_out <= 0.2
        assert peer.received_bytes_per_s > 0 and peer.sent_bytes_per_s > 0
        with pytest.raises(RequestError) as err:
            ca.watch_links(LinkThresholds(rate_hysteresis=3.0))
        assert err.value.code == ErrorCode.REJECTED and "rate_hysteresis" in str(err.value)
        assert bystander.next_link_event(timeout=0.2) is None


def test_asyncio_client_watches_links(daemons):
    a, b = daemons

    async def scenario():
        async with await aio.connect(a.socket) as ca, await aio.connect(b.socket) as cb:
            b_node = (await cb.publish("pytest/links-aio", b"y")).publisher
            await ca.watch_links(LinkThresholds(loss_threshold=0.5))
            kinds = []
            async for e in ca.link_events(timeout=15.0):
                kinds.append(e.kind)
                if e.peer.node_id == b_node:
                    break
            assert kinds[-1] == LinkEventKind.PEER_APPEARED
            assert any(p.node_id == b_node for p in await ca.peers())
            await ca.unwatch_links()

    asyncio.run(asyncio.wait_for(scenario(), 40.0))
