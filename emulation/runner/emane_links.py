"""dissem-emu's link model carried onto EMANE's comm effect shim: what the
EMANE engine (emulation/dissem-emane) runs and --export-emane writes.

The runner hands the EMANE engine the same options and EEL file it hands
dissem-emu. The commeffect shim realises, per (transmitter, receiver):
loss, latency, jitter, duplicates and a rate, applied at the receiver to the
packets of each source in turn (its end-of-reception time advances by each
packet's length at the rate, lost packets included, before the loss draw).
So:

- the links' own rates and effects go over as they are;
- a node's radio rate (`--radio-bps`, `--radio-bps-node`): a radio
  serialises everything its node sends, then each link applies loss. On the
  shim every receiver serialises that source's packets at the link's rate,
  lost ones included: the same timing when the radio is the slower stage.
  Each link from the node gets min(radio, link) (0 = unlimited);
- the radio's drop-tail queue (`--queue-packets`): the shim's
  `receivebufferperiod` drops a packet whose wait would exceed the period;
  the period is the queue's length in full-size frames at the slowest rate
  into that node (dissem-emu's default queue, 50 frames, when none is
  given: the shim's own default, 1 s, would drop differently);
- a shared channel, a half-duplex channel and Gilbert-Elliott burst loss
  have no comm effect equivalent: refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import eel

FULL_FRAME_BYTES = 1514   # an MTU-sized frame with its Ethernet header
DEFAULT_QUEUE_PACKETS = 50  # dissem-emu's default --queue-packets


class Unsupported(Exception):
    """An option the comm effect shim cannot express; names the option."""


@dataclass
class LinkOptions:
    nodes: int
    queue_packets: int = DEFAULT_QUEUE_PACKETS   # 0: unbounded
    radio_bps: float = 0.0
    radio_bps_node: dict[int, float] = field(default_factory=dict)
    default_disconnected: bool = False

    def radio_of(self, node: int) -> float:
        return self.radio_bps_node.get(node, self.radio_bps)


def _rate(radio: float, link: int) -> int:
    """The slower of the two stages; 0 means unlimited on both sides."""
    rates = [int(round(r)) for r in (radio, link) if r > 0]
    return min(rates) if rates else 0


def emane_events(events: list[eel.LinkEvent], opts: LinkOptions) -> list[eel.LinkEvent]:
    """The run's link events with the radio stage folded into each link.

    A node with a radio but no EEL entry towards a receiver (every link
    perfect by default) still serialises what it sends: such links get an
    entry at time 0 with the radio's rate alone."""
    out = []
    mentioned = {(e.sender, e.receiver) for e in events if e.time_s == 0}
    for ev in events:
        radio = opts.radio_of(ev.sender)
        p = ev.params
        out.append(replace(ev, params=replace(p, unicast_bps=_rate(radio, p.unicast_bps),
                                              broadcast_bps=_rate(radio, p.broadcast_bps))))
    if not opts.default_disconnected:
        for s in range(1, opts.nodes + 1):
            radio = int(round(opts.radio_of(s)))
            if radio <= 0:
                continue
            for r in range(1, opts.nodes + 1):
                if r != s and (s, r) not in mentioned:
                    out.append(eel.LinkEvent(0.0, s, r, eel.LinkParams(unicast_bps=radio, broadcast_bps=radio)))
    return sorted(out, key=lambda e: (e.time_s, e.sender, e.receiver))


def receive_buffer_periods(events: list[eel.LinkEvent], opts: LinkOptions) -> dict[int, float]:
    """Per receiving node, the shim's receivebufferperiod in seconds (0 = off)."""
    periods = {}
    for r in range(1, opts.nodes + 1):
        if opts.queue_packets == 0:
            periods[r] = 0.0   # unbounded (the shim's own default would be 1 s)
            continue
        rates = [min(x for x in (e.params.broadcast_bps, e.params.unicast_bps) if x > 0)
                 for e in events if e.receiver == r and max(e.params.broadcast_bps, e.params.unicast_bps) > 0]
        periods[r] = round(opts.queue_packets * FULL_FRAME_BYTES * 8 / min(rates), 6) if rates else 0.0
    return periods
