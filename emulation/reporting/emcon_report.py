"""Issue 32, section 5: radio silence (EMCON). Receivers that may not
transmit at all (engine.silent) get what the publisher's first pass and its
proactive redundancy bring; the publisher, told their expected loss
(engine.silent_receivers_loss), sizes every block's parity for the chance
engine.silent_delivery_target that a receiver decodes it from the first
pass alone. Per run: messages delivered during silence, the silent nodes'
frames and bytes as the emulator counted them at their radios (kernel and
daemon together), and every node's bytes on the air against the payload.
The targets are the issue's: >= 99.9 % of messages delivered during
silence, <= 1.25x the payload on the air, 0 bytes from the silent nodes.

Where the air target is missed the page gives the bound that explains it:
each message is its own coding block of k fragments (k and the parity per
block are read from the publisher's counters), and no fewer than the
binomial tail's r parity symbols give a receiver losing a fraction L of
them the target chance of k; frame headers come on top."""

from __future__ import annotations

import json
import math
from pathlib import Path

from scipy.stats import binom

from .markdown import table

SCENARIO_PREFIX = "emcon"
DELIVERED_TARGET = 0.999
AIR_TARGET = 1.25


def is_emcon(scenario: str) -> bool:
    return scenario == SCENARIO_PREFIX or scenario.startswith(SCENARIO_PREFIX + "-")


def load(results_dir: Path, scenarios: list[str]) -> list[dict]:
    out = []
    for scenario in scenarios:
        for path in sorted((results_dir / scenario).rglob("result.json")):
            with open(path) as f:
                out.append(json.load(f))
    return out


def _publisher(result: dict) -> dict:
    return next((n for n in result.get("nodes", []) if "publisher" in n.get("roles", [])), {})


def _silent(result: dict) -> list[dict]:
    return [n for n in result.get("nodes", []) if "silent" in n.get("roles", [])]


def run_figures(result: dict) -> dict:
    """What one run measured (None where the run left nothing to read)."""
    stats = (result.get("emulator") or {}).get("stats") or {}
    by_id = {n["id"]: n for n in stats.get("nodes", [])}
    silent = _silent(result)
    expected = sum(int((n.get("result") or {}).get("expected") or 0) for n in silent)
    delivered = sum(int((n.get("result") or {}).get("messages_completed") or 0) for n in silent)
    pub = _publisher(result)
    counters = pub.get("collected") or {}
    data = ((counters.get("traffic") or {}).get("data") or {}).get("sent") or {}
    parity = int((counters.get("coding") or {}).get("parity_sent") or 0)
    payload = int(((pub.get("result") or {}).get("bytes_published") or 0)) or None
    messages = int(((pub.get("result") or {}).get("messages_published") or 0)) or None
    silent_ids = [n["id"] for n in silent]
    return {
        "seed": result.get("seed"), "status": result.get("status"),
        "cell": result.get("cell") or {},
        "delivered": delivered, "expected": expected,
        "silent_frames": sum(int(by_id.get(i, {}).get("frames_sent", 0)) for i in silent_ids) if by_id else None,
        "silent_bytes": sum(int(by_id.get(i, {}).get("bytes_sent", 0)) for i in silent_ids) if by_id else None,
        "air_bytes": int((stats.get("totals") or {}).get("nodes", {}).get("bytes_sent", 0)) if stats else None,
        "payload": payload, "messages": messages,
        "source_per_message": (int(data.get("datagrams", 0)) - parity) / messages if messages else None,
        "parity_per_message": parity / messages if messages else None,
    }


def _ratio(num, den) -> float | None:
    return num / den if num is not None and den else None


def _verdict(ok: bool | None) -> str:
    return "#N/A" if ok is None else ("met" if ok else "missed")


def binomial_parity(k: int, loss: float, target: float) -> int:
    """The least r with P(Binomial(k + r, 1 - loss) >= k) >= target."""
    r = 0
    while r < 255 and binom.sf(k - 1, k + r, 1.0 - loss) < target:
        r += 1
    return r


def section(results: list[dict], out_dir: Path) -> str:
    del out_dir  # no plots
    runs = sorted((run_figures(r) for r in results), key=lambda f: (sorted(f["cell"].items()), f["seed"] or 0))
    rows = []
    for f in runs:
        air = _ratio(f["air_bytes"], f["payload"])
        rows.append([str(f["cell"].get("reliability", "")), str(f["cell"].get("silent_receivers_loss", "")),
                     str(f["seed"]), f["status"] or "", f"{f['delivered']}/{f['expected']}",
                     "-" if f["silent_frames"] is None else str(f["silent_frames"]),
                     "-" if f["silent_bytes"] is None else str(f["silent_bytes"]),
                     "-" if air is None else f"{air:.3f}",
                     "-" if f["source_per_message"] is None else f"{f['source_per_message']:.0f}",
                     "-" if f["parity_per_message"] is None else f"{f['parity_per_message']:.1f}"])
    delivered = sum(f["delivered"] for f in runs)
    expected = sum(f["expected"] for f in runs)
    airs = [a for f in runs if (a := _ratio(f["air_bytes"], f["payload"])) is not None]
    silent_bytes = [f["silent_bytes"] for f in runs if f["silent_bytes"] is not None]
    share = delivered / expected if expected else None
    worst_air = max(airs) if airs else None
    verdicts = table(["target", "measured", "verdict"], [
        [f">= {100 * DELIVERED_TARGET:.1f} % delivered during silence",
         "-" if share is None else f"{100 * share:.2f} % ({delivered}/{expected})",
         _verdict(None if share is None else share >= DELIVERED_TARGET)],
        [f"<= {AIR_TARGET:.2f}x the payload on the air", "-" if worst_air is None else f"{worst_air:.3f}x (worst run)",
         _verdict(None if worst_air is None else worst_air <= AIR_TARGET)],
        ["0 bytes from the silent nodes (emulator)", "-" if not silent_bytes else f"{max(silent_bytes)} (most in a run)",
         _verdict(None if not silent_bytes else max(silent_bytes) == 0)],
    ])
    text = ("Two receivers silent from start-up (`engine.silent`), every link losing a fraction of frames; the "
            "publisher told their expected loss (`engine.silent_receivers_loss`) and the default "
            "`engine.silent_delivery_target` (0.999). Frames and bytes are the emulator's counts at each node's "
            "radio, Ethernet frames included; air is every node's bytes against the payload offered. Fragments "
            "and parity per message are the publisher's own counters.\n\n")
    text += table(["reliability", "silent loss told", "seed", "status", "delivered in silence",
                   "silent nodes' frames", "silent nodes' bytes", "air / payload", "fragments / message",
                   "parity / message"], rows) + "\n\n" + verdicts + "\n"
    return text + _bound(runs, worst_air)


def _bound(runs: list[dict], worst_air: float | None) -> str:
    """Why the air is what it is: the binomial bound for one message's block."""
    f = next((f for f in runs if f["source_per_message"] and f["parity_per_message"] is not None), None)
    if f is None or worst_air is None:
        return ""
    k = int(round(f["source_per_message"]))
    loss = float(f["cell"].get("silent_receivers_loss") or 0.1)
    r = binomial_parity(k, loss, DELIVERED_TARGET)
    symbols = (k + r) / k
    r_big = binomial_parity(255, loss, DELIVERED_TARGET)
    header = worst_air / symbols
    return (f"\n**The bound.** Each {f['payload'] // max(f['messages'] or 1, 1):,}-byte message is one coding block "
            f"of k = {k} fragments. For a receiver losing {100 * loss:.0f} % of them at random to decode it with "
            f"probability {DELIVERED_TARGET}, the block needs at least r = {r} parity symbols "
            f"(P(Binomial(k + r, {1 - loss:.2f}) >= k) >= {DELIVERED_TARGET}): {symbols:.3f}x the payload in symbols "
            f"before any header, and the frames' headers (dissem, UDP, IP, Ethernet) bring it to "
            f"{worst_air:.3f}x ({header:.3f}x per symbol). No first pass of one-message blocks can do better at "
            f"this delivery target. {'Within' if worst_air <= AIR_TARGET else 'Above'} the {AIR_TARGET}x target. "
            f"Coding across messages closes the gap: a block of 255 fragments needs r = {r_big} "
            f"({(255 + r_big) / 255:.3f}x in symbols, {(255 + r_big) / 255 * header:.3f}x with the same headers); "
            f"the sliding window that section 3 asks for across consecutive multi-fragment messages would give "
            f"silent receivers that too.\n")
