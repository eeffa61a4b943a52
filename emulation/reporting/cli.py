"""emulation/report RESULTS_DIR [--out DIR] [--reference DIR]

Writes one Markdown report per experiment found under RESULTS_DIR (a
campaign's --out directory of emulation/run) with its PNG plots, and an index
README.md. Experiments are recognised by their cell parameters: baseline
cells have capacity_kbps and reliability_pct; tactical cells have asymmetric,
sender_reliability_pct and message_size; the seed-000 scenarios (names
starting seed000, cells with an experiment) share one page; any other
scenario gets the multi-hop figures; seed002*, seed003* and seed004*
scenarios get one page per seed paper (sensor stream, disconnections,
tracks over HF and satcom); two-nets* what a gateway between two networks
carried; norm-gateway* what crossed the NORM gateway
each way; any other (delivery ratio, latency, transmissions
per delivery, time to full delivery after a heal or a late join). Beside the
pages it writes summary.json: their tables, machine-readable (summary.py).

emulation/report --readme README.md --results docs/results [--check]
rewrites (or, with --check, compares) the README's results section and
docs/results/summary.json from the pages in docs/results (readme_section/);
emulation/report --ours-vs-norm --results DIR prints ours/NORM per baseline
cell from DIR/summary.json."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from . import readme_section, summary
from .readme_section import ReadmeError
from .run_metrics import engine_line
from .summary import SummaryError

from runner.project_version import version_line

REPO = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="emulation/report", description=__doc__.split("\n\n")[1])
    ap.add_argument("--version", action="version", version=version_line("emulation/report"))
    ap.add_argument("results", type=Path, nargs="?", help="directory holding result.json files (emulation/run --out)")
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "results", help="where reports and PNGs go")
    ap.add_argument("--reference", type=Path, default=REPO.parent / "shared" / "reference",
                    help="the papers' published figures (CSV)")
    ap.add_argument("--title", default="Experiment results", help="heading of the index page")
    ap.add_argument("--readme", type=Path, metavar="README",
                    help="rewrite this README's results section (between its results:begin and results:end "
                         "lines) and the pages' summary.json from the pages in --results")
    ap.add_argument("--results", dest="pages", type=Path, default=REPO / "docs" / "results", metavar="DIR",
                    help="with --readme or --ours-vs-norm: the directory of the results pages "
                         "(default: docs/results)")
    ap.add_argument("--check", action="store_true",
                    help="with --readme: write nothing; exit 1 and print a diff when the README's section or "
                         "summary.json differ from what --readme would write")
    ap.add_argument("--agreement", nargs=2, type=Path, metavar=("EMU_RESULTS", "EMANE_RESULTS"),
                    help="set the same cells run on dissem-emu and on EMANE side by side (engine_agreement.py)")
    ap.add_argument("--engine-cost", type=Path, action="append", metavar="EMANE_RESULTS",
                    help="with --agreement (repeatable): add what EMANE's processes cost in these runs")
    ap.add_argument("--agreement-before", type=Path, metavar="EMU_RESULTS",
                    help="with --agreement: dissem-emu's runs of the same cells from before a correction, "
                         "set beside today's and EMANE's")
    ap.add_argument("--agreement-out", type=Path, default=REPO / "docs" / "results" / "emane.md",
                    help="with --agreement: the page to write (default docs/results/emane.md)")
    ap.add_argument("--shared-medium", nargs=3, action="append", metavar=("TITLE", "EMU_RESULTS", "RFPIPE_RESULTS"),
                    help="(repeatable) the same cells on dissem-emu and on EMANE's RF Pipe model, one section each "
                         "(shared_medium.py)")
    ap.add_argument("--shared-medium-out", type=Path, default=REPO / "docs" / "results" / "emane-shared-medium.md",
                    help="with --shared-medium: the page to write")
    ap.add_argument("--many-receivers-engines", nargs=2, type=Path, metavar=("EMU_RESULTS", "EMANE_RESULTS"),
                    help="baseline-1to10's own-radio cells run on dissem-emu and on EMANE, side by side "
                         "(many_receivers_engines.py)")
    ap.add_argument("--many-receivers-engines-out", type=Path,
                    default=REPO / "docs" / "results" / "emane-1toN.md",
                    help="with --many-receivers-engines: the page to write")
    ap.add_argument("--sim-forwarding", type=Path, metavar="DISSEM_SIM",
                    help="run this dissem-sim on the multi-hop networks with every forwarding controller and write "
                         "the page of their transmissions per delivery (sim_forwarding.py)")
    ap.add_argument("--sim-forwarding-out", type=Path, default=REPO / "docs" / "results" / "sim-forwarding.md",
                    help="with --sim-forwarding: the page to write")
    ap.add_argument("--merge", action="store_true",
                    help="write the pages of the scenarios in RESULTS_DIR into --out beside the pages already "
                         "there: their index lines replace the old ones of the same pages (or join the index), "
                         "every other page stays as it is (a campaign run again alone)")
    ap.add_argument("--ours-vs-norm", action="store_true",
                    help="print ours/NORM time and bytes for every cell of the baseline pages in --results "
                         "(from its summary.json)")
    args = ap.parse_args(argv)
    if args.check and not args.readme:
        ap.error("--check goes with --readme")
    if args.readme:
        return _readme(args.readme, args.pages, args.check)
    if args.ours_vs_norm:
        return _ours_vs_norm(args.pages)
    if args.many_receivers_engines:
        from . import many_receivers_engines
        for d in args.many_receivers_engines:
            if not d.is_dir():
                return _fail(f"{d} is not a directory")
        written = many_receivers_engines.write(*args.many_receivers_engines, args.many_receivers_engines_out)
        print(f"report: wrote {written}")
        return 0
    if args.sim_forwarding:
        from . import sim_forwarding
        if not args.sim_forwarding.is_file():
            return _fail(f"{args.sim_forwarding} is not a file")
        print(f"report: wrote {sim_forwarding.write(args.sim_forwarding, args.sim_forwarding_out, REPO)}")
        return 0
    if args.shared_medium:
        from . import shared_medium
        pairs = [(t, Path(e), Path(r)) for t, e, r in args.shared_medium]
        for _, e, r in pairs:
            for d in (e, r):
                if not d.is_dir():
                    return _fail(f"{d} is not a directory")
        print(f"report: wrote {shared_medium.write(pairs, args.shared_medium_out)}")
        return 0
    if args.agreement:
        from . import engine_agreement
        for d in [*args.agreement, *([args.agreement_before] if args.agreement_before else [])]:
            if not d.is_dir():
                return _fail(f"{d} is not a directory")
        written = engine_agreement.write(*args.agreement, args.agreement_out, args.engine_cost, args.agreement_before)
        print(f"report: wrote {written}")
        return 0
    if args.results is None:
        ap.error("give RESULTS_DIR (or --readme / --ours-vs-norm)")
    return _pages(args)


def _fail(message: str) -> int:
    print(f"report: {message}", file=sys.stderr)
    return 2


def _readme(readme: Path, pages: Path, check: bool) -> int:
    """--readme [--check]: the results section and summary.json from the pages."""
    summary_path = pages / summary.FILE
    try:
        fresh = summary.dumps(summary.build(pages))
        now = summary_path.read_text() if summary_path.is_file() else ""
        # The section comes from summary.json as it stands (checked) or as it will be written.
        source = summary.load(pages) if check else summary.json_of(fresh)
        readme_text = readme.read_text()
        new_readme = readme_section.updated(readme_text,
                                            readme_section.render(source, readme_section.results_link(readme, pages)))
    except (SummaryError, ReadmeError, OSError) as e:
        return _fail(str(e))
    if check:
        stale = []
        if now != fresh:
            sys.stdout.write(readme_section.diff(now, fresh, str(summary_path)))
            stale.append(f"{summary_path} (not what the pages beside it say)")
        if new_readme != readme_text:
            sys.stdout.write(readme_section.diff(readme_text, new_readme, str(readme)))
            stale.append(f"{readme}'s results section")
        if stale:
            print(f"report: {' and '.join(stale)} differ from what emulation/report would write now; run "
                  f"emulation/report --readme {readme} --results {pages} and commit the result", file=sys.stderr)
            return 1
        print(f"report: {readme}'s results section and {summary_path} say what {pages} says")
        return 0
    for path, old, new in ((summary_path, now, fresh), (readme, readme_text, new_readme)):
        if old != new:
            path.write_text(new)
            print(f"report: wrote {path}")
        else:
            print(f"report: {path} already up to date")
    return 0


def _ours_vs_norm(pages: Path) -> int:
    try:
        lines = readme_section.ours_vs_norm(summary.load(pages))
    except SummaryError as e:
        return _fail(str(e))
    if not lines:
        return _fail(f"{pages} has no baseline page")
    print("\n".join(lines))
    return 0


def _pages(args) -> int:
    """The pages, their index, their plots and summary.json from a results directory."""
    from . import (baseline_report, gateway_report, multihop_report, seed000_report,  # matplotlib: only here
                   tactical_report)
    from . import engine_agreement, many_receivers_engines, shared_medium, sim_forwarding
    from .run_metrics import load_runs
    if not args.results.is_dir():
        print(f"report: {args.results} is not a directory", file=sys.stderr)
        return 2
    runs = load_runs(args.results)
    if not runs:
        print(f"report: no result.json under {args.results}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    by_scenario: dict[str, list] = {}
    for r in runs:
        by_scenario.setdefault(r.scenario, []).append(r)
    index = [f"# {args.title}\n"]
    seed000 = sorted(s for s, rs in by_scenario.items() if seed000_report.is_seed000(s, rs[0].cell))
    paged = {module: sorted(s for s in by_scenario if is_it(s)) for module, is_it in _seed_pages().items()}
    for scenario, scenario_runs in sorted(by_scenario.items()):
        if scenario in seed000:
            if scenario == seed000[0]:  # one page for all of them, in the first one's place
                index.append(_seed000_page(args, seed000, [r for s in seed000 for r in by_scenario[s]]))
            continue
        module = next((m for m, names in paged.items() if scenario in names), None)
        if module is not None:
            if scenario == paged[module][0]:
                index.append(_seed_page(args, module, paged[module], [r for s in paged[module] for r in by_scenario[s]]))
            continue
        cell = scenario_runs[0].cell
        if gateway_report.is_gateway(scenario):
            body = gateway_report.section(args.results, [scenario])
        elif {"capacity_kbps", "reliability_pct"} <= cell.keys():
            receivers = max(r.subscribers for r in scenario_runs)
            body = baseline_report.section(scenario, scenario_runs, receivers, args.reference, args.out)
        elif {"asymmetric", "sender_reliability_pct", "message_size"} <= cell.keys():
            body = tactical_report.section(scenario, scenario_runs, args.reference, args.out)
        else:
            # Anything else: multi-hop/disruption figures (line, grid, partition).
            body = multihop_report.section(scenario, multihop_report.load(args.results, scenario), args.out)
        page = args.out / f"{scenario}.md"
        page.write_text(f"# {scenario}\n\n{engine_line(scenario_runs)}{body}")
        if gateway_report.is_gateway(scenario):
            ok = sum(r.status == "ok" for r in scenario_runs)
            index.append(f"- [{scenario}]({page.name}): {len(scenario_runs)} runs, {ok} ok")
        else:
            ok = sum(r.complete for r in scenario_runs)
            index.append(f"- [{scenario}]({page.name}): {len(scenario_runs)} runs, {ok} complete")
        print(f"report: wrote {page}")
    # Written by scripts/engine-agreement.sh and by --sim-forwarding, kept across reports.
    for module in (engine_agreement, shared_medium, many_receivers_engines, sim_forwarding):
        if (args.out / module.PAGE).is_file():
            index.append(module.INDEX_LINE)
    index_path = args.out / "README.md"
    if args.merge and index_path.is_file():
        index = merged_index(index_path.read_text(), index[1:])
    index_path.write_text("\n".join(index) + "\n")
    print(f"report: wrote {summary.write(args.out)}")
    return 0


def merged_index(old: str, lines: list[str]) -> list[str]:
    """The index `old` with `lines` merged in: a line replaces the old one
    of the same page, in its place; a new page's line goes before the lines
    of the pages other tools write (engine agreement, simulator), which the
    report keeps as they are."""
    def page_of(line: str) -> str | None:
        m = re.match(r"^- \[[^\]]*\]\(([^)]+)\)", line)
        return m[1] if m else None

    fresh = {page_of(line): line for line in lines if page_of(line)}
    out = [fresh.pop(page_of(line), line) if page_of(line) else line for line in old.rstrip("\n").split("\n")]
    from . import engine_agreement, many_receivers_engines, shared_medium, sim_forwarding
    kept = {m.PAGE for m in (engine_agreement, shared_medium, many_receivers_engines, sim_forwarding)}
    at = next((i for i, line in enumerate(out) if page_of(line) in kept), len(out))
    out[at:at] = list(fresh.values())
    return out


def _seed_pages() -> dict:
    """Modules that write one page for several scenarios: module -> which scenarios are its."""
    from . import (emcon_report, many_receivers_report, seed002_report, seed003_report, seed004_report,
                   two_nets_report)
    return {seed002_report: seed002_report.is_seed002, seed003_report: seed003_report.is_seed003,
            seed004_report: seed004_report.is_seed004, many_receivers_report: many_receivers_report.is_many_receivers,
            emcon_report: emcon_report.is_emcon, two_nets_report: two_nets_report.is_two_nets}


def _seed_page(args, module, scenarios: list[str], runs: list) -> str:
    """One page per seed paper (002, 003, 004) for its scenarios; its index line."""
    body = module.section(module.load(args.results, scenarios), args.out)
    page = args.out / f"{module.SCENARIO_PREFIX}.md"
    page.write_text(f"# {module.SCENARIO_PREFIX} ({', '.join(scenarios)})\n\n{engine_line(runs)}{body}")
    ok = sum(r.status == "ok" for r in runs)
    print(f"report: wrote {page}")
    return f"- [{module.SCENARIO_PREFIX}]({page.name}) ({', '.join(scenarios)}): {len(runs)} runs, {ok} ok"


def _seed000_page(args, scenarios: list[str], runs: list) -> str:
    """One page for the seed-000 scenarios together; its index line."""
    from . import seed000_report
    body = seed000_report.section(seed000_report.load(args.results, scenarios), args.reference, args.out)
    page = args.out / "seed000.md"
    page.write_text(f"# seed000 ({', '.join(scenarios)})\n\n{engine_line(runs)}{body}")
    ok = sum(r.status == "ok" for r in runs)
    print(f"report: wrote {page}")
    return (f"- [seed000: message replacement]({page.name}) ({', '.join(scenarios)}): {len(runs)} runs, "
            f"{ok} ok")
