"""Checks the end-to-end tests share: the file the publisher sent reached
every subscriber byte for byte (e2e-*nodes.toml: `payload` in the
publisher's work directory, `received` in each subscriber's)."""

import hashlib


def assert_file_delivered(result: dict, subscribers: list[str], size: int = 1048576, publisher: str = "pub") -> None:
    workdir = {n["name"]: result["_dir"] / n["workdir"] for n in result["nodes"]}
    sent = hashlib.sha256((workdir[publisher] / "payload").read_bytes()).hexdigest()
    for sub in subscribers:
        got = workdir[sub] / "received"
        assert got.stat().st_size == size, sub
        assert hashlib.sha256(got.read_bytes()).hexdigest() == sent, sub
