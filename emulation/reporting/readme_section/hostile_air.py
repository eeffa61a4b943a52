"""Hostile air: a transfer beside a rogue node, with integrity alone and
with authentication, against the same transfer undisturbed."""

from __future__ import annotations

from typing import Any

from .cells import need, rows
from .formatting import Links, f1, f2, md_table


ATTACKS = {"every": "every attack in turn", "request-flood": "a request flood"}
SETUPS = {"attacked": "without keys", "authenticated": "with keys"}


def hostile_air(summary: dict[str, Any], link: Links) -> list[str]:
    page = "hostile-air.md"
    delivered = {(r["cell"], r["system"]): r for r in rows(summary, page, "delivered %")}
    attacked = rows(summary, page, "x undisturbed")
    body, over = [], []
    for r in attacked:
        d = delivered[(r["cell"], r["system"])]
        attack = r["cell"].split(",")[0].removeprefix("attack=")
        x = need(r["x undisturbed"], page)
        if x > 1.25:
            over.append(f"{ATTACKS.get(attack, attack)} {SETUPS.get(r['system'], r['system'])} ({f2(x)}x)")
        body.append([attack, r["system"], d["delivered %"], r["forged bytes delivered (content errors)"],
                     r["transfer s (runs complete)"], r["x undisturbed"], r["repair B per request B"],
                     r["requests trimmed"], r["malformed counted"], r["integrity events"],
                     r["peak RSS MB (max member)"]])
    forged = sum(need(r["forged bytes delivered (content errors)"], page) for r in attacked)
    all_in = all(need(d["delivered %"], page) == 100.0 for d in delivered.values())
    rss = max(need(r["peak RSS MB (max member)"], page) for r in attacked)
    verdict = ("met under every attack, with keys and without" if not over
               else f"missed under {'; '.join(over)}, and met in the other attacked cells")
    return [
        "**Hostile air** (" + link(page) + "). A 1-to-3 transfer of 20 x 10 KB at 90 % links, 1 Mbit/s radios,"
        " beside a rogue node in its own namespace (`dissem-rogue` at 300 datagrams a second: either every"
        " attack in turn, malformed datagrams, phantom-beacon floods, request floods for the real stream,"
        " corrupted copies and replays, or a request flood alone), with integrity alone ('attacked': no keys),"
        " with authentication on ('authenticated': network key, signed and sealed group) and undisturbed:\n",
        md_table(["attack", "system", "delivered %", "forged bytes delivered", "transfer s (runs complete)",
                  "x undisturbed", "repair B per request B", "requests trimmed", "malformed counted",
                  "integrity events", "peak RSS MB"], body) + "\n",
        (f"In {link(page)} every message arrived in every run" if all_in
         else f"Not every message arrived ({link(page)})")
        + (", and no forged byte reached an application." if forged == 0
           else f"; {forged:.0f} messages reached an application with bytes not the publisher's.")
        + f" The target for the transfer time, at most 1.25x undisturbed, is {verdict}. The largest peak"
        f" resident memory of a member's daemon was {f1(rss)} MB (the cap at the defaults, docs/threat-model.md:"
        " 256 MB).\n",
    ]
