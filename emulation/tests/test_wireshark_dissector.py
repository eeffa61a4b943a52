"""The Wireshark dissector (docs/wireshark/dissem.lua) over what the emulator
captured of a real run: three dissemd at 20 % loss moving a 1 MB file
(e2e-3nodes, with `pcap = true`). Every dissem datagram on the air must
decode, its kind must be one dissemd sends, and the counts must agree with
the daemons' own counters. Needs root; see root_tests.py. (Crafted
malformed datagrams and every field are checked without root in
tests/unit/wireshark_dissector_test.cpp.)"""

import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from root_tests import require_root  # noqa: E402
from test_end_to_end import REPO, run_campaign  # noqa: E402

require_root("the Wireshark dissector over an emulator capture")

SCRIPT = REPO / "docs/wireshark/dissem.lua"


def dissect(pcap: Path) -> list[tuple[str, list[str], str, str]]:
    """(source address, kinds of its frames (a bundle's items after it), malformed reason, first group) per datagram."""
    out = subprocess.run(["tshark", "-X", f"lua_script:{SCRIPT}", "-r", str(pcap), "-Y", "dissem", "-T", "fields",
                          "-E", "occurrence=a", "-E", "aggregator=,", "-e", "ip.src", "-e", "dissem.kind_name",
                          "-e", "dissem.malformed", "-e", "dissem.data.group"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    rows = []
    for line in out.stdout.splitlines():
        cols = (line.split("\t") + ["", "", "", ""])[:4]
        rows.append((cols[0], [k for k in cols[1].split(",") if k], cols[2], cols[3].split(",")[0]))
    return rows


def test_every_datagram_of_a_captured_run_decodes_and_matches_the_daemons_counters(tmp_path):
    scenario = tmp_path / "e2e-pcap.toml"
    text = (REPO / "emulation/scenarios/e2e-3nodes.toml").read_text()
    scenario.write_text(text.replace("[emulator]\n", "[emulator]\npcap = true\n", 1))
    (result,) = run_campaign(str(scenario), tmp_path / "out")
    assert result["status"] == "ok", result.get("reason")
    pcap_dir = result["_dir"] / "pcap"
    for node in sorted(result["nodes"], key=lambda n: n["id"]):
        rows = dissect(pcap_dir / f"n{node['id']}.pcap")
        assert rows, f"nothing captured at {node['name']}"
        assert not [r for r in rows if r[2]], [r for r in rows if r[2]][:5]
        sent = [r for r in rows if r[0] == node["address"]]
        kinds = Counter(k for r in sent for k in r[1] if k != "Bundle")
        assert set(kinds) <= {"Data", "MissingFragmentRequest", "Beacon", "Summary", "CodedSymbol",
                              "WindowSymbol"}, kinds
        # Against the daemon's own counts of what it sent, by kind (bundle
        # items each counted). Its counters are read once the run ends,
        # while the capture goes on until the emulator stops: a few more
        # beacons may be on it.
        traffic = node["collected"]["traffic"]
        beacons = traffic["beacon"]["sent"]["datagrams"]
        assert beacons <= kinds["Beacon"] <= beacons + 10, (node["name"], kinds, traffic)
        assert kinds["MissingFragmentRequest"] >= traffic["mfr"]["sent"]["datagrams"], (node["name"], kinds)
        data = sum(traffic[k]["sent"]["datagrams"] for k in ("data", "repair", "forward"))
        assert kinds["Data"] + kinds["CodedSymbol"] + kinds["WindowSymbol"] >= data, (node["name"], kinds, traffic)
        if node["name"] == "pub":
            assert kinds["Data"] >= 1048576 // 1500, kinds
            assert {r[3] for r in sent if r[1][:1] == ["Data"]} == {"e2e"}
