"""A gateway between two networks (emulation/scenarios/two-nets.toml): a
publisher's tracks and a 200 KB file on a 1 Mbit/s MANET (A), a track
subscriber on a half-duplex HF net (B), one node on both. Per rate and
system: tracks/min at B's subscriber while the load was offered (seed 004's
figure, set beside seed 004's HF cells at the same rate when their runs are
in the same results), what the gateway carried to B, whether the file
reached A's receivers, what B's
nodes hold of the file's group, and the bytes on B's air."""

from __future__ import annotations

from pathlib import Path
from statistics import mean

from . import seed004_report, summary
from .markdown import fmt, table
from .readme_section.cells import num
from .seed_results import command_results, scenario_runs, verdict

SCENARIO_PREFIX = "two-nets"
# Seed 004's HF scenarios: one receiver, two receivers (the page sets them beside ours).
SEED004_HF = ("seed004-hf-2nodes", "seed004-hf-3nodes")
GATEWAY, SIDE_B_NETWORK = "gw", "b"


def is_two_nets(scenario: str) -> bool:
    return scenario.startswith(SCENARIO_PREFIX)


def _collected(result: dict, name: str) -> dict:
    for node in result.get("nodes", []):
        if node.get("name") == name:
            return node.get("collected") or {}
    return {}


def _side_b(result: dict) -> tuple[list[str], list[int]]:
    """B's node names (the gateway first, as its emulator numbers them) and the bytes each sent on B's air."""
    for net in result.get("networks") or []:
        if net.get("name") == SIDE_B_NETWORK:
            sent = [int(n.get("bytes_sent", 0)) for n in ((net.get("stats") or {}).get("nodes") or [])]
            return list(net.get("nodes") or []), sent
    return [], []


def run_figures(result: dict) -> dict:
    figures = seed004_report.run_figures(result)
    subs = command_results(result, "subscriber")
    track = ((subs[0][1].get("streams") or {}).get("track") or {}) if subs else {}
    links = _collected(result, GATEWAY).get("links") or {}
    carried = sum(int((link.get("messages") or {}).get("carried", 0)) for link in links.values()) if links else None
    files = command_results(result, "file_receiver")
    b_nodes, b_sent = _side_b(result)
    unasked = [_collected(result, n).get("unasked_bytes_held") for n in b_nodes if n != GATEWAY]
    figures.update(
        latency_p50_s=track.get("latency_p50_s"), latency_p95_s=track.get("latency_p95_s"),
        carried=carried,
        files_complete=sum(bool(r.get("complete")) for _, r in files), file_receivers=len(files),
        unasked_bytes=sum(int(u) for u in unasked) if unasked and None not in unasked else None,
        b_gateway_bytes=b_sent[0] if b_sent else None, b_other_bytes=sum(b_sent[1:]) if b_sent else None)
    return figures


def load(results_dir: Path, scenarios: list[str]) -> dict:
    return {"runs": [run_figures(r) for s in scenarios for r in scenario_runs(results_dir, s)],
            "seed004": seed004_report.load(results_dir, [s for s in SEED004_HF if (results_dir / s).is_dir()])}


def _seed004_dissem(seed004: list[dict], scenario: str, rate: int) -> float | None:
    """Seed 004's dissem figure at `rate`: the worst receiver, averaged over its runs."""
    worst = [min(r["tracks_per_min"].values()) for r in seed004
             if r["scenario"] == scenario and r["rate_bps"] == rate and r["system"] == "dissem" and r["tracks_per_min"]]
    return mean(worst) if worst else None


def _seed004_from_page(out_dir: Path) -> list[dict]:
    """Seed 004's figures as its page beside this one prints them (when its
    runs are not in these results): one record per scenario, rate and system,
    shaped as run_figures' (its worst receiver)."""
    page = out_dir / f"{seed004_report.SCENARIO_PREFIX}.md"
    if not page.is_file():
        return []
    _, tables = summary.parse_page(page.name, page.read_text())
    out = []
    for t in tables:
        if t.heading not in SEED004_HF:
            continue
        for rec in t.records():
            worst = num(rec.get("worst receiver", ""))
            if worst is not None:
                out.append({"scenario": t.heading, "rate_bps": int(num(rec["rate bit/s"]) or 0),
                            "system": rec["system"], "tracks_per_min": {"worst": worst}})
    return out


def _mean(values: list) -> float | None:
    present = [v for v in values if v is not None]
    return mean(present) if present else None


def _rows(runs: list[dict], seed004: list[dict]) -> list[list[str]]:
    rows = []
    for rate in sorted({r["rate_bps"] for r in runs}):
        for system in sorted({r["system"] for r in runs if r["rate_bps"] == rate}):
            mine = [r for r in runs if r["rate_bps"] == rate and r["system"] == system]
            tpm = _mean([r["tracks_per_min"].get("sub") for r in mine])
            unasked = _mean([r["unasked_bytes"] for r in mine])
            rows.append([
                str(rate), system, f"{sum(r['status'] == 'ok' for r in mine)}/{len(mine)}",
                fmt(mine[0]["offer_s"], 0) if mine[0]["offer_s"] else "n/a", fmt(tpm, 2),
                f"{fmt(_mean([r['latency_p50_s'] for r in mine]), 1)} / {fmt(_mean([r['latency_p95_s'] for r in mine]), 1)}",
                fmt(_mean([r["carried"] for r in mine]), 0),
                " ".join(f"{r['files_complete']}/{r['file_receivers']}" for r in mine),
                fmt(unasked, 0), f"{fmt(_mean([r['b_gateway_bytes'] for r in mine]), 0)} / "
                                 f"{fmt(_mean([r['b_other_bytes'] for r in mine]), 0)}",
                " / ".join(fmt(_seed004_dissem(seed004, s, rate), 2) for s in SEED004_HF),
                f"0 B: {verdict(unasked, 0, False)}" if unasked is not None else "n/a"])
    return rows


HEADER = ["rate bit/s", "system", "runs ok", "offered for s", "tracks/min at B's subscriber",
          "latency p50 / p95 s", "tracks carried to B", "file on A (receivers complete)",
          "file's group held on B (bytes)", "bytes on B's air (gateway / B's nodes)",
          "seed004 HF, same rate (dissem: 1 / 2 receivers)", "B carries nothing B did not ask for"]

INTRO = (
    "A gateway between two networks (issue 33, DisService's gateway role). Network A: the publisher, two file "
    "receivers and the gateway, 1 Mbit/s links with 10 % loss. Network B: the gateway, a bystander and a track "
    "subscriber on one half-duplex HF channel (one transmitter at a time, 1 s turnaround, as seed 004). The "
    "gateway's dissemd has an interface on each; with `dissem` its HF interface is a link of its own at the HF "
    "rate (`[net.interface.emu1] link_capacity_bps`), with `dissem-hf-derated` at 75 % of it, with "
    "`dissem-one-link` both share one link at A's rate, as before links of their own. The publisher offers 134-byte tracks (priority 5, 60 s to live) at three "
    "times what B carries as raw payloads, seed 004's load, for the time given, and a 200 KB file (priority 1) "
    "that only A's nodes subscribe to. tracks/min = tracks the subscriber's application completed while the "
    "load was offered, per minute of it; the seed004 column is the same figure over one simplex link with no "
    "gateway ([seed004](seed004.md): from its runs when they are in the same results, else from its page). 'Held on B': what B's nodes "
    "(which cache whatever they hear) hold of the file's group at the end: 0 means the file never went on B's "
    "air.\n\n"
    "Why the HF link's rate matters: on the simplex channel every frame of B's other nodes (beacons, requests) "
    "costs the gateway two 1 s turnarounds besides its own air time, so the channel gives the gateway less than "
    "the nominal rate. A gateway paced at the nominal rate fills the radio's queue (50 frames: minutes at 2,400 "
    "bit/s), which dissemd cannot see: its rate adaptation reads the echoes of its beacons, and on this channel "
    "the gateway's beacons wait behind its data and B's nodes beacon rarely. Tracks then wait in the radio past "
    "their lifetime and arrive expired, and the figure falls to what got through before the queue filled. Paced "
    "below what the channel gives (`dissem-hf-derated`), the gateway's own queue holds the backlog, where a "
    "carried track leaves only while it can still arrive (publisher/carried_messages.cpp). What would close the "
    "gap without setting the rate by hand: flow control from the radio (STANAG 5066's client interface has it), "
    "or rate adaptation that takes its delay samples from the data a neighbour acknowledges, not only from beacon "
    "echoes.\n")


def section(data: dict, out_dir: Path) -> str:
    seed004 = data["seed004"] or _seed004_from_page(out_dir)
    text = ["## Two networks through a gateway\n", INTRO, table(HEADER, _rows(data["runs"], seed004))]
    return "\n".join(text)
