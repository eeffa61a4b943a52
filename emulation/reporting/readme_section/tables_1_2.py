"""Tables 1 and 2 (the baseline pages): ours, ARQ, NORM, OpenPGM and
JGroups against each other, then what OpenPGM and JGroups do, and where we
lose to NORM and why."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .baseline_pages import BASELINES, JGROUPS, LOSSY, MID_RATES, PGM, Baseline, baselines
from .cells import fraction, need, num
from .formatting import Links, f0, f1, f2, md_table, rx, span

COLUMNS = ["table, medium", "reliability", "ours/NORM time", "ours/NORM bytes", "ARQ/NORM time, bytes",
           "OpenPGM/ours time", "JGroups/ours time"]


def tables_1_2(summary: dict[str, Any], link: Links) -> list[str]:
    b = baselines(summary)
    body = _lossy_rows(b, link) + [_lossless_row(b)]
    out = [
        _heading(summary, b, link),
        md_table(COLUMNS, body) + "\n",
        _one_cell(b, link),
    ]
    out += _pgm_jgroups(b, link)
    out += _against_norm(b, link)
    return out


def _not_all(values: list[float | None]) -> str:
    missing = sum(v is None for v in values)
    return f" ({missing} #N/A)" if missing else ""


def _lossy_rows(b: dict[tuple[str, str], Baseline], link: Links) -> list[list[str]]:
    """One row per page and medium: the ratios from 90 % down to 70 %."""
    body = []
    for page, label in BASELINES:
        for medium in ("radios", "shared"):
            x = b[(page, medium)]
            pgm = x.ratios("time OpenPGM s", "time ours s", LOSSY, MID_RATES)
            jg = x.ratios("time JGroups s", "time ours s", LOSSY, MID_RATES)
            body.append([f"{link(page, label)}, {medium}", "90-70 %",
                         span(x.values("time ours/NORM", LOSSY, MID_RATES)),
                         span(x.values("bytes ours/NORM", LOSSY, MID_RATES)),
                         span(x.ratios("time ARQ s", "time NORM s", LOSSY, MID_RATES)) + ", "
                         + span(x.ratios("bytes ARQ MB", "bytes NORM MB", LOSSY, MID_RATES)),
                         span(pgm) + _not_all(pgm), span(jg) + _not_all(jg)])
    return body


def _lossless_row(b: dict[tuple[str, str], Baseline]) -> list[str]:
    """The ratios at 100 %, pooled over both pages and media."""
    every = list(b.values())

    def pooled(get: Callable[[Baseline], list[float | None]]) -> list[float | None]:
        return [v for x in every for v in get(x)]

    return ["both, either medium", "100 %",
            span(pooled(lambda x: x.values("time ours/NORM", (100,), MID_RATES))),
            span(pooled(lambda x: x.values("bytes ours/NORM", (100,), MID_RATES))),
            span(pooled(lambda x: x.ratios("time ARQ s", "time NORM s", (100,), MID_RATES))) + ", "
            + span(pooled(lambda x: x.ratios("bytes ARQ MB", "bytes NORM MB", (100,), MID_RATES))),
            span(pooled(lambda x: x.ratios("time OpenPGM s", "time ours s", (100,), MID_RATES))),
            span(pooled(lambda x: x.ratios("time JGroups s", "time ours s", (100,), MID_RATES)))]


def _heading(summary: dict[str, Any], b: dict[tuple[str, str], Baseline], link: Links) -> str:
    """The set-up, the runs and seeds behind the table, and how to read it."""
    seeds = max(fraction(c["bytes complete ours / ARQ / NORM / OpenPGM / JGroups"].split(" / ")[0])[1]
                for x in b.values() for c in x.cells.values())
    runs = {e["page"]: e["runs"] for e in summary["index"]}
    return (
        f"**Tables 1 and 2 (819,200 bytes, 1 sender, every link alike;"
        f" {link('baseline-1to1.md', 'baseline-1to1')}: {runs.get('baseline-1to1.md', 'n/a')} runs,"
        f" {link('baseline-1to3.md', 'baseline-1to3')}: {runs.get('baseline-1to3.md', 'n/a')} runs,"
        f" {seeds} seeds per cell).** Ratios from 128 kbit/s to 1 Mbit/s (the 56 kbit/s and 10 Mbit/s cells"
        " below); times are means over receivers and seeds, a ratio of two systems is taken cell by cell and"
        " the range is over the cells; #N/A: cells where that system finished no run in time:\n")


def _one_cell(b: dict[tuple[str, str], Baseline], link: Links) -> str:
    """Every system's time and bytes in one lossy cell, and ours against the erasure bound."""
    one, three = b[("baseline-1to1.md", "radios")], b[("baseline-1to3.md", "radios")]
    c = three.cells[(70, 256)]
    return (
        f"At 70 %/256 kbit/s, 1 to 3 on radios ({link('baseline-1to3.md')}), we take {c['time ours s']} s and"
        f" {f2(need(c['bytes ours MB'], 'ours MB'))} MB (ARQ {c['time ARQ s']} s and"
        f" {f2(need(c['bytes ARQ MB'], 'ARQ MB'))} MB; NORM {c['time NORM s']} s and"
        f" {f2(need(c['bytes NORM MB'], 'NORM MB'))} MB; OpenPGM {c['time OpenPGM s']} s and"
        f" {f2(need(c['bytes OpenPGM MB'], 'OpenPGM MB'))} MB; JGroups {c['time JGroups s']} s; the paper's"
        f" DisService {c['time paper DS s']} s and {f2(need(c['bytes paper DS MB'], 'paper DS MB'))} MB)."
        f" 1 to 1 on radios we are at {span(one.values('time ours/bound', LOSSY + (100,), MID_RATES))}x the"
        f" erasure bound k/(rC) from 128 kbit/s to 1 Mbit/s ({link('baseline-1to1.md')}).\n")


def _pgm_jgroups(b: dict[tuple[str, str], Baseline], link: Links) -> list[str]:
    radios = [b[(page, "radios")] for page, _ in BASELINES]
    every = list(b.values())
    rates = MID_RATES + (56, 10240)
    timed = MID_RATES + (56,)   # at 10 Mbit/s the pages print times to 0.1 s of about a second: no ratios
    pgm_done = [x.completed(PGM, LOSSY + (100,), rates) for x in radios]
    jg_done = [x.completed(JGROUPS, LOSSY + (100,), rates) for x in radios]
    pgm_runs, jg_runs = (sum(d for d, _ in pgm_done), sum(n for _, n in pgm_done)), \
        (sum(d for d, _ in jg_done), sum(n for _, n in jg_done))
    paper_na_pgm = sum(c["time paper OpenPGM s"] == "#N/A" for x in radios for c in x.cells.values())
    paper_na_jg = sum(c["time paper JGroups s"] == "#N/A" for x in radios for c in x.cells.values())

    def over_ours(system: str, rels: Iterable[int], rates: Iterable[int], kind: str = "time") -> str:
        unit = "s" if kind == "time" else "MB"
        return span([v for x in every for v in x.ratios(f"{kind} {system} {unit}", f"{kind} ours {unit}", rels,
                                                      rates)], rx)

    three = b[("baseline-1to3.md", "radios")]
    shared_pgm = [f"{label} {cell}" for page, label in BASELINES for cell in b[(page, "shared")].incomplete(PGM)]
    jg_mb = three.values("bytes JGroups MB", LOSSY, rates)
    lines = [
        f"**OpenPGM and JGroups** ({link('baseline-1to1.md')}, {link('baseline-1to3.md')}). On separate radios"
        f" OpenPGM completed {pgm_runs[0]} of its {pgm_runs[1]} runs and JGroups {jg_runs[0]} of {jg_runs[1]}"
        f" (the paper's tables show #N/A in {paper_na_pgm} of these cells for OpenPGM and {paper_na_jg} for"
        f" JGroups). Where they finished, from 56 kbit/s to 1 Mbit/s on either medium, they took"
        f" {over_ours('OpenPGM', LOSSY + (100,), timed)}x (OpenPGM) and {over_ours('JGroups', LOSSY + (100,), timed)}x"
        f" (JGroups) our time, and from 90 % down they put {over_ours('OpenPGM', LOSSY, rates, 'bytes')}x and"
        f" {over_ours('JGroups', LOSSY, rates, 'bytes')}x our bytes on the medium (every rate):",
        "- *OpenPGM* (rate limit at the link capacity, 70 % original data and 30 % repairs, NAKs to the sender,"
        " no FEC) is held to 70 % of the link on first pass"
        f" ({over_ours('OpenPGM', (100,), MID_RATES)}x our time without loss, 128 kbit/s to 1 Mbit/s), and its"
        " repairs, one NAK'd packet at a time from the sender alone at 30 % of the link, queue up: at 56 kbit/s,"
        f" 1 to 3 on radios, from 90 % down it needs {span(three.values('time OpenPGM s', LOSSY, (56,)), f0)} s"
        f" (ours {span(three.values('time ours s', LOSSY, (56,)), f0)} s)."
        + (f" On one shared channel it did not finish every run within the time limit in {len(shared_pgm)} cells"
           f" ({'; '.join(shared_pgm)}; #N/A where none did)." if shared_pgm else "")
        + " Its receivers' repair wait is scaled to the link below 256 kbit/s (`--nak-rdata-ivl`), without which"
        " they gave up on packets (PGM's unrecoverable-loss reset) at 56 kbit/s.",
        "- *JGroups* (RATE_LIMITER at 75 % above NAKACK2, FRAG2, as in the paper) is held to 75 % on first pass"
        f" ({over_ours('JGroups', (100,), MID_RATES)}x our time without loss, 128 kbit/s to 1 Mbit/s); its"
        " receivers re-request every missing message each round, and the repairs bypass the rate limiter, so"
        f" its sender hands its radio many times the link's capacity ({span(jg_mb, f1)} MB in the lossy 1-to-3"
        " cells), most of which the radio's 50-frame queue drops before the air: the MB columns count what"
        " nodes handed to the medium, so JGroups' bytes there are offered load, not air time (the pages give"
        " the radio-queue drops per system).\n",
    ]
    return lines


def _against_norm(b: dict[tuple[str, str], Baseline], link: Links) -> list[str]:
    radios = [b[(page, "radios")] for page, _ in BASELINES]
    lossy = [(x.page, key, num(c["bytes ours/NORM"])) for x in radios for key, c in x.cells.items()
             if key[0] in LOSSY]
    above = [r for _, _, r in lossy if r is not None and r > 1.0]
    worst_page, worst_key, worst = max(lossy, key=lambda e: e[2] or 0.0)
    three, shared = b[("baseline-1to3.md", "radios")], b[("baseline-1to3.md", "shared")]
    return [
        "**Where we lose to NORM, and why.**",
        f"- *Bytes: above NORM's in {len(above)} of the {len(lossy)} lossy cells on radios"
        f" ({span(above)}x; the most at {worst_key[0]} %/{worst_key[1]} kbit/s, {link(worst_page)}:"
        f" {f2(worst or 0.0)}x).* Our header is about 23 bytes a fragment once the group's reference is known"
        " (with the 8-byte digest that lets every receiver verify the message; NORM verifies nothing) against"
        " NORM's 24-28, so header bytes are not where we lose; beacons add a little, and repairs come from"
        " several nodes, so a few symbols cover the same deficit twice (per-block traffic memory keeps that"
        " small, not zero).",
        f"- *Receivers recoding for each other while answers are in flight.* At 56 kbit/s"
        f" ({link('baseline-1to3.md', '1 to 3')} on radios, 90-70 %:"
        f" {span(three.values('time ours/NORM', LOSSY, (56,)))}x NORM's time,"
        f" {span(three.values('bytes ours/NORM', LOSSY, (56,)))}x its bytes) a symbol takes 0.2 s on the air,"
        " requests keep arriving while answers are still on their way, and receivers recode for each other,"
        " partly redundantly. A try at pushing re-requests back while innovative symbols still arrive did not"
        " change it (measured, not kept).",
        f"- *One shared channel, {link('baseline-1to3.md', '1 to 3')}, 90-70 %:"
        f" {span(shared.values('time ours/NORM', LOSSY, MID_RATES))}x NORM's time and"
        f" {span(shared.values('bytes ours/NORM', LOSSY, MID_RATES))}x its bytes from 128 kbit/s to 1 Mbit/s"
        f" ({span(shared.values('time ours/NORM', LOSSY, (56,)))}x and"
        f" {span(shared.values('bytes ours/NORM', LOSSY, (56,)))}x at 56 kbit/s,"
        f" {span(shared.values('time ours/NORM', LOSSY, (10240,)))}x and"
        f" {span(shared.values('bytes ours/NORM', LOSSY, (10240,)))}x at 10 Mbit/s).* NORM's receivers only"
        " send NACKs; ours also serve each other, and on one channel every receiver's repair takes the air from"
        f" the publisher and the others. At 10 Mbit/s a transfer lasts"
        f" {span(shared.values('time ours s', LOSSY, (10240,)), f1)} s, shorter than our occupancy estimate"
        " (the traffic window) needs to see the channel fill, so the receivers' repairs overlap. The"
        " channel-aware pacing is what makes this medium work at all: before it, the lossy shared-channel"
        " cells took far longer than NORM's and sent far more.\n",
    ]
