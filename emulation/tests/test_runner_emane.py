"""EMANE export: well-formed XML with the elements and attributes EMANE's
DTDs require, and an EEL that round-trips to the scenario's links."""

import xml.etree.ElementTree as ET

import pytest

from conftest import run_runner
from runner import eel, facts, scenario, topology
from runner.matrix import expand as expand_matrix

SCENARIO = """
name = "tactical"
description = "UAV to ground, asymmetric"
time_limit_s = 120
seeds = [4, 5]
[nodes]
names = ["uav", "g1", "g2", "g3"]
[nodes.roles]
sender = ["uav"]
ground = ["g1", "g2", "g3"]
[matrix]
reliability = [0.7, 0.9]
[topology]
kind = "partition-heal"
clusters = [2, 2]
partition_at_s = 30
heal_at_s = 60
capacity_bps = 1048576
reliability = 0.9
[[topology.override]]
from = "role:sender"
capacity_bps = 235520
reliability = "{reliability}"
asymmetric = true
[emulator]
radio_bps = 1048576
[systems.dissem.roles.all]
daemon = "dissemd --interface {interface} --socket {workdir}/sock --cache {workdir}/cache.db"
ready_probe = "dissem --socket {workdir}/sock stats"
[systems.dissem.roles.ground]
command = "dissem --socket {workdir}/sock subscribe intel --count 1 -q -o {workdir}/out.bin"
"""


def parse(path, root_tag):
    text = path.read_text()
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE ' + root_tag +
                           ' SYSTEM "file:///usr/share/emane/dtd/')
    root = ET.fromstring(text.split("\n", 2)[2])
    assert root.tag == root_tag
    return root


def params(elem):
    return {p.get("name"): p.get("value") for p in elem.findall("param")}


def test_export_files(write_scenario, tmp_path):
    path = write_scenario(SCENARIO)
    out = tmp_path / "emane"
    proc = run_runner(path, tmp_path / "runs", "--export-emane", str(out), "--cell", "reliability-0.7",
                      "--emane-control-if", "ctl0")
    assert proc.returncode == 0, proc.stderr
    assert "EMANE files for cell reliability-0.7 (seed 4)" in proc.stdout

    for i in range(1, 5):
        root = parse(out / f"platform-{i}.xml", "platform")
        p = params(root)
        assert p["eventservicedevice"] == "ctl0" and p["otamanagerdevice"] == "ctl0"
        assert p["otamanagerchannelenable"] == "on" and "eventservicegroup" in p
        nems = root.findall("nem")
        assert len(nems) == 1 and nems[0].get("id") == str(i)
        assert nems[0].get("definition") == f"commeffect-nem-{i}.xml"
        transport = nems[0].find("transport")
        assert transport.get("definition") == "emane-transvirtual.xml"
        assert params(transport) == {"device": "emane0", "address": f"10.100.0.{i}", "mask": "255.255.255.0"}
        # platform.dtd: params precede the nem elements
        tags = [c.tag for c in root]
        assert tags == ["param"] * tags.count("param") + ["nem"]

    nem = parse(out / "commeffect-nem-2.xml", "nem")
    assert nem.get("type") == "unstructured"
    # The transport on top, the shim below it (between the transport and the air).
    assert [(c.tag, c.get("definition")) for c in nem] == [("transport", "emane-transvirtual.xml"),
                                                           ("shim", "commeffect-shim-2.xml")]
    shim = parse(out / "commeffect-shim-2.xml", "shim")
    assert shim.get("library") == "commeffectshim"
    assert params(shim)["defaultconnectivitymode"] == "off"   # partition-heal lists only some links
    # dissem-emu's default 50-frame radio queue, at the slowest rate into g1 (the UAV's 235,520 bit/s).
    assert float(params(shim)["receivebufferperiod"]) == pytest.approx(50 * 1514 * 8 / 235520, abs=1e-6)
    transport = parse(out / "emane-transvirtual.xml", "transport")
    assert transport.get("library") == "transvirtual"
    service = parse(out / "eventservice.xml", "eventservice")
    assert params(service)["eventservicedevice"] == "ctl0"
    assert [g.get("definition") for g in service.findall("generator")] == ["eelgenerator.xml"]
    gen = parse(out / "eelgenerator.xml", "eventgenerator")
    assert gen.get("library") == "eelgenerator" and params(gen)["inputfile"] == "scenario.eel"
    loaders = gen.find("paramlist")
    assert loaders.get("name") == "loader"
    assert [i.get("value") for i in loaders.findall("item")] == ["commeffect:eelloadercommeffect:delta"]

    # The EEL (EMANE's sender-first reading) matches the scenario's links for that cell.
    sc = scenario.load(path)
    cell = next(c for c in expand_matrix(sc.matrix) if c.id == "reliability-0.7")
    expected = topology.expand(sc, facts.cell_facts(sc, cell, 4)).events
    exported = eel.read((out / "scenario.eel").read_text(), eel.EMANE_CONVENTION)
    key = lambda e: (e.time_s, e.sender, e.receiver)
    assert sorted(exported, key=key) == sorted(expected, key=key)
    state = eel.links_at(exported, 0)
    assert state[(1, 2)].loss_pct == 30 and state[(1, 2)].unicast_bps == 235520   # uav -> g1
    assert state[(2, 1)].disabled                                                 # g1 -> uav: asymmetric
    assert "0 nem:1 commeffect nem:2,0,0,30,0,235520,235520" in (out / "scenario.eel").read_text()
    assert eel.links_at(exported, 45)[(2, 3)].disabled                           # partitioned bridge

    readme = (out / "README.md").read_text()
    assert "emaneeventservice eventservice.xml" in readme and "platform-<i>.xml" in readme
    assert "dissemd --interface emane0 --socket /var/tmp/dissem/tactical/dissem/g2/sock" in readme
    assert "radio rate folded into the links" in readme and "Not carried over" not in readme


def test_export_default_cell_is_first(write_scenario, tmp_path):
    path = write_scenario(SCENARIO)
    proc = run_runner(path, tmp_path / "runs", "--export-emane", str(tmp_path / "e"))
    assert proc.returncode == 0 and "cell reliability-0.7" in proc.stdout


def test_export_for_two_hosts_puts_each_hosts_nems_in_one_platform(write_scenario, tmp_path):
    path = write_scenario(SCENARIO)
    out = tmp_path / "hosts"
    proc = run_runner(path, tmp_path / "runs", "--export-emane", str(out), "--emane-hosts", "2")
    assert proc.returncode == 0, proc.stderr
    for host, nems in ((1, ["1", "2"]), (2, ["3", "4"])):
        root = parse(out / f"platform-host-{host}.xml", "platform")
        assert [n.get("id") for n in root.findall("nem")] == nems
        assert [params(n.find("transport"))["device"] for n in root.findall("nem")] == [f"emane{i}" for i in nems]
    assert not (out / "platform-1.xml").exists()
    assert "host 1: NEMs 1, 2; host 2: NEMs 3, 4" in (out / "README.md").read_text()
