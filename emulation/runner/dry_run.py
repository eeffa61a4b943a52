"""--dry-run: what each run would do, with nothing started.

Addresses, namespaces and interfaces are the ones the emulator will report
for a run in the first subnet slot; the prefix is the run's own.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TextIO

from . import eel, facts, topology
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
        eel_path = plan.rundir / "scenario.eel"
        if (plan.cell.id, plan.seed) not in shown_eel:
            shown_eel.add((plan.cell.id, plan.seed))
            params = ", ".join(f"{k}={v}" for k, v in plan.cell.params.items()) or "no matrix"
            out.write(f"==== cell {plan.cell.id} ({params}), seed {plan.seed}, time limit {limit:g} s\n")
            out.write(f"EEL ({eel.EMULATOR_CONVENTION}: nem:<sender> commeffect nem:<receiver>,...)"
                      f"{'; default disconnected' if expansion.default_disconnected else ''}:\n")
            out.write(eel.write(expansion.events, eel.EMULATOR_CONVENTION))
        out.write(f"\n-- {plan.label}  (run dir {plan.rundir})\n")
        argv = build_argv(plan.emu, sc, cell_names, plan.prefix, subnet, eel_path, plan.seed,
                          expansion, plan.rundir, limit) + plan.emu_args
        out.write(f"emulator: {shlex.join(argv)}\n")
        interface = "emane0" if Path(plan.emu).name == "dissem-emane" else "emu0"
        layout = facts.predicted_layout(plan.prefix, subnet, len(sc.nodes), interface)
        addresses = {e["id"]: e["address"] for e in layout}
        run_names = facts.run_facts(sc, cell_names, plan.system, plan.prefix, subnet, plan.rundir, limit,
                                    addresses)
        system = sc.systems[plan.system]
        for node in sc.nodes.nodes:
            names = facts.node_facts(run_names, node, layout[node.id - 1], plan.rundir / "nodes" / node.name)
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
