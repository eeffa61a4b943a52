"""The package builds into a wheel without the network, and that wheel
installs and works in a fresh virtual environment.

The build runs on a copy of the project (pip builds in the source folder),
with --no-build-isolation --no-index: the setuptools and wheel already
installed do it, as on an offline machine. Each step is bounded in time.
"""

import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

import dissem_client
from support import REPO_ROOT

PROJECT = REPO_ROOT / "clients" / "python"
STEP_TIMEOUT = 180  # seconds, per subprocess

# setuptools >= 61 reads [project] from pyproject.toml; before 70.1 it needs
# the wheel package to build wheels.
_CAN_BUILD = (
    "import importlib.util, setuptools\n"
    "assert importlib.util.find_spec('pip'), 'no pip'\n"
    "v = tuple(int(x) for x in setuptools.__version__.split('.')[:2])\n"
    "assert v >= (61, 0), setuptools.__version__\n"
    "if v < (70, 1):\n"
    "    import wheel\n"
)


def offline_builder():
    """An interpreter that can build the wheel offline: this one, else Debian's."""
    tried = []
    for python in (sys.executable, "/usr/bin/python3"):
        if not os.access(python, os.X_OK):
            continue
        probe = subprocess.run([python, "-c", _CAN_BUILD], capture_output=True, text=True, timeout=60)
        if probe.returncode == 0:
            return python
        tried.append(f"{python}: {probe.stderr.strip().splitlines()[-1] if probe.stderr.strip() else 'fails'}")
    pytest.fail(
        "no Python here can build the wheel offline (needs pip, setuptools >= 61 and wheel); "
        "scripts/setup.sh installs Debian's python3-pip python3-setuptools python3-wheel. Tried: " + "; ".join(tried)
    )


def run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, timeout=STEP_TIMEOUT, **kwargs)
    assert result.returncode == 0, f"{' '.join(map(str, args))} failed:\n{result.stdout}\n{result.stderr}"
    return result


def test_wheel_builds_offline_and_installs_in_a_fresh_venv(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(PROJECT / "pyproject.toml", project)
    shutil.copy(PROJECT / "README.md", project)
    shutil.copytree(
        PROJECT / "src", project / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    )

    dist = tmp_path / "dist"
    run([offline_builder(), "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "-w", str(dist), str(project)])
    wheels = list(dist.glob("dissem_client-*.whl"))
    assert len(wheels) == 1, list(dist.iterdir())
    wheel = wheels[0]
    assert wheel.name.startswith(f"dissem_client-{dissem_client.__version__}-py3-none-any")

    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = z.read(meta_name).decode()
    modules = {"__init__.py", "aio.py", "client.py", "errors.py", "framing.py", "protocol.py", "values.py",
               "ipc_pb2.py", "ipc_pb2.pyi", "py.typed"}
    assert {f"dissem_client/{m}" for m in modules} <= names
    assert not any(n.startswith(("tests/", "typings/", "google/")) for n in names), sorted(names)
    assert f"Version: {dissem_client.__version__}" in metadata
    assert "Requires-Dist: protobuf" in metadata

    # A fresh venv that sees this interpreter's packages (the protobuf
    # runtime) but not the source tree.
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)])
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--disable-pip-version-check", str(wheel)],
        env=env)
    check = r'''
import asyncio, json, os, sys
import dissem_client
from dissem_client import Client, DaemonConnectionError, aio
here = os.path.dirname(dissem_client.__file__)
errors = []
try:
    Client(os.path.join(sys.argv[1], "nobody.sock"))
except DaemonConnectionError as e:
    errors.append(str(e))
async def main():
    try:
        await aio.connect(os.path.join(sys.argv[1], "nobody.sock"))
    except DaemonConnectionError as e:
        errors.append(str(e))
asyncio.run(main())
print(json.dumps({"file": dissem_client.__file__, "version": dissem_client.__version__,
                  "typed": os.path.exists(os.path.join(here, "py.typed")), "errors": errors}))
'''
    out = run([str(python), "-c", check, str(tmp_path)], cwd=str(tmp_path), env=env)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["file"].startswith(str(venv)), got  # the installed copy, not the source tree
    assert got["version"] == dissem_client.__version__
    assert got["typed"]
    assert len(got["errors"]) == 2 and all("nobody.sock" in e for e in got["errors"]), got
