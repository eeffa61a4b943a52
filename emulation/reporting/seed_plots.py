"""PNG plots of the seed-002/003/004 pages (matplotlib, no display):
tracks per minute against the link rate, and latency ECDFs."""

from __future__ import annotations

from pathlib import Path
from statistics import mean

from .plots import _save, _slug, _system_colors, plt


def tracks_per_minute(name: str, runs: list[dict], paper: dict[int, float], out_dir: Path) -> list[Path]:
    rates = sorted({r["rate_bps"] for r in runs})
    systems = sorted({r["system"] for r in runs})
    if not rates:
        return []
    colors = _system_colors(systems)
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for system in systems:
        xs, ys = [], []
        for rate in rates:
            worst = [min(r["tracks_per_min"].values()) for r in runs
                     if r["system"] == system and r["rate_bps"] == rate and r["tracks_per_min"]]
            if worst:
                xs.append(rate)
                ys.append(max(mean(worst), 1e-2))  # 0 drawn at the floor of the log axis
        ax.plot(xs, ys, marker="o", color=colors[system], label=f"{system} (worst receiver)")
    known = [r for r in rates if r in paper]
    if known:
        ax.plot(known, [paper[r] for r in known], marker="s", linestyle="--", color="tab:gray",
                label="paper: UDP, one track per datagram")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("link rate (bit/s)")
    ax.set_ylabel("tracks/min delivered")
    ax.set_title(f"{name}: 134-byte tracks offered above capacity", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    return [_save(fig, out_dir / f"{_slug(name)}-tracks.png")]


def latency_ecdf(name: str, by_system: dict[str, list[float]], out_dir: Path) -> list[Path]:
    drawn = {s: sorted(v) for s, v in by_system.items() if v}
    if not drawn:
        return []
    colors = _system_colors(list(drawn))
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for system, lat in drawn.items():
        ax.step(lat, [(i + 1) / len(lat) for i in range(len(lat))], where="post", color=colors[system],
                label=f"{system} ({len(lat)} messages)")
    ax.set_xscale("log")
    ax.set_xlabel("latency (ms)")
    ax.set_ylabel("fraction of the messages received")
    ax.set_title(f"{name}: latency ECDF", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    return [_save(fig, out_dir / f"{_slug(name)}-latency.png")]
