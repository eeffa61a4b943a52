# Makes the package importable straight from the source tree (no install
# needed), and starts the real daemons the tests share.
import os
import shutil
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "src"))

from support import Daemon, find_dissemd, pick_port  # noqa: E402


@pytest.fixture(scope="session")
def daemons(request):
    """Two daemons on one loopback multicast port, shared by every test."""
    binary = find_dissemd()
    directory = tempfile.mkdtemp(prefix="dissem-pytest-")
    started = []

    def cleanup():
        for d in started:
            d.stop()
        shutil.rmtree(directory, ignore_errors=True)

    request.addfinalizer(cleanup)
    port = pick_port()
    for name in ("a", "b"):
        started.append(Daemon(binary, directory, name, port))
    for d in started:
        d.wait_ready()
    return started


@pytest.fixture
def start_daemon(request, daemons):
    """Starts further daemons for one test: start_daemon(name, same_port=True)
    joins the shared pair's port (it becomes their peer); False gives it a
    port of its own; `extra` arguments follow (e.g. ("--set", "k=v")).
    Stopped (or killed) at the end of the test."""
    binary = find_dissemd()
    directory = tempfile.mkdtemp(prefix="dissem-pytest-own-")
    started = []
    shared_port = int(daemons[0].proc.args[daemons[0].proc.args.index("--port") + 1])

    def start(name, same_port=True, extra=()):
        d = Daemon(binary, directory, name, shared_port if same_port else pick_port(), extra)
        started.append(d)
        d.wait_ready()
        return d

    def cleanup():
        for d in started:
            d.stop()
        shutil.rmtree(directory, ignore_errors=True)

    request.addfinalizer(cleanup)
    return start
