"""Link quality between proto/ipc.proto and the values: peers' figures,
link events and thresholds (no I/O, no dependency on the clients)."""

from __future__ import annotations

from typing import Optional

from . import ipc_pb2 as pb
from .values import LinkEvent, LinkEventKind, LinkThresholds, Peer, known_kind


def peer_from_proto(m: pb.Peer) -> Peer:
    return Peer(
        node_id=m.node_id,
        last_heard_ms_ago=m.last_heard_ms_ago,
        estimated_loss=m.estimated_loss,
        srtt_ms=m.srtt_ms,
        loss_in=m.loss_in if m.HasField("loss_in") else None,
        loss_out=m.loss_out if m.HasField("loss_out") else None,
        received_bytes_per_s=m.received_bytes_per_s,
        sent_bytes_per_s=m.sent_bytes_per_s,
        clock_offset_ms=m.clock_offset_us / 1000.0 if m.HasField("clock_offset_us") else None,
        link=m.link,
    )


def link_event_from_proto(m: pb.LinkEvent) -> Optional[LinkEvent]:
    kind = known_kind(LinkEventKind, m.kind)
    if kind is None:
        return None
    return LinkEvent(kind=kind, peer=peer_from_proto(m.peer))


def thresholds_to_proto(t: LinkThresholds, out: pb.LinkThresholds) -> None:
    out.loss_threshold = t.loss_threshold
    out.loss_hysteresis = t.loss_hysteresis
    out.rate_threshold = t.rate_threshold
    out.rate_hysteresis = t.rate_hysteresis
