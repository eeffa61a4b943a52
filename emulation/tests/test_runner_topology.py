"""Shorthand expansion to EEL: full, line, grid, partition-heal, geometric, overrides,
asymmetric links, timed events, literal EEL, and the EEL reader/writer."""

import pytest

from runner import eel, scenario, topology
from runner.eel import LinkEvent, LinkParams


def make(write_scenario, topo, n=4, names=None, roles="", matrix=""):
    names_line = f"names = {names!r}".replace("'", '"') if names else f"count = {n}"
    text = f"""
name = "t"
time_limit_s = 30
[nodes]
{names_line}
[nodes.roles]
{roles}
[matrix]
{matrix}
[topology]
{topo}
[systems.x.roles.all]
command = "true"
"""
    return scenario.load(write_scenario(text))


def expand(sc, **names):
    return topology.expand(sc, {"seed": 1, **names})


def pairs_at_zero(x):
    return {(e.sender, e.receiver) for e in x.events if e.time_s == 0}


def test_full_every_ordered_pair_same_params(write_scenario):
    sc = make(write_scenario, 'kind = "full"\ncapacity_bps = 256000\nreliability = 0.9\nlatency_ms = 5\n'
                              'jitter_ms = 1\ndup_pct = 2', n=3)
    x = expand(sc)
    assert pairs_at_zero(x) == {(a, b) for a in (1, 2, 3) for b in (1, 2, 3) if a != b}
    assert {e.params for e in x.events} == {LinkParams(0.005, 0.001, 10.0, 2.0, 256000, 256000)}
    assert x.default_disconnected is False
    text = eel.write(x.events)
    assert text.splitlines()[0] == ("0 nem:1 commeffect nem:2,0.005,0.001,10,2,256000,256000 "
                                    "nem:3,0.005,0.001,10,2,256000,256000")


def test_line_only_neighbours(write_scenario):
    x = expand(make(write_scenario, 'kind = "line"', n=4))
    assert pairs_at_zero(x) == {(1, 2), (2, 1), (2, 3), (3, 2), (3, 4), (4, 3)}
    assert x.default_disconnected is True
    lines = eel.write(x.events).splitlines()
    # Receiver first: node 1 hears only node 2, node 2 hears 1 and 3.
    assert lines[0].startswith("0 nem:1 commeffect nem:2,") and len(lines[0].split()) == 4
    assert lines[1].startswith("0 nem:2 commeffect nem:1,") and " nem:3," in lines[1]


def test_grid_four_neighbours(write_scenario):
    x = expand(make(write_scenario, 'kind = "grid"\nrows = 2\ncols = 3', n=6))
    # 1 2 3
    # 4 5 6
    undirected = {tuple(sorted(p)) for p in pairs_at_zero(x)}
    assert undirected == {(1, 2), (2, 3), (4, 5), (5, 6), (1, 4), (2, 5), (3, 6)}
    assert len(pairs_at_zero(x)) == 14
    assert x.default_disconnected is True


def hops_from(links, source):
    dist, frontier = {source: 0}, [source]
    while frontier:
        following = []
        for a in frontier:
            for (s, b) in sorted(links):
                if s == a and b not in dist:
                    dist[b] = dist[a] + 1
                    following.append(b)
        frontier = following
    return dist


def test_geometric_same_connected_graph_whatever_the_run_seed(write_scenario):
    sc = make(write_scenario, 'kind = "geometric"\nradius = 0.25\ngraph_seed = 1', n=50)
    x = expand(sc)
    assert expand(sc, seed=7).events == x.events
    assert x.graph["radius"] == 0.25 and len(x.links) == 2 * x.graph["links"]
    assert len(hops_from(x.links, 1)) == 50  # connected
    # Linked exactly within the radius, numbered by distance from the corner.
    pos = x.positions
    assert all(((pos[a][0] - pos[b][0]) ** 2 + (pos[a][1] - pos[b][1]) ** 2 <= 0.0625) == ((a, b) in x.links)
               for a in pos for b in pos if a != b)
    dist = [pos[i][0] ** 2 + pos[i][1] ** 2 for i in sorted(pos)]
    assert dist == sorted(dist)
    assert x.default_disconnected is True
    # Another graph seed, another graph; a target degree instead of a radius.
    assert expand(make(write_scenario, 'kind = "geometric"\nradius = 0.25\ngraph_seed = 2', n=50)).links != x.links
    by_degree = expand(make(write_scenario, 'kind = "geometric"\ndegree = 8', n=50))
    assert 6 <= by_degree.graph["mean_degree"] <= 10


def test_geometric_radius_too_small_is_an_error(write_scenario):
    with pytest.raises(Exception, match="topology.radius: geometric graph far from connected"):
        make(write_scenario, 'kind = "geometric"\nradius = 0.02', n=50)
    with pytest.raises(Exception, match="exactly one of radius and degree"):
        make(write_scenario, 'kind = "geometric"\nradius = 0.2\ndegree = 5', n=50)


def test_partition_heal_events_at_the_right_times(write_scenario):
    sc = make(write_scenario, 'kind = "partition-heal"\nclusters = [2, 3]\npartition_at_s = 20\n'
                              'heal_at_s = "{20 + outage_s}"\nreliability = 0.8',
              n=5, matrix="outage_s = [15]")
    x = expand(sc, outage_s=15)
    inside = {(1, 2), (2, 1)} | {(a, b) for a in (3, 4, 5) for b in (3, 4, 5) if a != b}
    bridge = {(2, 3), (3, 2)}
    assert pairs_at_zero(x) == inside | bridge
    timed = [(e.time_s, e.sender, e.receiver, e.params.loss_pct) for e in x.events if e.time_s > 0]
    assert timed == [(20.0, 2, 3, 100.0), (20.0, 3, 2, 100.0), (35.0, 2, 3, 20.0), (35.0, 3, 2, 20.0)]
    text = eel.write(x.events)
    assert "20 nem:3 commeffect nem:2,0,0,100,0,0,0" in text
    assert "35 nem:2 commeffect nem:3,0,0,20,0,0,0" in text
    # Links never mentioned are down: the emulator must be told.
    assert x.default_disconnected is True
    # At t in [20, 35) the clusters cannot talk; after 35 they can again.
    assert eel.links_at(x.events, 25)[(2, 3)].disabled
    assert not eel.links_at(x.events, 36)[(2, 3)].disabled


def test_partition_heal_explicit_bridge(write_scenario):
    sc = make(write_scenario, 'kind = "partition-heal"\nclusters = [2, 2]\nbridge = ["a1", "b2"]\n'
                              'partition_at_s = 5\nheal_at_s = 6',
              names=["a1", "a2", "b1", "b2"])
    x = expand(sc)
    assert {(1, 4), (4, 1)} <= pairs_at_zero(x)
    assert (2, 3) not in pairs_at_zero(x)


def test_role_override_and_asymmetric_disables_one_direction(write_scenario):
    topo = '''kind = "full"
capacity_bps = 1048576
reliability = 0.9
[[topology.override]]
from = "role:sender"
to = "*"
capacity_bps = 235520
reliability = "{sender_reliability}"
asymmetric = "{asymmetric}"
'''
    sc = make(write_scenario, topo, names=["uav", "g1", "g2"], roles='sender = ["uav"]',
              matrix="sender_reliability = [0.5]\nasymmetric = [true, false]")
    x = expand(sc, sender_reliability=0.5, asymmetric=True)
    state = eel.links_at(x.events, 0)
    assert state[(1, 2)] == LinkParams(0, 0, 50.0, 0, 235520, 235520)   # uav -> ground: its own params
    assert state[(2, 1)].disabled and state[(3, 1)].disabled            # ground -> uav: gone
    assert not state[(2, 3)].disabled and state[(2, 3)].unicast_bps == 1048576
    text = eel.write(x.events)
    # Sender-first: what uav (nem 1) sends reaches the ground at 50 % loss;
    # what g1 (nem 2) sends never reaches uav and reaches g2 at 10 % loss.
    assert text.splitlines()[0] == "0 nem:1 commeffect nem:2,0,0,50,0,235520,235520 nem:3,0,0,50,0,235520,235520"
    assert "0 nem:2 commeffect nem:1,0,0,100,0,1048576,1048576 nem:3,0,0,10,0,1048576,1048576" in text
    symmetric = eel.links_at(expand(sc, sender_reliability=0.5, asymmetric=False).events, 0)
    assert not symmetric[(2, 1)].disabled


def test_enabled_false_and_timed_event(write_scenario):
    topo = '''kind = "line"
[[topology.override]]
from = "n3"
to = "n2"
enabled = false
[[topology.event]]
at_s = 10
from = "n1"
to = "n2"
reliability = 0.5
[[topology.event]]
at_s = 12
from = ["n1", "n2"]
to = ["n1", "n2"]
enabled = false
'''
    x = expand(make(write_scenario, topo, n=3))
    state0 = eel.links_at(x.events, 0)
    assert state0[(3, 2)].disabled and not state0[(2, 3)].disabled
    assert eel.links_at(x.events, 10)[(1, 2)].loss_pct == 50
    s12 = eel.links_at(x.events, 12)
    assert s12[(1, 2)].disabled and s12[(2, 1)].disabled and s12[(3, 2)].disabled


def test_literal_eel_with_placeholders_and_conventions(write_scenario):
    topo = '''eel = """
# comment lines are fine
0 nem:2 commeffect nem:1,0,0,{loss},0,{rate},{rate}
5 nem:2 commeffect nem:1,0,0,100,0,0,0
"""'''
    sc = make(write_scenario, topo, n=2, matrix="loss = [10]\nrate = [1000]")
    x = expand(sc, loss=10, rate=1000)
    # Sender-first by default (EMANE's reading): node 2 sends to node 1.
    assert x.events[0] == LinkEvent(0.0, 2, 1, LinkParams(0, 0, 10, 0, 1000, 1000))
    assert x.default_disconnected is True      # (1, 2) is not listed
    sc2 = make(write_scenario, topo + '\neel_convention = "receiver-first"', n=2, matrix="loss = [10]\nrate = [1000]")
    assert expand(sc2, loss=10, rate=1000).events[0].sender == 1


def test_literal_eel_errors_name_the_key(write_scenario):
    with pytest.raises(Exception) as e:
        make(write_scenario, 'eel = "0 nem:1 pathloss nem:2,90"', n=2)
    assert "topology.eel" in str(e.value) and "only commeffect" in str(e.value)


@pytest.mark.parametrize("convention", eel.CONVENTIONS)
def test_eel_round_trip(convention):
    events = [LinkEvent(0.0, 1, 2, LinkParams(0.01, 0.002, 12.5, 1, 56000, 57000)),
              LinkEvent(0.0, 2, 1, LinkParams(0, 0, 100, 0, 0, 0)),
              LinkEvent(7.5, 3, 1, LinkParams(0, 0, 0, 0, 10, 10))]
    text = eel.write(events, convention)
    assert sorted(eel.read(text, convention), key=lambda e: (e.time_s, e.sender)) == \
        sorted(events, key=lambda e: (e.time_s, e.sender))


def test_conventions_swap_the_nems():
    ev = [LinkEvent(0.0, 1, 2, LinkParams(loss_pct=10))]
    assert eel.write(ev, eel.RECEIVER_FIRST).startswith("0 nem:2 commeffect nem:1,")
    assert eel.write(ev, eel.SENDER_FIRST).startswith("0 nem:1 commeffect nem:2,")


@pytest.mark.parametrize("line, message", [
    ("0 nem:1 commeffect nem:2,0,0,10,0,1", "line 1: commeffect entry 'nem:2,0,0,10,0,1' has 6 fields; expected 7: "
                                            "nem:<id>,latency,jitter,loss,duplicate,unicast_bps,broadcast_bps"),
    ("x nem:1 commeffect nem:2,0,0,10,0,1,1", "line 1: field 'time': 'x' is not a number of seconds"),
    ("0 nem:1 commeffect nem:1,0,0,10,0,1,1", "line 1: entry 'nem:1,0,0,10,0,1,1' sets an effect of nem 1 on itself"),
    ("0 nem:1 commeffect nem:2,0,0,110,0,1,1", "line 1: field 'loss': 110 is not a percentage in 0..100"),
    ("0 node:1 commeffect nem:2,0,0,10,0,1,1", "line 1: field 'sending nem': 'node:1' is not of the form nem:<id>"),
    ("\n0 nem:1 location gps 1,2,3", "line 2: only commeffect events are supported, found 'location'"),
])
def test_eel_reader_errors(line, message):
    # The runner's reader is dissem-sim read-eel: the one reader, dissem-emu's too.
    with pytest.raises(eel.EELError) as e:
        eel.read(line)
    assert str(e.value) == message
