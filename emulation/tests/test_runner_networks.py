"""Several emulated networks in one run ([networks]): a node on two is a
gateway with an interface on each. The scenario keys, the placeholders,
the links each network's emulator gets, and a whole run with the fake
emulator: one emulator per network, the later one joining the first one's
namespace of the shared node (no root)."""

import ipaddress
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import RUN, FAKE_EMU, fake_log, run_runner
from runner import engines, errors, facts, matrix, networks, scenario, topology

TWO_NETS = """
name = "nets"
time_limit_s = 30
[nodes]
names = ["a1", "a2", "gw", "b1"]
[nodes.roles]
gateway = ["gw"]
[topology]
kind = "full"
capacity_bps = 1000000
reliability = 0.9
{override}
[networks.a]
nodes = ["a1", "a2", "gw"]
[networks.a.emulator]
radio_bps = 1000000
[networks.b]
nodes = ["gw", "b1"]
{b_keys}
[networks.b.emulator]
half_duplex_bps = 2400
turnaround_ms = 1000
[systems.s.roles.all]
command = "true"
[systems.s.roles.gateway]
command = {gateway_command}
"""

GATEWAY_ECHO = ("\"echo '{{\\\"a\\\": \\\"{interface_a}\\\", \\\"b\\\": \\\"{interface_b}\\\", "
                "\\\"own\\\": \\\"{interface}\\\", \\\"address_b\\\": \\\"{address_b}\\\", "
                "\\\"subnet_b\\\": \\\"{subnet_b}\\\"}}'\"")


def text(override="", b_keys="", gateway_command=GATEWAY_ECHO, emulator=""):
    return TWO_NETS.format(override=override, b_keys=b_keys, gateway_command=gateway_command) + emulator


def load(write_scenario, **kw):
    return scenario.load(write_scenario(text(**kw)))


def test_each_network_has_its_nodes_interface_and_emulator(write_scenario):
    sc = load(write_scenario)
    a, b = sc.networks
    assert (a.name, a.nodes, a.interface) == ("a", [1, 2, 3], "emu0")
    assert (b.name, b.nodes, b.interface) == ("b", [3, 4], "emu1")
    assert a.emulator.radio_bps is not None and a.emulator.half_duplex_bps is None
    assert b.emulator.half_duplex_bps is not None and b.emulator.radio_bps is None
    assert {"interface_a", "interface_b", "address_a", "address_b", "subnet_b"} <= sc.node_names
    # Without [networks]: one network of every node through emu0, as before.
    plain = scenario.load(write_scenario(text().split("[networks.a]")[0] + "[systems.s.roles.all]\ncommand = \"true\"\n",
                                         name="plain.toml"))
    assert [(n.name, n.nodes, n.interface) for n in plain.networks] == [("", [1, 2, 3, 4], "emu0")]
    assert "interface_a" not in plain.node_names


def test_a_network_takes_its_own_links_in_its_own_node_ids(write_scenario):
    sc = load(write_scenario)
    x = topology.expand(sc, {"seed": 1}, horizon_s=30)
    assert (1, 4) not in x.links and (3, 4) in x.links, "no link across networks, one inside"
    a, b = (networks.restrict(x, n) for n in sc.networks)
    assert sorted(a.links) == [(i, j) for i in (1, 2, 3) for j in (1, 2, 3) if i != j]
    assert sorted(b.links) == [(1, 2), (2, 1)]  # gw is b's node 1, b1 its node 2
    assert not a.default_disconnected and not b.default_disconnected


def test_subnets_and_prefixes_share_out_the_runs_own():
    nets = [networks.Network("a", [1, 2], "emu0", None), networks.Network("b", [2, 3], "emu1", None)]
    assert networks.subnets(ipaddress.IPv4Network("10.77.3.0/24"), nets) == [
        ipaddress.IPv4Network("10.77.3.0/25"), ipaddress.IPv4Network("10.77.3.128/25")]
    assert networks.prefixes("e1234567", nets) == ["e1234567", "e1234567b"]
    three = nets + [networks.Network("c", [1], "emu2", None)]
    assert [str(s) for s in networks.subnets(ipaddress.IPv4Network("10.77.3.0/24"), three)] == [
        "10.77.3.0/26", "10.77.3.64/26", "10.77.3.128/26"]


@pytest.mark.parametrize("kw, key, message", [
    ({"b_keys": "interface = \"emu0\""}, "networks.b.interface", "another network's interface too"),
    ({"b_keys": "interface = \"e:1\""}, "networks.b.interface", "is not an interface name"),
    ({"b_keys": "nodes = [\"gw\", \"b1\"]\nhops = 2"}, "networks.b.hops", "unknown key"),
    ({"emulator": "[emulator]\nradio_bps = 9600\n"}, "networks.b.emulator.half_duplex_bps", "excludes radio_bps"),
    ({"gateway_command": "\"echo {interface_c}\""}, "systems.s.roles.gateway.command", "interface_c"),
])
def test_bad_networks_are_refused_naming_the_key(write_scenario, kw, key, message):
    if "b_keys" in kw and kw["b_keys"].startswith("nodes"):
        body = text().replace('[networks.b]\nnodes = ["gw", "b1"]\n', "[networks.b]\n" + kw["b_keys"] + "\n")
        path = write_scenario(body)
    else:
        path = write_scenario(text(**kw))
    with pytest.raises(errors.ScenarioError) as e:
        scenario.load(path)
    assert key in str(e.value) and message in str(e.value), str(e.value)


def test_a_node_on_no_network_and_a_link_across_networks_are_refused(write_scenario):
    orphan = text().replace('nodes = ["gw", "b1"]', 'nodes = ["gw"]')
    with pytest.raises(errors.ScenarioError, match="networks: node b1 is on no network"):
        scenario.load(write_scenario(orphan))
    across = text(override='[[topology.override]]\nfrom = "a1"\nto = "b1"\nreliability = 0.5')
    with pytest.raises(errors.ScenarioError, match=r"topology.override\[1\]: matches no link"):
        scenario.load(write_scenario(across, name="across.toml"))


def test_emane_refuses_several_networks_by_name(write_scenario):
    sc = load(write_scenario)
    lost = engines.refusals(sc, matrix.expand(sc.matrix), [1], "emane")
    assert any("[networks]" in line and "two NEMs" in line for line in lost), lost


def test_a_run_starts_one_emulator_per_network_the_second_joining_the_gateway(write_scenario, tmp_path, fake_env):
    out = tmp_path / "out"
    proc = run_runner(write_scenario(text()), out, env=fake_env)
    assert proc.returncode == 0, proc.stderr
    run = out / "nets" / "default" / "s" / "seed-1"
    result = json.loads((run / "result.json").read_text())
    assert result["status"] == "ok", result["reason"]
    starts = [e for e in fake_log(tmp_path) if e["event"] == "start"]
    assert len(starts) == 2
    first, second = starts
    prefix = first["prefix"]
    assert second["prefix"] == prefix + "b"
    args = second["argv"]
    assert args[args.index("--interface") + 1] == "emu1"
    assert args[args.index("--join") + 1] == f"1={prefix}-n3", "B's node 1 is the gateway, A's node 3"
    assert args[args.index("--nodes") + 1] == "2" and "--half-duplex-bps" in args and "--radio-bps" not in args
    assert "--interface" not in first["argv"] and "--radio-bps" in first["argv"]
    subnet = ipaddress.IPv4Network(result["subnet"])
    assert first["argv"][first["argv"].index("--subnet") + 1] == str(list(subnet.subnets(1))[0])
    assert args[args.index("--subnet") + 1] == str(list(subnet.subnets(1))[1])
    assert (run / "scenario-a.eel").is_file() and (run / "scenario-b.eel").is_file()
    assert (run / "emulator-a.stdout").is_file() and (run / "emulator-b-stats.json").is_file()
    cleaned = {e["prefix"] for e in fake_log(tmp_path) if e["event"] == "cleanup"}
    assert cleaned == {prefix, prefix + "b"}

    gw = next(n for n in result["nodes"] if n["name"] == "gw")
    assert gw["result"] == {"a": "emu0", "b": "emu1", "own": "emu0",
                            "address_b": str(list(list(subnet.subnets(1))[1].hosts())[0]),
                            "subnet_b": str(list(subnet.subnets(1))[1])}
    assert set(gw["networks"]) == {"a", "b"}
    b1 = next(n for n in result["nodes"] if n["name"] == "b1")
    assert b1["interface"] == "emu1" and b1["namespace"] == prefix + "b-n2"
    assert [n["name"] for n in result["networks"]] == ["a", "b"]
    assert result["networks"][1]["nodes"] == ["gw", "b1"] and result["networks"][1]["stats"] is not None


def test_dry_run_shows_each_networks_links_and_emulator(write_scenario):
    path = write_scenario(text())
    proc = subprocess.run([sys.executable, str(RUN), str(path), "--emu", str(FAKE_EMU), "--dry-run"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "EEL of network a (its node i: a1, a2, gw)" in proc.stdout
    assert "EEL of network b (its node i: gw, b1)" in proc.stdout
    assert "emulator b: " in proc.stdout and "--join 1=" in proc.stdout
    assert "node 4 b1 (10.77.0.130, emu1" in proc.stdout


def test_the_shipped_two_nets_scenario_loads(tmp_path):
    sc = scenario.load(Path(__file__).resolve().parents[1] / "scenarios" / "two-nets.toml")
    assert [(n.name, len(n.nodes), n.interface) for n in sc.networks] == [("a", 4, "emu0"), ("b", 3, "emu1")]
    names = facts.cell_facts(sc, matrix.expand(sc.matrix)[0], 1)
    x = topology.expand(sc, names, horizon_s=60)
    b = networks.restrict(x, sc.networks[1])
    assert all(p.unicast_bps == 0 and p.loss_pct == 0 for p in b.links.values()), "B's rate is its channel's"
