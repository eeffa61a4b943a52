"""Multi-hop and disruption experiments (issue: controllers): a line, a
grid, a partition that heals, a late joiner. Every cell and system gets the
delivery ratio, per-message latency, transmissions per delivered message
and, where the cell names `heal_at_s` or `join_at_s`, the time from that
event to the last delivery; plus two plots (delivery and transmissions per
cell and system, latency ECDF per system)."""

from __future__ import annotations

import json
from pathlib import Path
from statistics import mean

from . import plots
from .air_bytes import run_sent_bytes
from .markdown import fmt, table

# Traffic kinds that carry message data (the daemons' own counters): first
# pass, rebroadcasts, and repairs (pushes count as repairs).
DATA_KINDS = ("data", "forward", "repair")
# The system the others' frames are compared with, when a cell has it.
REFERENCE_SYSTEM = "flooding"

# Cell parameters naming the moment a disruption ends (seconds after the
# emulator's ready line); the report times full delivery from it.
EVENT_KEYS = ("heal_at_s", "join_at_s")


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_figures(result: dict) -> dict:
    """Delivered/expected over receivers (subscribers and latecomers),
    latencies, frames on the air. A latecomer's history was published long
    before it joined, so its publish-to-delivery latency says nothing about
    the network: it counts in deliveries and the time after the join only."""
    expected = delivered = duplicates = 0
    latencies, completions = [], []
    for node in result.get("nodes", []):
        res = node.get("result")
        roles = node.get("roles", [])
        if "subscriber" not in roles and "latecomer" not in roles:
            continue
        if not isinstance(res, dict):
            expected += 1  # a subscriber that printed nothing delivered nothing
            continue
        expected += int(res.get("expected", 0))
        delivered += int(res.get("messages_completed", 0))
        duplicates += int(res.get("duplicates", 0))
        if "subscriber" in roles:
            latencies += [float(m["latency_s"]) for m in res.get("messages", [])]
        completions += [float(m["completed_unix"]) for m in res.get("messages", [])]
    stats = (result.get("emulator") or {}).get("stats") or {}
    frames = sum(int(n.get("frames_sent", 0)) for n in stats.get("nodes", []))
    data_frames = sum(data_datagrams(node.get("collected") or {}) for node in result.get("nodes", []))
    cell = result.get("cell") or {}
    event = next((cell[k] for k in EVENT_KEYS if k in cell), None)
    ready = (result.get("emulator") or {}).get("ready_unix")
    after_event = None
    if event is not None and ready and completions and delivered == expected:
        after_event = max(completions) - (ready + float(event))
    return {"expected": expected, "delivered": delivered, "duplicates": duplicates, "latencies": latencies,
            "frames": frames, "data_frames": data_frames, "after_event_s": after_event, "history_air": history_air(result)}


def data_datagrams(collected: dict) -> int:
    """Datagrams carrying message data a daemon sent (`dissem stats --json`)."""
    traffic = collected.get("traffic") or {}
    return sum(int(((traffic.get(k) or {}).get("sent") or {}).get("datagrams", 0)) for k in DATA_KINDS)


def _ratio(value: float | None, reference: float | None) -> float | None:
    return value / reference if value is not None and reference else None


def history_air(result: dict) -> tuple[int, int] | None:
    """(bytes every node sent from the join on, beacons apart; history bytes
    the latecomers completed), from the captures; None without captures or
    a latecomer."""
    cell = result.get("cell") or {}
    run_dir = result.get("_dir")
    late = [n.get("result") for n in result.get("nodes", []) if "latecomer" in n.get("roles", [])]
    if "join_at_s" not in cell or run_dir is None or not late or not all(isinstance(r, dict) for r in late):
        return None
    emulator = result.get("emulator") or {}
    origin = ((emulator.get("stats") or {}).get("run") or {}).get("origin_unix_s") or emulator.get("ready_unix")
    if origin is None:
        return None
    sent = run_sent_bytes(Path(run_dir), result.get("nodes", []), float(origin) + float(cell["join_at_s"]))
    if sent is None:
        return None
    return sum(n for kind, n in sent.items() if kind != "beacon"), sum(int(r.get("bytes_completed", 0)) for r in late)


def section(name: str, results: list[dict], out_dir: Path) -> str:
    cells: dict[tuple, dict[str, list[dict]]] = {}
    for r in results:
        key = tuple(sorted((r.get("cell") or {}).items()))
        cells.setdefault(key, {}).setdefault(r["system"], []).append(run_figures(r))
    rows = []
    figures: dict[str, dict[str, dict]] = {}  # cell label -> system -> aggregate, for the plots
    for key, systems in sorted(cells.items(), key=lambda kv: str(kv[0])):
        label = ", ".join(f"{k}={v}" for k, v in key) or "-"
        per_delivery = {}
        for system, runs in systems.items():
            delivered = sum(r["delivered"] for r in runs)
            per_delivery[system] = ((sum(r["frames"] for r in runs) / delivered if delivered else None),
                                    (sum(r["data_frames"] for r in runs) / delivered if delivered else None))
        reference = per_delivery.get(REFERENCE_SYSTEM, (None, None))
        for system, runs in sorted(systems.items()):
            expected = sum(r["expected"] for r in runs)
            delivered = sum(r["delivered"] for r in runs)
            lat = [x for r in runs for x in r["latencies"]]
            after = [r["after_event_s"] for r in runs if r["after_event_s"] is not None]
            delivered_pct = 100.0 * delivered / expected if expected else 0.0
            frames_per, data_per = per_delivery[system]
            air = [r["history_air"] for r in runs if r["history_air"]]
            air_ratio = sum(a for a, _ in air) / sum(h for _, h in air) if air and sum(h for _, h in air) else None
            figures.setdefault(label, {})[system] = {"delivered_pct": delivered_pct, "frames_per_delivery": frames_per,
                                                     "latencies": lat}
            rows.append([label, system, f"{len(runs)}", fmt(delivered_pct),
                         fmt(mean(lat) if lat else None, 2), fmt(_quantile(lat, 0.95), 2), fmt(frames_per, 1),
                         str(sum(r["duplicates"] for r in runs)),
                         fmt(mean(after) if after else None, 1) + (f" ({len(after)}/{len(runs)})" if after else ""),
                         fmt(air_ratio, 2), fmt(_ratio(frames_per, reference[0]), 2), fmt(data_per, 1),
                         fmt(_ratio(data_per, reference[1]), 2)])
    header = ["cell", "system", "runs", "delivered %", "latency mean s", "latency p95 s", "frames on air / delivery",
              "duplicate deliveries", "heal/join -> all delivered s", "history on air / history",
              "frames x flooding", "data frames / delivery", "data frames x flooding"]
    text = (f"## {name}\n\n"
            "delivered %: messages completely received by the subscribers (and late joiners) over those expected, "
            "all seeds. Latency: publish to delivery per message at the subscribers present from the start. "
            "Frames on air: every frame every node sent (data, repairs, rebroadcasts, control), divided by the "
            "deliveries; data frames: the datagrams carrying message data (first pass, rebroadcasts, repairs and "
            "pushes, from the daemons' counters) over the deliveries; x flooding: the ratio to the flooding "
            "system of the same cell, where there is one. Heal/join: from the scheduled heal or join to the last delivery, mean over the runs "
            "where everything arrived (how many of them in brackets). History on air / history (late joiners, "
            "from the emulator's captures): IP bytes every node sent from the join on, beacons apart (data, "
            "repairs, requests, summaries, pushes), over the history payload the late joiners completed; all "
            "seeds pooled. One copy of each history message costs about 1.05 (IP, UDP and dissem headers); a "
            "system that also pushes messages nobody asked for (replication that brings the whole stream into the "
            "newcomer's cache) pays for those too.\n\n" + table(header, rows))
    text += hostile_table(results)
    for png in plots.multihop(name, figures, out_dir):
        text += f"\n![{png.stem}]({png.name})\n"
    return text


def hostile_figures(result: dict) -> dict | None:
    """What the attacker (a node with the role 'attacker') sent, and what the
    members' daemons counted: None without an attacker in the scenario."""
    attackers = [n.get("id") for n in result.get("nodes", []) if "attacker" in n.get("roles", [])]
    if not attackers:
        return None
    stats = (result.get("emulator") or {}).get("stats") or {}
    sent = sum(int(n.get("frames_sent", 0)) for n in stats.get("nodes", []) if n.get("id") in attackers)
    malformed = integrity = content_errors = repair_sent = requests_heard = trimmed = 0
    peak_rss = 0
    finish = []
    for node in result.get("nodes", []):
        collected = node.get("collected") or {}
        malformed += int((collected.get("malformed") or {}).get("total", 0))
        integrity += int((collected.get("integrity") or {}).get("total", 0))
        traffic = collected.get("traffic") or {}
        repair_sent += int(((traffic.get("repair") or {}).get("sent") or {}).get("bytes", 0))
        requests_heard += int(((traffic.get("mfr") or {}).get("received") or {}).get("bytes", 0))
        trimmed += int((collected.get("repairs") or {}).get("requests_trimmed", 0))
        peak_rss = max(peak_rss, int((collected.get("process") or {}).get("peak_rss_bytes", 0)))
        res = node.get("result")
        if "subscriber" in node.get("roles", []) and isinstance(res, dict):
            content_errors += int(res.get("content_errors", 0))
            if res.get("messages_completed") == res.get("expected") and res.get("expected"):
                finish.append(float(res.get("last_completion_s", 0)))
    return {"sent": sent, "malformed": malformed, "integrity": integrity, "content_errors": content_errors,
            "finish_s": max(finish) if finish else None, "repair_sent": repair_sent,
            "requests_heard": requests_heard, "trimmed": trimmed, "peak_rss": peak_rss}


def hostile_table(results: list[dict]) -> str:
    """Per cell and system: the attacker's frames, what the daemons refused,
    forged bytes that reached an application, and the transfer's duration."""
    by_key: dict[tuple, dict[str, list[dict]]] = {}
    for r in results:
        h = hostile_figures(r)
        if h is None:
            return ""
        by_key.setdefault(tuple(sorted((r.get("cell") or {}).items())), {}).setdefault(r["system"], []).append(h)
    rows = []
    for key, systems in sorted(by_key.items(), key=lambda kv: str(kv[0])):
        label = ", ".join(f"{k}={v}" for k, v in key) or "-"
        quiet = [h["finish_s"] for s, runs in systems.items() if not any(h["sent"] for h in runs)
                 for h in runs if h["finish_s"] is not None]
        for system, runs in sorted(systems.items()):
            finish = [h["finish_s"] for h in runs if h["finish_s"] is not None]
            heard = sum(h["requests_heard"] for h in runs)
            slowdown = mean(finish) / mean(quiet) if finish and quiet and mean(quiet) > 0 else None
            rows.append([label, system, str(len(runs)), str(sum(h["sent"] for h in runs)),
                         str(sum(h["malformed"] for h in runs)), str(sum(h["integrity"] for h in runs)),
                         str(sum(h["content_errors"] for h in runs)),
                         fmt(mean(finish) if finish else None, 1) + f" ({len(finish)}/{len(runs)})",
                         fmt(slowdown, 2),
                         fmt(sum(h["repair_sent"] for h in runs) / heard if heard else None, 2),
                         str(sum(h["trimmed"] for h in runs)),
                         fmt(max(h["peak_rss"] for h in runs) / 2**20, 1)])
    header = ["cell", "system", "runs", "attacker frames", "malformed counted", "integrity events",
              "forged bytes delivered (content errors)", "transfer s (runs complete)", "x undisturbed",
              "repair B per request B", "requests trimmed", "peak RSS MB (max member)"]
    return ("\n\nWith an attacker: frames it put on the air (all seeds), datagrams the members' daemons counted as "
            "malformed and integrity events they counted (contradictions, failed checks, data under their own "
            "id), messages an application received with any byte not the publisher's, the time from the "
            "subscribers' start to the last subscriber's last message (mean over complete runs) and its ratio "
            "to the same cell without an attacker (target: at most 1.25), the repair bytes the members sent per "
            "request byte they heard (the amplification a request flood buys), the request items the serving "
            "budget trimmed, and the largest peak resident memory of a member's daemon (documented cap: "
            "docs/threat-model.md).\n\n"
            + table(header, rows))


def load(results_dir: Path, scenario: str) -> list[dict]:
    out = []
    for path in sorted((results_dir / scenario).rglob("result.json")):
        with open(path) as f:
            result = json.load(f)
        result["_dir"] = str(path.parent)
        out.append(result)
    return out
