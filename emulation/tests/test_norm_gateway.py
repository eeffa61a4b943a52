"""dissem-norm-gateway in the emulator (emulation/scenarios/norm-gateway.toml):
a NORM sender (NRL NORM through dissem-norm) in one namespace reaches a
dissem subscriber in another, a dissem publisher reaches a NORM receiver,
byte for byte, at 100 % and 80 % link reliability, through one gateway and
through two, and nothing loops: the subscriber and the NORM receiver listen
on well past the end and keep every copy they get. Needs root; see
root_tests.py."""

import hashlib
import struct
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from root_tests import require_root  # noqa: E402
from test_end_to_end import run_campaign  # noqa: E402

require_root("the NORM gateway in the emulator")

NORM_OBJECTS = 3
NORM_BYTES = 40000
MASK = (1 << 64) - 1


def norm_payload(index: int, size: int) -> bytes:
    """dissem-norm's deterministic payload (emulation/baselines/common/payload.cpp):
    word k is splitmix64's output for (0x6E6F726D00000000 ^ index) + (k + 1) * golden."""
    words = []
    for k in range((size + 7) // 8):
        z = ((0x6E6F726D00000000 ^ index) + (k + 1) * 0x9E3779B97F4A7C15) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        words.append(struct.pack("<Q", z ^ (z >> 31)))
    return b"".join(words)[:size]


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_norm_and_dissem_bridge_both_ways_through_one_or_two_gateways_without_loops(tmp_path):
    results = run_campaign("norm-gateway.toml", tmp_path, "--jobs", "4")
    assert len(results) == 4
    from_norm = Counter(digest(norm_payload(i, NORM_BYTES)) for i in range(NORM_OBJECTS))
    for r in results:
        cell = r["cell"]
        where = f"{cell['reliability_pct']} % / {cell['gateways']} gateway(s)"
        assert r["status"] == "ok", (where, r.get("reason"))
        nodes = {n["name"]: n for n in r["nodes"]}
        workdir = {name: r["_dir"] / n["workdir"] for name, n in nodes.items()}
        from_dissem = Counter(digest((workdir["pub"] / m).read_bytes()) for m in ("m1", "m2"))
        inbox = Counter(digest(p.read_bytes()) for p in (workdir["sub"] / "inbox").iterdir())
        objects_dir = workdir["norm-rx"] / "objects"
        on_norm = Counter(digest(p.read_bytes()) for p in objects_dir.glob("*.data")) if objects_dir.exists() \
            else Counter()
        gateways = [nodes[g]["collected"] for g in ("gw1", "gw2")[:cell["gateways"]]]
        for g in gateways:
            assert g.get("final") is False and g["dissem_connected"], (where, g)
        # NORM -> dissem and dissem -> NORM, every byte: all arrived.
        assert set(inbox) == set(from_norm) | set(from_dissem), (where, inbox)
        assert set(on_norm) == set(from_dissem), (where, on_norm)
        # The NORM receiver also heard the NORM sender directly: its own check of the bytes.
        rx = nodes["norm-rx"]["result"]
        assert rx["content_errors"] == 0 and len(rx["messages"]) == NORM_OBJECTS, (where, rx)
        # Nothing loops: dissem's own messages never came back into dissem
        # through NORM, NORM's never went back onto NORM, and copies are
        # bounded by one per gateway (a loop would keep making more).
        assert not set(inbox) - set(from_norm) - set(from_dissem)
        assert all(inbox[d] == 1 for d in from_dissem), (where, inbox)
        assert rx["unidentified"] == sum(on_norm.values())
        to_dissem = sum(g["to_dissem"] for g in gateways)
        to_norm = sum(g["to_norm"] for g in gateways)
        assert sum(inbox[d] for d in from_norm) == to_dissem <= NORM_OBJECTS * len(gateways), (where, gateways)
        assert sum(on_norm.values()) == to_norm <= 2 * len(gateways), (where, gateways)
        for g in gateways:
            # Each saw messages it must not send back (its own publications
            # return as deliveries; the other gateway's copies), and refused them.
            assert g["loops_prevented"] >= NORM_OBJECTS, (where, g)
            assert g["norm_send_errors"] == 0 and g["dissem_publish_failures"] == 0, (where, g)
        if len(gateways) == 1:
            assert to_dissem == NORM_OBJECTS and to_norm == 2, (where, gateways)
        else:
            # Two gateways with a 3 s holdoff: the later one mostly drops its copy.
            assert sum(g["duplicates_suppressed"] for g in gateways) >= 1, (where, gateways)
        if cell["reliability_pct"] < 100:
            links = r["emulator"]["stats"]["totals"]["links"]
            assert 0.15 < links["lost"] / links["offered"] < 0.25, where
