"""The README's results section is what emulation/report writes from
docs/results (through docs/results/summary.json), and the check says so
when it is not: a changed figure in the README, or a page that changed
without its summary."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reporting import readme_section, summary
from test_report import run_report, write_run

REPO = Path(__file__).resolve().parents[2]
REPORT = REPO / "emulation" / "report"


def report(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPORT), *args], capture_output=True, text=True, timeout=120, cwd=cwd)


@pytest.fixture
def copy(tmp_path):
    """README.md and docs/results (pages, summary.json, runtime.txt) laid out as in the repository."""
    shutil.copy(REPO / "README.md", tmp_path / "README.md")
    results = tmp_path / "docs" / "results"
    results.mkdir(parents=True)
    for path in (REPO / "docs" / "results").iterdir():
        if path.suffix in (".md", ".json", ".txt"):
            shutil.copy(path, results / path.name)
    return tmp_path


def check(root: Path) -> subprocess.CompletedProcess:
    return report("--readme", str(root / "README.md"), "--results", str(root / "docs" / "results"), "--check")


def test_the_readme_says_what_docs_results_says():
    proc = report("--readme", "README.md", "--results", "docs/results", "--check")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("report: README.md's results section and docs/results/summary.json say what")


def test_the_check_passes_on_a_copy_and_fails_on_a_changed_figure(copy):
    assert check(copy).returncode == 0
    readme = copy / "README.md"
    text = readme.read_text()
    row = next(x for x in text.splitlines() if x.startswith("| dissemd (replace) | "))
    typed = re.sub(r"^\| dissemd \(replace\) \| \d+ of", "| dissemd (replace) | 1 of", row)
    readme.write_text(text.replace(row, typed))
    proc = check(copy)
    assert proc.returncode == 1
    assert f"\n-{typed}\n" in proc.stdout and f"\n+{row}\n" in proc.stdout
    assert "README.md's results section differ from what emulation/report would write now" in proc.stderr
    # A figure typed outside the section is not the check's business.
    readme.write_text(text.replace("## Results so far (simulator)", "## Results so far (simulator, 1.0 s)"))
    assert check(copy).returncode == 0


def test_a_page_that_changed_fails_the_check_until_the_readme_is_written_again(copy):
    page = copy / "docs" / "results" / "seed003.md"
    row = next(x for x in page.read_text().splitlines() if x.startswith("| dissem |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    received = int(cells[3])
    page.write_text(page.read_text().replace(row, row.replace(f"| {received} |", f"| {received - 7} |", 1)))
    proc = check(copy)
    assert proc.returncode == 1
    assert "summary.json (not what the pages beside it say)" in proc.stderr
    # Written again: the summary, then the section from it; now the check passes.
    before = (copy / "README.md").read_text()
    proc = report("--readme", str(copy / "README.md"), "--results", str(copy / "docs" / "results"))
    assert proc.returncode == 0, proc.stderr
    assert check(copy).returncode == 0
    after = (copy / "README.md").read_text()
    produced = int(cells[2])
    assert f"| dissemd (replace) | {received - 7} of {produced} |" in after
    assert f"The {produced - received + 7} updates dissemd did not deliver" in after
    # Nothing outside the markers moved.
    outside = [readme_section.split(t)[0] + readme_section.split(t)[2] for t in (before, after)]
    assert outside[0] == outside[1]


def test_every_figure_of_the_section_links_its_results_page():
    """Every paragraph with a number links a page; a table does, or the paragraph that introduces it."""
    _, section, _ = readme_section.split((REPO / "README.md").read_text())
    blocks = section.split("\n\n")
    for before, block in zip([""] + blocks, blocks):
        if re.search(r"\d", block) and not block.startswith(("```", "#")):
            linked = "](docs/results/" in block or (block.startswith("|") and "](docs/results/" in before)
            assert linked, block[:200]


def test_a_readme_without_the_markers_is_refused(copy):
    readme = copy / "README.md"
    readme.write_text(readme.read_text().replace(readme_section.END, ""))
    proc = check(copy)
    assert proc.returncode == 2 and "results:end" in proc.stderr


def test_the_summary_holds_every_table_row_of_the_pages():
    s = summary.load(REPO / "docs" / "results")
    assert s == summary.build(REPO / "docs" / "results")
    for name, page in s["pages"].items():
        text = (REPO / "docs" / "results" / name).read_text()
        rows = sum(len(t["rows"]) + 2 for t in page["tables"])   # header and separator
        assert rows == sum(line.startswith("|") for line in text.splitlines()), name
    assert {e["page"] for e in s["index"]} <= set(s["pages"])


def test_a_row_that_does_not_fit_its_header_is_an_error():
    with pytest.raises(summary.SummaryError, match=r"x\.md, line 5: 3 cells under 2 columns"):
        summary.parse_page("x.md", "# x\n\n| a | b |\n|---|---|\n| 1 | 2 | 3 |\n")


def test_the_report_writes_the_summary_with_the_pages_and_the_demo_reads_ours_against_norm(tmp_path):
    results, out, ref = tmp_path / "results", tmp_path / "out", tmp_path / "ref"
    ref.mkdir()
    for reliability, latency in ((100, 7.0), (70, 10.0)):
        cell = {"capacity_kbps": 1024, "reliability_pct": reliability, "shared_channel": 0}
        write_run(results, "baseline-1to3", cell, "dissem", 1, latency=latency, frames=700)
        write_run(results, "baseline-1to3", cell, "norm", 1, latency=latency * 1.25, frames=800)
    run_report(results, out, ref)
    written = json.loads((out / "summary.json").read_text())
    assert written == summary.build(out)
    time = next(t for t in written["pages"]["baseline-1to3.md"]["tables"] if "ours s" in t["columns"])
    assert [r[:2] for r in time["rows"]] == [["100", "1024"], ["70", "1024"]]
    proc = report("--ours-vs-norm", "--results", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "baseline-1to3, radios, 100 %, 1024 kbit/s: ours/NORM time 0.80, bytes 0.88",
        "baseline-1to3, radios, 70 %, 1024 kbit/s: ours/NORM time 0.80, bytes 0.88"]
