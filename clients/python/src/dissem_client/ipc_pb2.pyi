from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Acknowledge(_message.Message):
    __slots__ = ["group", "publisher", "seq", "subscription_id"]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    PUBLISHER_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    group: str
    publisher: int
    seq: int
    subscription_id: int
    def __init__(self, subscription_id: _Optional[int] = ..., group: _Optional[str] = ..., publisher: _Optional[int] = ..., seq: _Optional[int] = ...) -> None: ...

class CachedMessage(_message.Message):
    __slots__ = ["cancel", "complete", "expiry_ms", "group", "key_epoch", "priority", "publisher", "replace", "seq", "stored_bytes", "tag", "total_length"]
    CANCEL_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    EXPIRY_MS_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    KEY_EPOCH_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    PUBLISHER_FIELD_NUMBER: _ClassVar[int]
    REPLACE_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    STORED_BYTES_FIELD_NUMBER: _ClassVar[int]
    TAG_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LENGTH_FIELD_NUMBER: _ClassVar[int]
    cancel: bool
    complete: bool
    expiry_ms: int
    group: str
    key_epoch: int
    priority: int
    publisher: int
    replace: bool
    seq: int
    stored_bytes: int
    tag: str
    total_length: int
    def __init__(self, group: _Optional[str] = ..., publisher: _Optional[int] = ..., seq: _Optional[int] = ..., priority: _Optional[int] = ..., expiry_ms: _Optional[int] = ..., tag: _Optional[str] = ..., total_length: _Optional[int] = ..., stored_bytes: _Optional[int] = ..., complete: bool = ..., replace: bool = ..., cancel: bool = ..., key_epoch: _Optional[int] = ...) -> None: ...

class Cancel(_message.Message):
    __slots__ = ["expiry_ms", "group", "seqs", "tag"]
    EXPIRY_MS_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    SEQS_FIELD_NUMBER: _ClassVar[int]
    TAG_FIELD_NUMBER: _ClassVar[int]
    expiry_ms: int
    group: str
    seqs: _containers.RepeatedScalarFieldContainer[int]
    tag: str
    def __init__(self, group: _Optional[str] = ..., seqs: _Optional[_Iterable[int]] = ..., tag: _Optional[str] = ..., expiry_ms: _Optional[int] = ...) -> None: ...

class ClientMessage(_message.Message):
    __slots__ = ["acknowledge", "cancel", "delete_subscription", "get", "get_stats", "list", "list_peers", "publish", "reload", "request_history", "request_id", "set_silent", "subscribe", "unsubscribe", "watch_links"]
    ACKNOWLEDGE_FIELD_NUMBER: _ClassVar[int]
    CANCEL_FIELD_NUMBER: _ClassVar[int]
    DELETE_SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    GET_FIELD_NUMBER: _ClassVar[int]
    GET_STATS_FIELD_NUMBER: _ClassVar[int]
    LIST_FIELD_NUMBER: _ClassVar[int]
    LIST_PEERS_FIELD_NUMBER: _ClassVar[int]
    PUBLISH_FIELD_NUMBER: _ClassVar[int]
    RELOAD_FIELD_NUMBER: _ClassVar[int]
    REQUEST_HISTORY_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SET_SILENT_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBE_FIELD_NUMBER: _ClassVar[int]
    UNSUBSCRIBE_FIELD_NUMBER: _ClassVar[int]
    WATCH_LINKS_FIELD_NUMBER: _ClassVar[int]
    acknowledge: Acknowledge
    cancel: Cancel
    delete_subscription: DeleteSubscription
    get: Get
    get_stats: GetStats
    list: List
    list_peers: ListPeers
    publish: Publish
    reload: Reload
    request_history: RequestHistory
    request_id: int
    set_silent: SetSilent
    subscribe: Subscribe
    unsubscribe: Unsubscribe
    watch_links: WatchLinks
    def __init__(self, request_id: _Optional[int] = ..., publish: _Optional[_Union[Publish, _Mapping]] = ..., subscribe: _Optional[_Union[Subscribe, _Mapping]] = ..., unsubscribe: _Optional[_Union[Unsubscribe, _Mapping]] = ..., request_history: _Optional[_Union[RequestHistory, _Mapping]] = ..., get_stats: _Optional[_Union[GetStats, _Mapping]] = ..., list_peers: _Optional[_Union[ListPeers, _Mapping]] = ..., cancel: _Optional[_Union[Cancel, _Mapping]] = ..., get: _Optional[_Union[Get, _Mapping]] = ..., list: _Optional[_Union[List, _Mapping]] = ..., acknowledge: _Optional[_Union[Acknowledge, _Mapping]] = ..., delete_subscription: _Optional[_Union[DeleteSubscription, _Mapping]] = ..., watch_links: _Optional[_Union[WatchLinks, _Mapping]] = ..., set_silent: _Optional[_Union[SetSilent, _Mapping]] = ..., reload: _Optional[_Union[Reload, _Mapping]] = ...) -> None: ...

class CodingStats(_message.Message):
    __slots__ = ["blocks_decoded", "dropped_memory", "fragments_decoded", "generated", "ignored", "innovative", "parity_sent", "received", "recoded", "redundant"]
    BLOCKS_DECODED_FIELD_NUMBER: _ClassVar[int]
    DROPPED_MEMORY_FIELD_NUMBER: _ClassVar[int]
    FRAGMENTS_DECODED_FIELD_NUMBER: _ClassVar[int]
    GENERATED_FIELD_NUMBER: _ClassVar[int]
    IGNORED_FIELD_NUMBER: _ClassVar[int]
    INNOVATIVE_FIELD_NUMBER: _ClassVar[int]
    PARITY_SENT_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_FIELD_NUMBER: _ClassVar[int]
    RECODED_FIELD_NUMBER: _ClassVar[int]
    REDUNDANT_FIELD_NUMBER: _ClassVar[int]
    blocks_decoded: int
    dropped_memory: int
    fragments_decoded: int
    generated: int
    ignored: int
    innovative: int
    parity_sent: int
    received: int
    recoded: int
    redundant: int
    def __init__(self, received: _Optional[int] = ..., innovative: _Optional[int] = ..., redundant: _Optional[int] = ..., ignored: _Optional[int] = ..., dropped_memory: _Optional[int] = ..., blocks_decoded: _Optional[int] = ..., fragments_decoded: _Optional[int] = ..., generated: _Optional[int] = ..., recoded: _Optional[int] = ..., parity_sent: _Optional[int] = ...) -> None: ...

class DeleteSubscription(_message.Message):
    __slots__ = ["name"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class Delivery(_message.Message):
    __slots__ = ["expiry_ms", "expiry_s", "group", "history_window", "payload", "priority", "publisher", "replace", "seq", "subscription_id", "tag"]
    EXPIRY_MS_FIELD_NUMBER: _ClassVar[int]
    EXPIRY_S_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    HISTORY_WINDOW_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    PUBLISHER_FIELD_NUMBER: _ClassVar[int]
    REPLACE_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    TAG_FIELD_NUMBER: _ClassVar[int]
    expiry_ms: int
    expiry_s: int
    group: str
    history_window: int
    payload: bytes
    priority: int
    publisher: int
    replace: bool
    seq: int
    subscription_id: int
    tag: str
    def __init__(self, subscription_id: _Optional[int] = ..., group: _Optional[str] = ..., publisher: _Optional[int] = ..., seq: _Optional[int] = ..., priority: _Optional[int] = ..., expiry_s: _Optional[int] = ..., tag: _Optional[str] = ..., payload: _Optional[bytes] = ..., history_window: _Optional[int] = ..., expiry_ms: _Optional[int] = ..., replace: bool = ...) -> None: ...

class Error(_message.Message):
    __slots__ = ["code", "message"]
    class Code(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = []
    CODE_FIELD_NUMBER: _ClassVar[int]
    FAILED: Error.Code
    FRAME_TOO_LARGE: Error.Code
    MALFORMED_FRAME: Error.Code
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    QUEUE_FULL: Error.Code
    REJECTED: Error.Code
    UNKNOWN_REQUEST: Error.Code
    UNSPECIFIED: Error.Code
    code: Error.Code
    message: str
    def __init__(self, code: _Optional[_Union[Error.Code, str]] = ..., message: _Optional[str] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ["clock_offset_us", "detail", "group", "kind", "peer", "publisher", "seq"]
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = []
    CACHE_RESUMED: Event.Kind
    CACHE_WRITE_FAILED: Event.Kind
    CLOCK_OFFSET_US_FIELD_NUMBER: _ClassVar[int]
    CLOCK_SKEW: Event.Kind
    CLOCK_STEPPED: Event.Kind
    DATA_REFUSED_AS_ENDED: Event.Kind
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    ENDED_CLAIM_CONTESTED: Event.Kind
    FORGED_OWN_DATA: Event.Kind
    GROUP_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_EVICTED: Event.Kind
    MESSAGE_REJECTED: Event.Kind
    MESSAGE_SKIPPED: Event.Kind
    PEER_APPEARED: Event.Kind
    PEER_FIELD_NUMBER: _ClassVar[int]
    PEER_SILENT: Event.Kind
    PUBLISHER_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    UNSPECIFIED: Event.Kind
    clock_offset_us: int
    detail: str
    group: str
    kind: Event.Kind
    peer: int
    publisher: int
    seq: int
    def __init__(self, kind: _Optional[_Union[Event.Kind, str]] = ..., peer: _Optional[int] = ..., group: _Optional[str] = ..., publisher: _Optional[int] = ..., seq: _Optional[int] = ..., clock_offset_us: _Optional[int] = ..., detail: _Optional[str] = ...) -> None: ...

class Get(_message.Message):
    __slots__ = ["group", "publisher", "seq"]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    PUBLISHER_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    group: str
    publisher: int
    seq: int
    def __init__(self, group: _Optional[str] = ..., publisher: _Optional[int] = ..., seq: _Optional[int] = ...) -> None: ...

class GetStats(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class LinkEvent(_message.Message):
    __slots__ = ["kind", "peer"]
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = []
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOSS_ABOVE: LinkEvent.Kind
    LOSS_BELOW: LinkEvent.Kind
    PEER_APPEARED: LinkEvent.Kind
    PEER_FIELD_NUMBER: _ClassVar[int]
    PEER_SILENT: LinkEvent.Kind
    RATE_ABOVE: LinkEvent.Kind
    RATE_BELOW: LinkEvent.Kind
    UNSPECIFIED: LinkEvent.Kind
    kind: LinkEvent.Kind
    peer: Peer
    def __init__(self, kind: _Optional[_Union[LinkEvent.Kind, str]] = ..., peer: _Optional[_Union[Peer, _Mapping]] = ...) -> None: ...

class LinkThresholds(_message.Message):
    __slots__ = ["loss_hysteresis", "loss_threshold", "rate_hysteresis", "rate_threshold"]
    LOSS_HYSTERESIS_FIELD_NUMBER: _ClassVar[int]
    LOSS_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    RATE_HYSTERESIS_FIELD_NUMBER: _ClassVar[int]
    RATE_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    loss_hysteresis: float
    loss_threshold: float
    rate_hysteresis: float
    rate_threshold: float
    def __init__(self, loss_threshold: _Optional[float] = ..., loss_hysteresis: _Optional[float] = ..., rate_threshold: _Optional[float] = ..., rate_hysteresis: _Optional[float] = ...) -> None: ...

class List(_message.Message):
    __slots__ = ["from_seq", "group", "incomplete_only", "limit", "publisher", "to_seq"]
    FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    INCOMPLETE_ONLY_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PUBLISHER_FIELD_NUMBER: _ClassVar[int]
    TO_SEQ_FIELD_NUMBER: _ClassVar[int]
    from_seq: int
    group: str
    incomplete_only: bool
    limit: int
    publisher: int
    to_seq: int
    def __init__(self, group: _Optional[str] = ..., publisher: _Optional[int] = ..., from_seq: _Optional[int] = ..., to_seq: _Optional[int] = ..., limit: _Optional[int] = ..., incomplete_only: bool = ...) -> None: ...

class ListPeers(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class MessageList(_message.Message):
    __slots__ = ["messages", "truncated"]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[CachedMessage]
    truncated: bool
    def __init__(self, messages: _Optional[_Iterable[_Union[CachedMessage, _Mapping]]] = ..., truncated: bool = ...) -> None: ...

class Ok(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class Peer(_message.Message):
    __slots__ = ["clock_offset_us", "estimated_loss", "last_heard_ms_ago", "link", "loss_in", "loss_out", "node_id", "received_bytes_per_s", "sent_bytes_per_s", "srtt_ms"]
    CLOCK_OFFSET_US_FIELD_NUMBER: _ClassVar[int]
    ESTIMATED_LOSS_FIELD_NUMBER: _ClassVar[int]
    LAST_HEARD_MS_AGO_FIELD_NUMBER: _ClassVar[int]
    LINK_FIELD_NUMBER: _ClassVar[int]
    LOSS_IN_FIELD_NUMBER: _ClassVar[int]
    LOSS_OUT_FIELD_NUMBER: _ClassVar[int]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_BYTES_PER_S_FIELD_NUMBER: _ClassVar[int]
    SENT_BYTES_PER_S_FIELD_NUMBER: _ClassVar[int]
    SRTT_MS_FIELD_NUMBER: _ClassVar[int]
    clock_offset_us: int
    estimated_loss: float
    last_heard_ms_ago: int
    link: str
    loss_in: float
    loss_out: float
    node_id: int
    received_bytes_per_s: float
    sent_bytes_per_s: float
    srtt_ms: float
    def __init__(self, node_id: _Optional[int] = ..., last_heard_ms_ago: _Optional[int] = ..., estimated_loss: _Optional[float] = ..., srtt_ms: _Optional[float] = ..., loss_in: _Optional[float] = ..., loss_out: _Optional[float] = ..., received_bytes_per_s: _Optional[float] = ..., sent_bytes_per_s: _Optional[float] = ..., clock_offset_us: _Optional[int] = ..., link: _Optional[str] = ...) -> None: ...

class Peers(_message.Message):
    __slots__ = ["peers"]
    PEERS_FIELD_NUMBER: _ClassVar[int]
    peers: _containers.RepeatedCompositeFieldContainer[Peer]
    def __init__(self, peers: _Optional[_Iterable[_Union[Peer, _Mapping]]] = ...) -> None: ...

class Publish(_message.Message):
    __slots__ = ["expiry_ms", "expiry_s", "group", "history_window", "lifetime_ms", "payload", "priority", "replace", "tag"]
    EXPIRY_MS_FIELD_NUMBER: _ClassVar[int]
    EXPIRY_S_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    HISTORY_WINDOW_FIELD_NUMBER: _ClassVar[int]
    LIFETIME_MS_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    REPLACE_FIELD_NUMBER: _ClassVar[int]
    TAG_FIELD_NUMBER: _ClassVar[int]
    expiry_ms: int
    expiry_s: int
    group: str
    history_window: int
    lifetime_ms: int
    payload: bytes
    priority: int
    replace: bool
    tag: str
    def __init__(self, group: _Optional[str] = ..., payload: _Optional[bytes] = ..., priority: _Optional[int] = ..., expiry_s: _Optional[int] = ..., history_window: _Optional[int] = ..., tag: _Optional[str] = ..., expiry_ms: _Optional[int] = ..., lifetime_ms: _Optional[int] = ..., replace: bool = ...) -> None: ...

class PublishAck(_message.Message):
    __slots__ = ["group", "publisher", "seq"]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    PUBLISHER_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    group: str
    publisher: int
    seq: int
    def __init__(self, group: _Optional[str] = ..., publisher: _Optional[int] = ..., seq: _Optional[int] = ...) -> None: ...

class Reload(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class Reloaded(_message.Message):
    __slots__ = ["applied", "keys", "needs_restart"]
    APPLIED_FIELD_NUMBER: _ClassVar[int]
    KEYS_FIELD_NUMBER: _ClassVar[int]
    NEEDS_RESTART_FIELD_NUMBER: _ClassVar[int]
    applied: _containers.RepeatedScalarFieldContainer[str]
    keys: str
    needs_restart: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, applied: _Optional[_Iterable[str]] = ..., needs_restart: _Optional[_Iterable[str]] = ..., keys: _Optional[str] = ...) -> None: ...

class RequestHistory(_message.Message):
    __slots__ = ["count", "group"]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    count: int
    group: str
    def __init__(self, group: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class Response(_message.Message):
    __slots__ = ["error", "message", "messages", "ok", "peers", "publish_ack", "reloaded", "request_id", "stats", "subscribe_ack"]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    PEERS_FIELD_NUMBER: _ClassVar[int]
    PUBLISH_ACK_FIELD_NUMBER: _ClassVar[int]
    RELOADED_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBE_ACK_FIELD_NUMBER: _ClassVar[int]
    error: Error
    message: Delivery
    messages: MessageList
    ok: Ok
    peers: Peers
    publish_ack: PublishAck
    reloaded: Reloaded
    request_id: int
    stats: Stats
    subscribe_ack: SubscribeAck
    def __init__(self, request_id: _Optional[int] = ..., publish_ack: _Optional[_Union[PublishAck, _Mapping]] = ..., subscribe_ack: _Optional[_Union[SubscribeAck, _Mapping]] = ..., ok: _Optional[_Union[Ok, _Mapping]] = ..., stats: _Optional[_Union[Stats, _Mapping]] = ..., peers: _Optional[_Union[Peers, _Mapping]] = ..., error: _Optional[_Union[Error, _Mapping]] = ..., message: _Optional[_Union[Delivery, _Mapping]] = ..., messages: _Optional[_Union[MessageList, _Mapping]] = ..., reloaded: _Optional[_Union[Reloaded, _Mapping]] = ...) -> None: ...

class ServerMessage(_message.Message):
    __slots__ = ["delivery", "event", "link_event", "response"]
    DELIVERY_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    LINK_EVENT_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    delivery: Delivery
    event: Event
    link_event: LinkEvent
    response: Response
    def __init__(self, response: _Optional[_Union[Response, _Mapping]] = ..., delivery: _Optional[_Union[Delivery, _Mapping]] = ..., event: _Optional[_Union[Event, _Mapping]] = ..., link_event: _Optional[_Union[LinkEvent, _Mapping]] = ...) -> None: ...

class SetSilent(_message.Message):
    __slots__ = ["silent"]
    SILENT_FIELD_NUMBER: _ClassVar[int]
    silent: bool
    def __init__(self, silent: bool = ...) -> None: ...

class Stats(_message.Message):
    __slots__ = ["bundled_items", "bundles_received", "bundles_sent", "cache_bytes", "cache_messages", "cache_paused", "cache_write_failures", "carry_too_late", "clock_divergence_us", "clock_steps", "coding", "deliveries", "duplicate_fragments", "ended_claims_contradicted", "ended_claims_refused", "forwards_queued", "forwards_suppressed_ntm", "fragments_refused_ended", "fragments_unstored", "group_refs_changed", "hearsay_displaced", "hearsay_expired", "hearsay_refused", "integrity", "links", "malformed", "messages_carried", "messages_completed", "messages_evicted", "messages_expired", "messages_published", "messages_superseded", "mfr_items_sent", "mfr_rounds_gated", "mfrs_received", "mfrs_sent", "own_datagrams_ignored", "own_ended_claims_contested", "own_seq_skipped", "peak_rss_bytes", "peers_refused", "publish_queue_full", "pushes_queued", "pushes_sent", "pushes_suppressed_ntm", "queue_drops", "rate_decreases", "received", "relays_avoided", "repairs_queued", "repairs_suppressed_ntm", "request_bytes_trimmed", "requests_ignored_silent", "requests_trimmed", "rss_bytes", "sent", "signatures_checked", "signatures_vouched", "silent", "summaries_received", "summaries_sent", "supersession_refused"]
    class IntegrityEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class LinksEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Stats
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Stats, _Mapping]] = ...) -> None: ...
    class MalformedEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    BUNDLED_ITEMS_FIELD_NUMBER: _ClassVar[int]
    BUNDLES_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    BUNDLES_SENT_FIELD_NUMBER: _ClassVar[int]
    CACHE_BYTES_FIELD_NUMBER: _ClassVar[int]
    CACHE_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    CACHE_PAUSED_FIELD_NUMBER: _ClassVar[int]
    CACHE_WRITE_FAILURES_FIELD_NUMBER: _ClassVar[int]
    CARRY_TOO_LATE_FIELD_NUMBER: _ClassVar[int]
    CLOCK_DIVERGENCE_US_FIELD_NUMBER: _ClassVar[int]
    CLOCK_STEPS_FIELD_NUMBER: _ClassVar[int]
    CODING_FIELD_NUMBER: _ClassVar[int]
    DELIVERIES_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FRAGMENTS_FIELD_NUMBER: _ClassVar[int]
    ENDED_CLAIMS_CONTRADICTED_FIELD_NUMBER: _ClassVar[int]
    ENDED_CLAIMS_REFUSED_FIELD_NUMBER: _ClassVar[int]
    FORWARDS_QUEUED_FIELD_NUMBER: _ClassVar[int]
    FORWARDS_SUPPRESSED_NTM_FIELD_NUMBER: _ClassVar[int]
    FRAGMENTS_REFUSED_ENDED_FIELD_NUMBER: _ClassVar[int]
    FRAGMENTS_UNSTORED_FIELD_NUMBER: _ClassVar[int]
    GROUP_REFS_CHANGED_FIELD_NUMBER: _ClassVar[int]
    HEARSAY_DISPLACED_FIELD_NUMBER: _ClassVar[int]
    HEARSAY_EXPIRED_FIELD_NUMBER: _ClassVar[int]
    HEARSAY_REFUSED_FIELD_NUMBER: _ClassVar[int]
    INTEGRITY_FIELD_NUMBER: _ClassVar[int]
    LINKS_FIELD_NUMBER: _ClassVar[int]
    MALFORMED_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_CARRIED_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_EVICTED_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_EXPIRED_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_PUBLISHED_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_SUPERSEDED_FIELD_NUMBER: _ClassVar[int]
    MFRS_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    MFRS_SENT_FIELD_NUMBER: _ClassVar[int]
    MFR_ITEMS_SENT_FIELD_NUMBER: _ClassVar[int]
    MFR_ROUNDS_GATED_FIELD_NUMBER: _ClassVar[int]
    OWN_DATAGRAMS_IGNORED_FIELD_NUMBER: _ClassVar[int]
    OWN_ENDED_CLAIMS_CONTESTED_FIELD_NUMBER: _ClassVar[int]
    OWN_SEQ_SKIPPED_FIELD_NUMBER: _ClassVar[int]
    PEAK_RSS_BYTES_FIELD_NUMBER: _ClassVar[int]
    PEERS_REFUSED_FIELD_NUMBER: _ClassVar[int]
    PUBLISH_QUEUE_FULL_FIELD_NUMBER: _ClassVar[int]
    PUSHES_QUEUED_FIELD_NUMBER: _ClassVar[int]
    PUSHES_SENT_FIELD_NUMBER: _ClassVar[int]
    PUSHES_SUPPRESSED_NTM_FIELD_NUMBER: _ClassVar[int]
    QUEUE_DROPS_FIELD_NUMBER: _ClassVar[int]
    RATE_DECREASES_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_FIELD_NUMBER: _ClassVar[int]
    RELAYS_AVOIDED_FIELD_NUMBER: _ClassVar[int]
    REPAIRS_QUEUED_FIELD_NUMBER: _ClassVar[int]
    REPAIRS_SUPPRESSED_NTM_FIELD_NUMBER: _ClassVar[int]
    REQUESTS_IGNORED_SILENT_FIELD_NUMBER: _ClassVar[int]
    REQUESTS_TRIMMED_FIELD_NUMBER: _ClassVar[int]
    REQUEST_BYTES_TRIMMED_FIELD_NUMBER: _ClassVar[int]
    RSS_BYTES_FIELD_NUMBER: _ClassVar[int]
    SENT_FIELD_NUMBER: _ClassVar[int]
    SIGNATURES_CHECKED_FIELD_NUMBER: _ClassVar[int]
    SIGNATURES_VOUCHED_FIELD_NUMBER: _ClassVar[int]
    SILENT_FIELD_NUMBER: _ClassVar[int]
    SUMMARIES_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    SUMMARIES_SENT_FIELD_NUMBER: _ClassVar[int]
    SUPERSESSION_REFUSED_FIELD_NUMBER: _ClassVar[int]
    bundled_items: int
    bundles_received: int
    bundles_sent: int
    cache_bytes: int
    cache_messages: int
    cache_paused: bool
    cache_write_failures: int
    carry_too_late: int
    clock_divergence_us: int
    clock_steps: int
    coding: CodingStats
    deliveries: int
    duplicate_fragments: int
    ended_claims_contradicted: int
    ended_claims_refused: int
    forwards_queued: int
    forwards_suppressed_ntm: int
    fragments_refused_ended: int
    fragments_unstored: int
    group_refs_changed: int
    hearsay_displaced: int
    hearsay_expired: int
    hearsay_refused: int
    integrity: _containers.ScalarMap[str, int]
    links: _containers.MessageMap[str, Stats]
    malformed: _containers.ScalarMap[str, int]
    messages_carried: int
    messages_completed: int
    messages_evicted: int
    messages_expired: int
    messages_published: int
    messages_superseded: int
    mfr_items_sent: int
    mfr_rounds_gated: int
    mfrs_received: int
    mfrs_sent: int
    own_datagrams_ignored: int
    own_ended_claims_contested: int
    own_seq_skipped: int
    peak_rss_bytes: int
    peers_refused: int
    publish_queue_full: int
    pushes_queued: int
    pushes_sent: int
    pushes_suppressed_ntm: int
    queue_drops: int
    rate_decreases: int
    received: TrafficByKind
    relays_avoided: int
    repairs_queued: int
    repairs_suppressed_ntm: int
    request_bytes_trimmed: int
    requests_ignored_silent: int
    requests_trimmed: int
    rss_bytes: int
    sent: TrafficByKind
    signatures_checked: int
    signatures_vouched: int
    silent: bool
    summaries_received: int
    summaries_sent: int
    supersession_refused: int
    def __init__(self, sent: _Optional[_Union[TrafficByKind, _Mapping]] = ..., received: _Optional[_Union[TrafficByKind, _Mapping]] = ..., malformed: _Optional[_Mapping[str, int]] = ..., own_datagrams_ignored: _Optional[int] = ..., messages_published: _Optional[int] = ..., messages_completed: _Optional[int] = ..., deliveries: _Optional[int] = ..., duplicate_fragments: _Optional[int] = ..., mfrs_sent: _Optional[int] = ..., mfr_items_sent: _Optional[int] = ..., mfr_rounds_gated: _Optional[int] = ..., mfrs_received: _Optional[int] = ..., repairs_queued: _Optional[int] = ..., repairs_suppressed_ntm: _Optional[int] = ..., queue_drops: _Optional[int] = ..., messages_evicted: _Optional[int] = ..., messages_expired: _Optional[int] = ..., cache_bytes: _Optional[int] = ..., cache_messages: _Optional[int] = ..., forwards_queued: _Optional[int] = ..., forwards_suppressed_ntm: _Optional[int] = ..., summaries_sent: _Optional[int] = ..., summaries_received: _Optional[int] = ..., pushes_queued: _Optional[int] = ..., pushes_sent: _Optional[int] = ..., pushes_suppressed_ntm: _Optional[int] = ..., coding: _Optional[_Union[CodingStats, _Mapping]] = ..., integrity: _Optional[_Mapping[str, int]] = ..., hearsay_expired: _Optional[int] = ..., hearsay_displaced: _Optional[int] = ..., hearsay_refused: _Optional[int] = ..., peers_refused: _Optional[int] = ..., requests_trimmed: _Optional[int] = ..., request_bytes_trimmed: _Optional[int] = ..., rss_bytes: _Optional[int] = ..., peak_rss_bytes: _Optional[int] = ..., signatures_checked: _Optional[int] = ..., signatures_vouched: _Optional[int] = ..., messages_superseded: _Optional[int] = ..., supersession_refused: _Optional[int] = ..., bundles_sent: _Optional[int] = ..., bundled_items: _Optional[int] = ..., bundles_received: _Optional[int] = ..., group_refs_changed: _Optional[int] = ..., publish_queue_full: _Optional[int] = ..., rate_decreases: _Optional[int] = ..., relays_avoided: _Optional[int] = ..., ended_claims_refused: _Optional[int] = ..., ended_claims_contradicted: _Optional[int] = ..., fragments_refused_ended: _Optional[int] = ..., own_ended_claims_contested: _Optional[int] = ..., own_seq_skipped: _Optional[int] = ..., silent: bool = ..., requests_ignored_silent: _Optional[int] = ..., cache_write_failures: _Optional[int] = ..., fragments_unstored: _Optional[int] = ..., cache_paused: bool = ..., clock_steps: _Optional[int] = ..., clock_divergence_us: _Optional[int] = ..., messages_carried: _Optional[int] = ..., carry_too_late: _Optional[int] = ..., links: _Optional[_Mapping[str, Stats]] = ...) -> None: ...

class Subscribe(_message.Message):
    __slots__ = ["group", "history", "min_priority", "name", "ordered", "reliable", "silent", "tags", "use_publisher_history"]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    MIN_PRIORITY_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ORDERED_FIELD_NUMBER: _ClassVar[int]
    RELIABLE_FIELD_NUMBER: _ClassVar[int]
    SILENT_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    USE_PUBLISHER_HISTORY_FIELD_NUMBER: _ClassVar[int]
    group: str
    history: int
    min_priority: int
    name: str
    ordered: bool
    reliable: bool
    silent: bool
    tags: _containers.RepeatedScalarFieldContainer[str]
    use_publisher_history: bool
    def __init__(self, group: _Optional[str] = ..., reliable: bool = ..., ordered: bool = ..., history: _Optional[int] = ..., use_publisher_history: bool = ..., min_priority: _Optional[int] = ..., tags: _Optional[_Iterable[str]] = ..., name: _Optional[str] = ..., silent: bool = ...) -> None: ...

class SubscribeAck(_message.Message):
    __slots__ = ["subscription_id"]
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    subscription_id: int
    def __init__(self, subscription_id: _Optional[int] = ...) -> None: ...

class TrafficByKind(_message.Message):
    __slots__ = ["beacon", "data", "forward", "mfr", "repair", "summary"]
    BEACON_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    FORWARD_FIELD_NUMBER: _ClassVar[int]
    MFR_FIELD_NUMBER: _ClassVar[int]
    REPAIR_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    beacon: TrafficCounter
    data: TrafficCounter
    forward: TrafficCounter
    mfr: TrafficCounter
    repair: TrafficCounter
    summary: TrafficCounter
    def __init__(self, data: _Optional[_Union[TrafficCounter, _Mapping]] = ..., repair: _Optional[_Union[TrafficCounter, _Mapping]] = ..., mfr: _Optional[_Union[TrafficCounter, _Mapping]] = ..., beacon: _Optional[_Union[TrafficCounter, _Mapping]] = ..., forward: _Optional[_Union[TrafficCounter, _Mapping]] = ..., summary: _Optional[_Union[TrafficCounter, _Mapping]] = ...) -> None: ...

class TrafficCounter(_message.Message):
    __slots__ = ["bytes", "datagrams"]
    BYTES_FIELD_NUMBER: _ClassVar[int]
    DATAGRAMS_FIELD_NUMBER: _ClassVar[int]
    bytes: int
    datagrams: int
    def __init__(self, datagrams: _Optional[int] = ..., bytes: _Optional[int] = ...) -> None: ...

class Unsubscribe(_message.Message):
    __slots__ = ["subscription_id"]
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    subscription_id: int
    def __init__(self, subscription_id: _Optional[int] = ...) -> None: ...

class WatchLinks(_message.Message):
    __slots__ = ["stop", "thresholds"]
    STOP_FIELD_NUMBER: _ClassVar[int]
    THRESHOLDS_FIELD_NUMBER: _ClassVar[int]
    stop: bool
    thresholds: LinkThresholds
    def __init__(self, stop: bool = ..., thresholds: _Optional[_Union[LinkThresholds, _Mapping]] = ...) -> None: ...
