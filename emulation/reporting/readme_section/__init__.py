"""The README's results section, written from the results' summary.json.

Every measured figure in the section is read from docs/results/summary.json
(the tables of the results pages, emulation/reporting/summary.py) and links
the page it comes from; what is typed here is the prose around them, the
experiments' set-ups and design facts, never a measurement. A verdict (a
target met or missed, what is still lost, which system is ahead) is worked
out from the figures, so it changes when they do.

    emulation/report --readme README.md --results docs/results           # rewrite it
    emulation/report --readme README.md --results docs/results --check   # exit 1 with a diff if stale

The section sits between BEGIN and END; everything outside them is left
alone.

cells.py reads a page's table cells and formatting.py writes figures;
section.py puts the parts together (tables_1_2.py, table_3.py, multihop.py,
hostile_air.py, gateway.py, seed000.py, seed002.py, seed003.py, seed004.py;
baseline_pages.py is what the baseline parts share) and wrap.py folds the
lines; splice.py puts the section into the README. ours_vs_norm.py is
emulation/report --ours-vs-norm."""

from .ours_vs_norm import ours_vs_norm
from .section import render
from .splice import BEGIN, END, ReadmeError, diff, results_link, split, updated

__all__ = ["BEGIN", "END", "ReadmeError", "diff", "ours_vs_norm", "render", "results_link", "split", "updated"]
