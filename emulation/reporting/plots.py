"""PNG plots (matplotlib, no display): delivery time and bytes against
capacity for each reliability; success rate against sender reliability; the
ECDF of per-message latency; delivery and transmissions per delivery for the
multi-hop experiments; latency over time and its ECDF for the seed-000
replacement experiments."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

STYLE = {"dissem": ("tab:blue", "o", "ours"), "dissem-arq": ("tab:cyan", "v", "ours, coding off (ARQ)"),
         "norm": ("tab:red", "s", "NORM (same run)"), "pgm": ("tab:green", "D", "OpenPGM (same run)"),
         "jgroups": ("tab:purple", "P", "JGroups (same run)"),
         "norm-pfec": ("tab:red", "s", "NORM pfec (same run)"), "norm-rfec": ("tab:orange", "^", "NORM rfec (same run)")}
PAPER = {"norm": ("tab:red", "NORM (paper)"), "disservice": ("tab:gray", "DisService (paper)"),
         "openpgm": ("tab:green", "OpenPGM (paper)"), "jgroups": ("tab:purple", "JGroups (paper)")}


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
            ("bytes", "bytes on air (MB)", "bytes_on_air_completed", "bytes", 1e6)):
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


def _system_colors(systems: list[str]) -> dict[str, str]:
    palette = ["tab:blue", "tab:green", "tab:purple", "tab:orange", "tab:brown", "tab:cyan"]
    return {s: palette[i % len(palette)] for i, s in enumerate(systems)}


def multihop(name: str, figures: dict, out_dir: Path) -> list[Path]:
    """figures: cell label -> system -> {delivered_pct, frames_per_delivery,
    latencies}. Bars of delivery and transmissions per delivery for every
    cell and system, and the latency ECDF of each system over all cells."""
    labels = list(figures)
    systems = sorted({s for per in figures.values() for s in per})
    if not labels or not systems:
        return []
    colors = _system_colors(systems)
    width = 0.8 / len(systems)
    fig, axes = plt.subplots(1, 2, figsize=(max(7.0, 2.2 * len(labels) * 2), 3.8), squeeze=False)
    for ax, attr, ylabel in ((axes[0][0], "delivered_pct", "delivered (%)"),
                             (axes[0][1], "frames_per_delivery", "frames on air per delivery")):
        for i, system in enumerate(systems):
            xs, ys = [], []
            for j, label in enumerate(labels):
                value = figures[label].get(system, {}).get(attr)
                if value is not None:
                    xs.append(j + (i - (len(systems) - 1) / 2) * width)
                    ys.append(value)
            ax.bar(xs, ys, width=width, color=colors[system], label=system)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel(ylabel)
        ax.grid(True, axis="y", alpha=0.3)
    axes[0][0].set_ylim(0, 105)
    axes[0][0].legend(fontsize=7)
    fig.suptitle(name, fontsize=10)
    out = [_save(fig, out_dir / f"{_slug(name)}-delivery.png")]

    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    drawn = False
    for system in systems:
        lat = sorted(x for per in figures.values() for x in per.get(system, {}).get("latencies", []))
        if lat:
            ax.step(lat, [(i + 1) / len(lat) for i in range(len(lat))], where="post", color=colors[system],
                    label=system)
            drawn = True
    if not drawn:
        plt.close(fig)
        return out
    ax.set_xscale("log")
    ax.set_title(f"{name}: per-message latency (all cells)", fontsize=9)
    ax.set_xlabel("latency (s)")
    ax.set_ylabel("fraction of messages delivered")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    out.append(_save(fig, out_dir / f"{_slug(name)}-latency-ecdf.png"))
    return out


SEED000_COLORS = {"dissem-replace": "tab:blue", "dissem-replace-source": "tab:cyan", "dissem": "tab:green",
                  "tcp": "tab:red"}
STREAM_MARKERS = ["o", "^", "s", "D"]


def seed000(name: str, runs: list[dict], systems: list[str], out_dir: Path) -> list[Path]:
    """Latency against production time (each system's first seed, like the
    paper's figures) and the latency ECDF (all seeds), per system and stream."""
    streams = []
    for r in runs:
        streams += [s for s in r["streams"] if s not in streams]
    if not runs or not streams:
        return []
    palette = _system_colors(systems)
    colors = {s: SEED000_COLORS.get(s, palette[s]) for s in systems}
    fig, (over_time, ecdf) = plt.subplots(1, 2, figsize=(11, 4.0))
    drawn = False
    for system in systems:
        mine = sorted((r for r in runs if r["system"] == system), key=lambda r: r["seed"])
        for k, stream in enumerate(streams):
            label = f"{system}: {stream}"
            first = mine[0]["streams"].get(stream) if mine else None
            if first and first.latencies:
                over_time.scatter(first.produced_at, first.latencies, s=6, color=colors[system],
                                  marker=STREAM_MARKERS[k % len(STREAM_MARKERS)], label=label)
            lat = sorted(x for r in mine if stream in r["streams"] for x in r["streams"][stream].latencies)
            if lat:
                ecdf.step(lat, [(i + 1) / len(lat) for i in range(len(lat))], where="post", color=colors[system],
                          linestyle=["-", "--", ":", "-."][k % 4], label=label)
                drawn = True
    if not drawn:
        plt.close(fig)
        return []
    over_time.set_yscale("log")
    over_time.set_xlabel("produced at (s after the publisher's start)")
    over_time.set_ylabel("latency (s)")
    over_time.set_title(f"{name}: latency of each update received (first seed)", fontsize=9)
    over_time.grid(True, which="both", alpha=0.3)
    ecdf.set_xscale("log")
    ecdf.set_xlabel("latency (s)")
    ecdf.set_ylabel("fraction of the updates received")
    ecdf.set_title(f"{name}: latency ECDF (all seeds)", fontsize=9)
    ecdf.grid(True, which="both", alpha=0.3)
    ecdf.legend(fontsize=7)
    return [_save(fig, out_dir / f"{_slug(name)}-latency.png")]
