"""Nodes, their roles, and selectors ("*", a name, an id, "role:<r>").

Node ids are 1-based and equal the emulator's node ids and EMANE NEM ids.
The implicit role "all" holds every node.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import ScenarioError

IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
NODE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
ALL_ROLE = "all"


@dataclass
class Node:
    id: int
    name: str
    roles: list[str] = field(default_factory=list)


class NodeSet:
    def __init__(self, nodes: list[Node], roles: dict[str, list[int]]):
        self.nodes = nodes
        self.roles = roles  # role -> node ids, in id order; includes "all"
        self.by_name = {n.name: n for n in nodes}

    def __len__(self):
        return len(self.nodes)

    def node(self, node_id: int) -> Node:
        return self.nodes[node_id - 1]

    def resolve_one(self, token: str, source: str, key: str) -> list[int]:
        token = str(token).strip()
        if token == "*":
            return [n.id for n in self.nodes]
        if token.startswith("role:"):
            role = token[5:]
            if role not in self.roles:
                raise ScenarioError(source, key, f"unknown role '{role}' (roles: {', '.join(self.roles)})")
            return list(self.roles[role])
        if token in self.by_name:
            return [self.by_name[token].id]
        if token.isdigit() and 1 <= int(token) <= len(self.nodes):
            return [int(token)]
        names = ", ".join(n.name for n in self.nodes)
        raise ScenarioError(source, key, f"'{token}' is no node name, id 1..{len(self.nodes)}, "
                                         f"'*' or 'role:<name>' (nodes: {names})")

    def select(self, tokens: list[str], source: str, key: str) -> set[int]:
        out: set[int] = set()
        for token in tokens:
            out.update(self.resolve_one(token, source, key))
        return out

    def role_facts(self) -> dict[str, object]:
        """Placeholders known before the emulator runs: <role>_ids,
        <role>_names, <role>_count, <role>_id (first node)."""
        facts: dict[str, object] = {}
        for role, ids in self.roles.items():
            facts[f"{role}_ids"] = ",".join(str(i) for i in ids)
            facts[f"{role}_names"] = ",".join(self.node(i).name for i in ids)
            facts[f"{role}_count"] = len(ids)
            facts[f"{role}_id"] = ids[0] if ids else 0
        return facts

    def role_address_facts(self, addresses: dict[int, str]) -> dict[str, object]:
        """Placeholders known once the emulator is up: <role>_addresses and
        <role>_address (first node's)."""
        facts: dict[str, object] = {}
        for role, ids in self.roles.items():
            facts[f"{role}_addresses"] = ",".join(addresses[i] for i in ids)
            facts[f"{role}_address"] = addresses[ids[0]] if ids else ""
        return facts


def role_fact_names(roles) -> set[str]:
    return {f"{r}_{suffix}" for r in roles for suffix in ("ids", "names", "count", "id")}


def role_address_fact_names(roles) -> set[str]:
    return {f"{r}_{suffix}" for r in roles for suffix in ("addresses", "address")}
