"""What one run measured, read from its result.json (see emulation/README.md
for that schema): the same figures for our system and for NORM, so the two
can stand side by side.

Definitions (the paper's, as far as it states them):
  delivery time   per subscriber, completion of the last message minus the
                  publisher's enqueue time of the first (both stamped on the
                  one host clock the namespaces share); averaged over
                  subscribers.
  bytes on air    IP bytes every node put on the emulated medium: the
                  emulator's per-node frame bytes minus 14 bytes of Ethernet
                  header per frame (data, repairs, control, ARP alike).
  received        messages completely received, mean over subscribers.
  sender overhead (sender's IP bytes - payload bytes sent) / messages sent.
  p2p overhead    IP bytes of every other node / messages sent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean

ETHERNET_HEADER = 14


@dataclass
class RunMetrics:
    scenario: str
    cell: dict
    system: str
    seed: int
    status: str
    complete: bool  # every subscriber got every message it expected (whatever the run status)
    messages_sent: int = 0
    payload_bytes_sent: int = 0
    received_mean: float = 0.0
    delivery_time_s: float | None = None
    bytes_on_air: int = 0
    sender_bytes: int = 0
    others_bytes: int = 0
    radio_dropped: int = 0  # frames the nodes handed over that their own radio queue dropped (never on the air)
    latencies_s: list[float] = field(default_factory=list)
    wall_s: float = 0.0
    time_limit_s: float | None = None
    subscribers: int = 0
    publisher_result_missing: bool = False
    engine: str = "dissem-emu"   # what emulated the links: "dissem-emu" or "EMANE <version>"

    @property
    def success_pct(self) -> float:
        return 100.0 * self.received_mean / self.messages_sent if self.messages_sent else 0.0

    @property
    def sender_overhead_per_msg(self) -> float:
        if not self.messages_sent:
            return 0.0
        return (self.sender_bytes - self.payload_bytes_sent) / self.messages_sent

    @property
    def p2p_overhead_per_msg(self) -> float:
        return self.others_bytes / self.messages_sent if self.messages_sent else 0.0


def _results_by_role(result: dict) -> dict[str, list[tuple[int, dict | None, int | None]]]:
    """role -> [(node id, its command's JSON result, exit code)]."""
    out: dict[str, list] = {}
    for node in result.get("nodes", []):
        for proc in node.get("processes", []):
            if proc.get("kind") == "command":
                out.setdefault(proc["role"], []).append((node["id"], proc.get("result"), proc.get("exit_code")))
    return out


def _sent(sender: dict) -> tuple[int, int, float]:
    """(messages, payload bytes, start unix time) from dissem-load, or from a
    baseline that writes dissem-norm's members (NORM, OpenPGM, JGroups)."""
    if "objects_enqueued" in sender:
        return int(sender.get("objects_enqueued", 0)), int(sender.get("bytes_enqueued", 0)), sender.get("start_unix", 0.0)
    return int(sender.get("messages_published", 0)), int(sender.get("bytes_published", 0)), sender.get("start_unix", 0.0)


def _received(sub: dict) -> tuple[int, int, list[dict]]:
    """(messages complete, expected or 0, per-message records)."""
    if "objects_completed" in sub:
        return int(sub.get("objects_completed", 0)), int(sub.get("expect", 0)), sub.get("messages", [])
    return int(sub.get("messages_completed", 0)), int(sub.get("expected", 0)), sub.get("messages", [])


def _node_ip_bytes(stats: dict) -> dict[int, int]:
    out = {}
    for node in (stats or {}).get("nodes", []):
        out[int(node["id"])] = int(node.get("bytes_sent", 0)) - ETHERNET_HEADER * int(node.get("frames_sent", 0))
    return out


def _planned(subscribers) -> tuple[int, int]:
    for _, res, _ in subscribers:
        if isinstance(res, dict):
            _, expected, records = _received(res)
            sizes = [int(r["bytes"]) for r in records if "bytes" in r]
            if expected and sizes:
                return expected, expected * max(sizes)
    return 0, 0


def engine_of(result: dict) -> str:
    """The engine a run used, as a page names it (runs from before the
    engine field were dissem-emu's)."""
    if (result.get("engine") or "dissem-emu") == "dissem-emu":
        return "dissem-emu"
    ready = (result.get("emulator") or {}).get("ready") or {}
    version = str(ready.get("engine_version") or "").replace("emane", "").strip()
    model = ", RF Pipe" if ready.get("model") == "rfpipe" else ""
    return f"EMANE {version}".strip() + model


def engine_line(runs) -> str:
    """The line under each page's heading that names the engine(s) of its runs."""
    names = sorted({r.engine for r in runs})
    what = {"dissem-emu": "dissem-emu (this project's emulator, emulation/emu)"}
    text = ", ".join(what.get(n, f"{n} (" + ("radios on one frequency" if n.endswith("RF Pipe") else
                                               "comm effect shim") + ", one emane per node)") for n in names)
    return f"Engine: {text}.\n\n"


def metrics_of(result: dict, publisher_role: str = "publisher", subscriber_role: str = "subscriber") -> RunMetrics:
    roles = _results_by_role(result)
    m = RunMetrics(scenario=result["scenario"], cell=dict(result.get("cell") or {}), system=result["system"],
                   seed=int(result["seed"]), status=result["status"], complete=False,
                   wall_s=float(result.get("wall_s") or 0.0), time_limit_s=result.get("time_limit_s"))
    publishers = [r for r in roles.get(publisher_role, []) if isinstance(r[1], dict)]
    m.publisher_result_missing = bool(roles.get(publisher_role)) and not publishers
    subscribers = roles.get(subscriber_role, [])
    m.subscribers = len(subscribers)
    start_unix = None
    sender_ids = {node_id for node_id, _, _ in roles.get(publisher_role, [])}
    for _, res, _ in publishers:
        n, b, t0 = _sent(res)
        m.messages_sent += n
        m.payload_bytes_sent += b
        start_unix = t0 if start_unix is None else min(start_unix, t0)
    complete = bool(subscribers) and bool(publishers)
    if not publishers:
        # The publisher printed no result (killed before it could): count what
        # it was told to send, from the subscribers' expectations.
        m.messages_sent, m.payload_bytes_sent = _planned(subscribers)
    received, times = [], []
    for _, res, _ in subscribers:
        if not isinstance(res, dict):
            complete = False
            received.append(0)
            continue
        got, expected, records = _received(res)
        received.append(got)
        complete = complete and got >= (expected or m.messages_sent) > 0
        m.latencies_s.extend(float(r["latency_s"]) for r in records if "latency_s" in r)
        finished = [float(r["completed_unix"]) for r in records if "completed_unix" in r]
        if finished and start_unix:
            times.append(max(finished) - start_unix)
    # Judged by what the subscribers received, not by the run's status: a NORM
    # sender whose last acknowledgement round went unanswered (receivers
    # already gone) exits non-zero although every receiver has everything.
    m.complete = complete
    m.received_mean = mean(received) if received else 0.0
    m.delivery_time_s = mean(times) if times and len(times) == len(subscribers) else None
    m.engine = engine_of(result)
    stats = (result.get("emulator") or {}).get("stats") or {}
    m.radio_dropped = sum(int(n.get("radio_queue_dropped", 0)) for n in stats.get("nodes", []))
    per_node = _node_ip_bytes(stats)
    m.bytes_on_air = sum(per_node.values())
    m.sender_bytes = sum(v for k, v in per_node.items() if k in sender_ids)
    m.others_bytes = m.bytes_on_air - m.sender_bytes
    return m


def load_runs(results_dir: Path) -> list[RunMetrics]:
    """Every result.json under `results_dir`, in a stable order."""
    runs = []
    for path in sorted(results_dir.rglob("result.json")):
        with open(path) as f:
            runs.append(metrics_of(json.load(f)))
    return runs
