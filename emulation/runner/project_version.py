"""The project's version, for the Python programs' --version.

It is set in one place, project(dissem VERSION x.y.z) in the top-level
CMakeLists.txt, which the C++ programs' core/version.h is generated from.
"""

from __future__ import annotations

import re
from pathlib import Path

_CMAKE_LISTS = Path(__file__).resolve().parents[2] / "CMakeLists.txt"


def project_version(cmake_lists: Path = _CMAKE_LISTS) -> str:
    """x.y.z from `project(dissem VERSION x.y.z ...)`; ValueError if absent."""
    match = re.search(r"project\(\s*dissem\s+VERSION\s+([0-9][0-9.]*)", cmake_lists.read_text())
    if not match:
        raise ValueError(f"{cmake_lists}: no project(dissem VERSION ...)")
    return match.group(1)


def version_line(program: str) -> str:
    """What --version prints: '<program> <version>', as the C++ programs do."""
    return f"{program} {project_version()}"
