"""The examples run against the real daemons of conftest.py and succeed."""

import subprocess
import sys

from support import REPO_ROOT

EXAMPLES = REPO_ROOT / "clients" / "python" / "examples"


def run_example(name, *args):
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, f"{name} exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_blocking_example(daemons):
    a, b = daemons
    out = run_example("publish_subscribe.py", "--sub", b.socket, "--pub", a.socket, "--size", "300000",
                      "--group", "pytest/example", "--timeout", "60")
    assert "delivered 300000 bytes" in out and "byte-identical: True" in out, out


def test_asyncio_example(daemons):
    a, b = daemons
    out = run_example("aio_publish_subscribe.py", "--sub", b.socket, "--pub", a.socket, "--count", "12",
                      "--size", "20000", "--group", "pytest/example-aio", "--timeout", "60")
    assert "received 12 of 12" in out and "byte-identical: 12" in out, out
