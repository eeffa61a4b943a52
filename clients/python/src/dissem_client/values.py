"""The values both clients hand out: what proto/ipc.proto's responses and
pushed messages carry, as frozen dataclasses and enums."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Dict, List, Optional, Tuple, Type, TypeVar


@dataclasses.dataclass(frozen=True)
class MessageId:
    group: str
    publisher: int
    seq: int


@dataclasses.dataclass(frozen=True)
class CachedMessage:
    """A message held (whole or in part) in the daemon's cache, without its payload."""

    group: str
    publisher: int
    seq: int
    priority: int
    expiry_ms: int  # absolute Unix milliseconds, 0 = never
    tag: str
    total_length: int  # bytes on the air (sealed groups: with the seal)
    stored_bytes: int  # of which held
    complete: bool
    replace: bool  # it superseded older messages with its tag
    cancel: bool  # a cancel message: nothing to deliver
    key_epoch: int = 0  # keyed groups: the epoch of the key that signed it; 0 in open groups

    @property
    def id(self) -> MessageId:
        return MessageId(self.group, self.publisher, self.seq)


@dataclasses.dataclass(frozen=True)
class MessageList:
    messages: Tuple[CachedMessage, ...]
    truncated: bool  # more matched than the limit


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
    expiry_ms: int = 0  # absolute Unix milliseconds, 0 = never (expiry_s: rounded up to seconds)
    replace: bool = False  # it superseded the publisher's older messages with its tag

    @property
    def id(self) -> MessageId:
        return MessageId(self.group, self.publisher, self.seq)


K = TypeVar("K", bound=enum.IntEnum)


def known_kind(kind: Type[K], value: int) -> Optional[K]:
    """The wire's `value` as a `kind` (EventKind, LinkEventKind); None for a
    kind newer than this library, or unspecified: nothing to hand out."""
    try:
        return kind(value)
    except ValueError:
        return None


class EventKind(enum.IntEnum):
    """Mirrors ipc.Event.Kind (UNSPECIFIED is never handed out)."""

    PEER_APPEARED = 1
    PEER_SILENT = 2
    MESSAGE_SKIPPED = 3  # ordered delivery gave up waiting for it
    MESSAGE_EVICTED = 4  # removed from the cache
    MESSAGE_REJECTED = 5  # its data failed the integrity check: dropped, fetched again
    FORGED_OWN_DATA = 6  # data under this node's id that it never published
    ENDED_CLAIM_CONTESTED = 7  # `peer` claimed our own stream ended where it has not
    DATA_REFUSED_AS_ENDED = 8  # data refused because `peer` claimed its stream ended
    CLOCK_SKEW = 9  # `peer`'s clock differs from ours past engine.max_clock_skew_ms (clock_offset_ms)
    CACHE_WRITE_FAILED = 10  # the cache refused a write (detail): the node takes no data until it can
    CACHE_RESUMED = 11  # the cache writes again
    CLOCK_STEPPED = 12  # the host's system clock stepped (detail; clock_offset_ms: the step)


@dataclasses.dataclass(frozen=True)
class Event:
    kind: EventKind
    peer: int = 0  # PEER_APPEARED, PEER_SILENT
    group: str = ""  # MESSAGE_SKIPPED, MESSAGE_EVICTED, MESSAGE_REJECTED, FORGED_OWN_DATA
    publisher: int = 0
    seq: int = 0
    clock_offset_ms: float = 0.0  # CLOCK_SKEW: the peer's clock minus ours; CLOCK_STEPPED: the step
    detail: str = ""  # CACHE_WRITE_FAILED: the cache's error; CLOCK_STEPPED: what the node did


@dataclasses.dataclass(frozen=True)
class Peer:
    """A neighbour and its link (ipc.Peer)."""

    node_id: int
    last_heard_ms_ago: int
    estimated_loss: float  # fraction in [0, 1]: its beacons missed since it was first heard
    srtt_ms: float  # smoothed round-trip time from beacon echoes
    # Loss fractions in [0, 1], None until measured: what we miss of the
    # peer (recent evidence weighing most), and what it reports missing of us.
    loss_in: Optional[float] = None
    loss_out: Optional[float] = None
    # Bytes/s over engine.link_rate_window_ms: received from the peer (the
    # frames naming their sender: not repairs), and sent by this node
    # (broadcast: the same figure for every peer).
    received_bytes_per_s: float = 0.0
    sent_bytes_per_s: float = 0.0
    # The peer's clock minus ours (ms), from beacon echoes; None until measured.
    clock_offset_ms: Optional[float] = None
    # The daemon's link of its own it was heard on (the interface); "" the main link.
    link: str = ""


class LinkEventKind(enum.IntEnum):
    """Mirrors ipc.LinkEvent.Kind (UNSPECIFIED is never handed out)."""

    PEER_APPEARED = 1
    PEER_SILENT = 2
    LOSS_ABOVE = 3  # loss (the worse direction) rose above the loss threshold
    LOSS_BELOW = 4  # ... and fell back under threshold - hysteresis
    RATE_ABOVE = 5  # received rate rose above the rate threshold
    RATE_BELOW = 6  # ... and fell back under threshold x (1 - hysteresis)


@dataclasses.dataclass(frozen=True)
class LinkEvent:
    """A neighbour's link changed (watch_links): the kind and its figures then."""

    kind: LinkEventKind
    peer: Peer


@dataclasses.dataclass(frozen=True)
class LinkThresholds:
    """When link events fire; the defaults are the engine's."""

    loss_threshold: float = 0.2  # [0, 1]
    loss_hysteresis: float = 0.05  # [0, 1], absolute
    rate_threshold: float = 0.0  # bytes/s received from a peer; 0 = no rate events
    rate_hysteresis: float = 0.2  # [0, 0.95], a fraction of rate_threshold


@dataclasses.dataclass(frozen=True)
class Reloaded:
    """What a reload took: the changed keys now in effect, the changed keys
    that keep their running value until a restart, and the keys held now."""

    applied: List[str]
    needs_restart: List[str]
    keys: str


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
    # A daemon's links of their own, by interface: each link's node, as the
    # other fields are the main link's.
    links: Dict[str, "Stats"] = dataclasses.field(default_factory=dict)
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
    messages_superseded: int = 0  # held here and dropped: a replacement or a cancel ended them
    messages_carried: int = 0  # a gateway's messages carried into this network from another one
    carry_too_late: int = 0  # ... and not carried: they would expire before this link sent them
    publish_queue_full: int = 0  # publications refused (QUEUE_FULL): a send budget was full
    rate_decreases: int = 0  # a standing queue toward a neighbour lowered the pace (rate adaptation)
    relays_avoided: int = 0  # a named next hop relayed nothing and was no longer named (subscriber-tree)
    silent: bool = False  # the node is in radio silence (EMCON): it sends nothing
    requests_ignored_silent: int = 0  # others' requests heard and left unanswered in radio silence (EMCON)
    ended_claims_refused: int = 0  # another node's "ended" claim past the publisher's own word
    ended_claims_contradicted: int = 0  # claims followed, then taken back: the publisher contradicted them
    fragments_refused_ended: int = 0  # fragments refused because such a claim stands
    own_ended_claims_contested: int = 0  # claims that our own stream ended, contested
    own_seq_skipped: int = 0  # our counter moved past numbers forged under our id
    supersession_refused: int = 0  # replace-by-tag rules refused (too many tags in a stream)
    bundles_sent: int = 0  # datagrams that carried several frames (bundling)
    bundled_items: int = 0  # ... the frames they carried
    bundles_received: int = 0
    cache_bytes: int = 0
    rss_bytes: int = 0  # the daemon's resident memory
    peak_rss_bytes: int = 0  # ... at its peak
    cache_messages: int = 0
    cache_paused: bool = False  # the cache cannot write (a full disk): the node takes no data
    cache_write_failures: int = 0  # writes the cache refused
    fragments_unstored: int = 0  # fragments dropped because the cache could not write
    clock_steps: int = 0  # steps of the host's system clock seen
    clock_divergence_us: int = 0  # system clock minus the node's wall time, still being slewed away
    forwards_queued: int = 0
    forwards_suppressed_ntm: int = 0
    summaries_sent: int = 0
    summaries_received: int = 0
    pushes_queued: int = 0
    pushes_sent: int = 0
    pushes_suppressed_ntm: int = 0

    def as_dict(self) -> Dict[str, Any]:
        return dataclasses.asdict(self)
