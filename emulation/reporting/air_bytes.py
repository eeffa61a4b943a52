"""Bytes on the air by protocol message kind, read from the emulator's
per-node captures (`pcap = true` in a scenario's [emulator] table).

Each node's capture holds what it sent and what it received; a frame counts
as sent when its IPv4 source is the node's address. A dissem datagram starts
with one prefix byte whose low nibble is its kind (docs/protocol.md), so the
bytes can be split into data, requests, beacons, summaries and coded symbols.
Sizes are IP bytes (IPv4 header, UDP header, payload), as in the daemons'
counters."""
from __future__ import annotations

import socket
import struct
from pathlib import Path

KINDS = {1: "data", 2: "mfr", 3: "beacon", 4: "summary", 5: "coded", 6: "window"}
_ETH_IPV4 = 0x0800
_UDP = 17


def _records(path: Path):
    """(unix time in s, frame bytes) of every record of a classic pcap file."""
    data = path.read_bytes()
    if len(data) < 24:
        return
    magic = data[:4]
    if magic == b"\xd4\xc3\xb2\xa1":
        endian = "<"
    elif magic == b"\xa1\xb2\xc3\xd4":
        endian = ">"
    else:
        raise ValueError(f"{path}: not a pcap file (magic {magic.hex()})")
    pos = 24
    while pos + 16 <= len(data):
        sec, usec, caplen, _ = struct.unpack_from(endian + "IIII", data, pos)
        pos += 16
        if pos + caplen > len(data):
            break  # a record cut short by the end of the run
        yield sec + usec / 1e6, data[pos:pos + caplen]
        pos += caplen


def sent_bytes_by_kind(path: Path, address: str, since_unix_s: float = 0.0) -> dict[str, int]:
    """IP bytes of the dissem datagrams a node sent at or after `since_unix_s`,
    by kind; anything that is not UDP over IPv4 from `address` is ignored
    (ARP, IPv6, what the node received), unknown kinds count as 'other'."""
    own = socket.inet_aton(address)
    totals: dict[str, int] = {}
    for t, frame in _records(path):
        if t < since_unix_s or len(frame) < 14 + 20:
            continue
        if struct.unpack_from("!H", frame, 12)[0] != _ETH_IPV4:
            continue
        ip = frame[14:]
        ihl = (ip[0] & 0x0F) * 4
        if ip[9] != _UDP or ip[12:16] != own or len(ip) < ihl + 9:
            continue
        total_length = struct.unpack_from("!H", ip, 2)[0]
        kind = KINDS.get(ip[ihl + 8] & 0x0F, "other")
        totals[kind] = totals.get(kind, 0) + total_length
    return totals


def run_sent_bytes(run_dir: Path, nodes: list[dict], since_unix_s: float) -> dict[str, int] | None:
    """Every node's sent bytes by kind since `since_unix_s`, summed; None when
    the run has no captures."""
    pcap_dir = run_dir / "pcap"
    if not pcap_dir.is_dir():
        return None
    totals: dict[str, int] = {}
    for i, node in enumerate(nodes, start=1):
        path = pcap_dir / f"n{i}.pcap"
        if not path.exists() or not node.get("address"):
            return None
        for kind, n in sent_bytes_by_kind(path, node["address"], since_unix_s).items():
            totals[kind] = totals.get(kind, 0) + n
    return totals
