"""--dry-run: what each run would do, with nothing started.

Addresses, namespaces and interfaces are the ones the emulator will report
for a run in the first subnet slot; the prefix is the run's own.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TextIO

from . import eel, facts, networks, topology
from .campaign import subnet_for_slot
from .emulator import build_argv
from .execution import RunPlan, time_limit


def describe(plans: list[RunPlan], subnet_base: str, out: TextIO) -> None:
    subnet = subnet_for_slot(subnet_base, 0)
    shown_eel: set[tuple[str, int]] = set()
    for plan in plans:
        sc = plan.scenario
        plan.subnet = subnet
        cell_names = facts.cell_facts(sc, plan.cell, plan.seed)
        limit = time_limit(plan, cell_names)
        expansion = topology.expand(sc, cell_names, horizon_s=limit)
        several = len(sc.networks) > 1
        subnets = networks.subnets(subnet, sc.networks)
        prefixes = networks.prefixes(plan.prefix, sc.networks)
        links = {net.name: networks.restrict(expansion, net) if several else expansion for net in sc.networks}
        if (plan.cell.id, plan.seed) not in shown_eel:
            shown_eel.add((plan.cell.id, plan.seed))
            params = ", ".join(f"{k}={v}" for k, v in plan.cell.params.items()) or "no matrix"
            out.write(f"==== cell {plan.cell.id} ({params}), seed {plan.seed}, time limit {limit:g} s\n")
            for net in sc.networks:
                x = links[net.name]
                where = (f" of network {net.name} (its node i: {', '.join(sc.nodes.node(g).name for g in net.nodes)})"
                         if several else "")
                out.write(f"EEL{where} ({eel.EMULATOR_CONVENTION}: nem:<sender> commeffect nem:<receiver>,...)"
                          f"{'; default disconnected' if x.default_disconnected else ''}:\n")
                out.write(eel.write(x.events, eel.EMULATOR_CONVENTION))
        out.write(f"\n-- {plan.label}  (run dir {plan.rundir})\n")
        interface = "emane0" if Path(plan.emu).name == "dissem-emane" else "emu0"
        entries: dict[int, dict[str, dict]] = {}
        for net, sub, prefix in zip(sc.networks, subnets, prefixes):
            stem = net.file_stem(several)
            eel_path = plan.rundir / (f"scenario-{net.name}.eel" if several else "scenario.eel")
            argv = build_argv(plan.emu, sc, cell_names, prefix, sub, eel_path, plan.seed, links[net.name],
                              plan.rundir, limit, network=net, stem=stem,
                              joins=networks.joins(net, entries)) + plan.emu_args
            out.write(f"emulator{' ' + net.name if several else ''}: {shlex.join(argv)}\n")
            layout = facts.predicted_layout(prefix, sub, len(net.nodes), net.interface if several else interface)
            for g, entry in zip(net.nodes, layout):
                if g in entries:
                    entry["namespace"] = next(iter(entries[g].values()))["namespace"]
                entries.setdefault(g, {})[net.name] = entry
        first = {g: next(iter(by_net.values())) for g, by_net in entries.items()}
        addresses = {g: e["address"] for g, e in first.items()}
        run_names = facts.run_facts(sc, cell_names, plan.system, plan.prefix, subnet, plan.rundir, limit,
                                    addresses, networks.subnets_by_name(subnet, sc.networks))
        system = sc.systems[plan.system]
        for node in sc.nodes.nodes:
            names = facts.node_facts(run_names, node, first[node.id], plan.rundir / "nodes" / node.name,
                                     by_network=entries[node.id] if several else None)
            wrap = " ".join(w for w in (t.render(names) for t in plan.netns_exec) if w)
            lines = []
            for role, spec in system.roles.items():
                if node.id not in sc.nodes.roles[role]:
                    continue
                if spec.daemon:
                    lines.append(f"  daemon  [{role}]: {spec.daemon.text(names)}")
                if spec.ready_probe:
                    lines.append(f"  probe   [{role}]: {spec.ready_probe.text(names)}")
                if spec.command:
                    delay = float(spec.start_delay_s.resolve(names))
                    how = "waited" if spec.wait else "background"
                    lines.append(f"  command [{role}, {how}, +{delay:g} s]: {spec.command.text(names)}")
                if spec.collect:
                    lines.append(f"  collect [{role}]: {spec.collect.text(names)}")
            late = sc.node_start_delay.get(node.id)
            if lines and late is not None and float(late.resolve(names)) > 0:
                lines.insert(0, f"  late start: daemons +{float(late.resolve(names)):g} s after the others are "
                                "ready, commands as much later")
            if lines:
                out.write(f"node {node.id} {node.name} ({names['address']}, {names['interface']}"
                          f"{', via: ' + wrap if wrap else ''}):\n")
                out.write("\n".join(lines) + "\n")
