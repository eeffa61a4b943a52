"""Every program answers --version with '<program> <version>', the version
being the project's (project(dissem VERSION ...) in CMakeLists.txt): the C++
programs of the build ($DISSEM_BUILD_DIR, default build/debug), the JGroups
launcher and the Python tools."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / os.environ.get("DISSEM_BUILD_DIR", "build/debug")
sys.path.insert(0, str(REPO / "emulation"))

from runner.project_version import project_version  # noqa: E402

BUILT = {
    "dissemd": "src/dissemd",
    "dissem": "src/dissem",
    "dissem-norm-gateway": "src/dissem-norm-gateway",
    "dissem-sim": "src/dissem-sim",
    "dissem-load": "src/dissem-load",
    "dissem-rogue": "emulation/rogue/dissem-rogue",
    "dissem-emu": "emulation/emu/dissem-emu",
    "dissem-norm": "emulation/baselines/norm/dissem-norm",
    "dissem-pgm": "emulation/baselines/pgm/dissem-pgm",
    "dissem-tcp": "emulation/baselines/tcp/dissem-tcp",
    "dissem-jgroups": "emulation/baselines/jgroups/dissem-jgroups",
}
PYTHON_TOOLS = {"emulation/run": "emulation/run", "emulation/report": "emulation/report",
                "dissem-emane": "emulation/dissem-emane"}


def test_the_version_is_the_projects():
    text = (REPO / "CMakeLists.txt").read_text()
    assert f"project(dissem VERSION {project_version()} " in text


@pytest.mark.parametrize("program", sorted(BUILT))
def test_built_programs_answer_version(program):
    path = BUILD / BUILT[program]
    if not os.access(path, os.X_OK):
        pytest.fail(f"{path} is not built (build the tree or set DISSEM_BUILD_DIR)", pytrace=False)
    done = subprocess.run([str(path), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{program} {project_version()}\n"


@pytest.mark.parametrize("program", sorted(PYTHON_TOOLS))
def test_python_tools_answer_version(program):
    done = subprocess.run([sys.executable, str(REPO / PYTHON_TOOLS[program]), "--version"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{program} {project_version()}\n"
