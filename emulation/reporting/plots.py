"""PNG plots (matplotlib, no display): delivery time and bytes against
capacity for each reliability; success rate against sender reliability; the
ECDF of per-message latency."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

STYLE = {"dissem": ("tab:blue", "o", "ours"), "norm": ("tab:red", "s", "NORM (same run)"),
         "norm-pfec": ("tab:red", "s", "NORM pfec (same run)"), "norm-rfec": ("tab:orange", "^", "NORM rfec (same run)")}
PAPER = {"norm": ("tab:red", "NORM (paper)"), "disservice": ("tab:gray", "DisService (paper)")}


def _save(fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")


def baseline(name: str, cells: dict, paper: dict, out_dir: Path) -> list[Path]:
    reliabilities = sorted({k[0] for k in cells}, reverse=True)
    if not reliabilities:
        return []
    out = []
    for metric, label, attr, paper_col, scale in (
            ("time", "delivery time (s)", "delivery_time_s", "time_s", 1.0),
            ("bytes", "bytes on air (MB)", "bytes_on_air", "bytes", 1e6)):
        fig, axes = plt.subplots(1, len(reliabilities), figsize=(4.2 * len(reliabilities), 3.6), squeeze=False)
        for ax, rel in zip(axes[0], reliabilities):
            keys = sorted((k for k in cells if k[0] == rel), key=lambda k: float(k[1]))
            caps = [float(k[1]) for k in keys]
            for system, (color, marker, text) in STYLE.items():
                ys = [getattr(cells[k][system], attr) if system in cells[k] else None for k in keys]
                pts = [(c, y / scale) for c, y in zip(caps, ys) if y is not None]
                if pts:
                    ax.plot(*zip(*pts), color=color, marker=marker, label=text)
            for who, (color, text) in PAPER.items():
                pts = [(c, paper[(int(rel), int(c))][f"{who}_{paper_col}"] / scale) for c in caps
                       if paper.get((int(rel), int(c)), {}).get(f"{who}_{paper_col}") is not None]
                if pts:
                    ax.plot(*zip(*pts), color=color, linestyle="--", alpha=0.6, label=text)
            ax.set_xscale("log")
            if metric == "time":
                ax.set_yscale("log")
            ax.set_title(f"reliability {rel} %")
            ax.set_xlabel("link capacity (kbit/s)")
            ax.set_ylabel(label)
            ax.grid(True, which="both", alpha=0.3)
        axes[0][0].legend(fontsize=7)
        out.append(_save(fig, out_dir / f"{_slug(name)}-{metric}.png"))
    return out


def tactical(name: str, cells: dict, paper: dict, out_dir: Path) -> list[Path]:
    if not cells:
        return []
    variants = sorted({k[0] for k in cells}, key=str)
    names = {v: "asymmetric" if v in (True, "true", 1) else "symmetric" for v in variants}
    sizes = sorted({int(k[2]) for k in cells})
    out = []
    fig, axes = plt.subplots(len(variants), len(sizes), figsize=(3.6 * len(sizes), 3.2 * len(variants)),
                             squeeze=False)
    for row, variant in enumerate(variants):
        for col, size in enumerate(sizes):
            ax = axes[row][col]
            keys = sorted((k for k in cells if k[0] == variant and int(k[2]) == size), key=lambda k: float(k[1]))
            rels = [float(k[1]) for k in keys]
            for system, (color, marker, text) in STYLE.items():
                pts = [(r, cells[k][system].success_pct) for r, k in zip(rels, keys) if system in cells[k]]
                if pts:
                    ax.plot(*zip(*pts), color=color, marker=marker, label=text)
            pts = [(r, paper[(int(r), size)]["success_pct_ds"]) for r in rels
                   if paper.get((int(r), size), {}).get("success_pct_ds") is not None]
            if pts:
                ax.plot(*zip(*pts), color="tab:gray", linestyle="--", label="DisService (paper)")
            ax.set_title(f"{names[variant]}, {size} B messages", fontsize=9)
            ax.set_xlabel("sender reliability (%)")
            ax.set_ylabel("success rate (%)")
            ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=7)
    out.append(_save(fig, out_dir / f"{_slug(name)}-success.png"))

    fig, axes = plt.subplots(1, len(variants), figsize=(5 * len(variants), 3.8), squeeze=False)
    for ax, variant in zip(axes[0], variants):
        for system, (color, _, text) in STYLE.items():
            lat = sorted(x for k, systems in cells.items() if k[0] == variant and system in systems
                         for x in systems[system].latencies_s)
            if lat:
                ax.step(lat, [(i + 1) / len(lat) for i in range(len(lat))], where="post", color=color, label=text)
        ax.set_xscale("log")
        ax.set_title(f"per-message latency, {names[variant]} (all cells)", fontsize=9)
        ax.set_xlabel("latency (s)")
        ax.set_ylabel("fraction of messages received")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=7)
    out.append(_save(fig, out_dir / f"{_slug(name)}-latency-ecdf.png"))
    return out
