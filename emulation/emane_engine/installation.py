"""Where EMANE is, and the environment its programs need.

EMANE is found, in this order: --emane-prefix, $DISSEM_EMANE_PREFIX, the
prefix scripts/setup-emane.sh builds into (/opt/dissem-emane), then
`emane` on PATH (a user's own install, e.g. Adjacent Link's packages under
/usr). Its Python tools (emanesh, emaneeventservice is C++) run under
Debian's /usr/bin/python3, which has python3-lxml and python3-protobuf, with
the prefix's site-packages on PYTHONPATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

DEFAULT_PREFIX = Path("/opt/dissem-emane")
SYSTEM_PYTHON = "/usr/bin/python3"


class EmaneNotFound(Exception):
    """No usable EMANE: the message says where it looked."""


@dataclass(frozen=True)
class Emane:
    prefix: Path          # bin/, lib/, share/emane/ below it
    version: str

    @property
    def emane(self) -> str:
        return str(self.prefix / "bin" / "emane")

    @property
    def eventservice(self) -> str:
        return str(self.prefix / "bin" / "emaneeventservice")

    @property
    def emanesh(self) -> list[str]:
        # Debian's setuptools installs scripts under <prefix>/local/bin.
        for where in ("bin", "local/bin"):
            if (self.prefix / where / "emanesh").exists():
                return [SYSTEM_PYTHON, str(self.prefix / where / "emanesh")]
        return [SYSTEM_PYTHON, "emanesh"]

    @property
    def dtd_dir(self) -> Path:
        return self.prefix / "share" / "emane" / "dtd"

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ if base is None else base)
        lib = str(self.prefix / "lib")
        env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (lib, env.get("LD_LIBRARY_PATH", "")) if p)
        env["PATH"] = os.pathsep.join(p for p in (str(self.prefix / "bin"), env.get("PATH", "")) if p)
        site = sorted((self.prefix / "lib").glob("python3*/site-packages")) + \
            sorted((self.prefix / "local" / "lib").glob("python3*/dist-packages"))
        if site:
            env["PYTHONPATH"] = os.pathsep.join([str(s) for s in site] + [env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        return env


def _version(prefix: Path) -> str | None:
    program = prefix / "bin" / "emane"
    if not program.exists():
        return None
    env = Emane(prefix, "").env()
    try:
        out = subprocess.run([str(program), "--version"], capture_output=True, text=True, timeout=20, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (out.stdout or out.stderr).strip().splitlines()
    return text[0].strip() if out.returncode == 0 and text else None


def find(explicit: str | None = None) -> Emane:
    tried = []
    candidates: list[Path] = []
    for given in (explicit, os.environ.get("DISSEM_EMANE_PREFIX")):
        if given:
            candidates.append(Path(given))
    candidates.append(DEFAULT_PREFIX)
    on_path = shutil.which("emane")
    if on_path:
        candidates.append(Path(on_path).resolve().parent.parent)
    for prefix in candidates:
        version = _version(prefix)
        if version:
            return Emane(prefix, version)
        tried.append(str(prefix))
    raise EmaneNotFound("no EMANE found (looked in " + ", ".join(dict.fromkeys(tried)) +
                        "): run scripts/setup-emane.sh, or give --emane-prefix / $DISSEM_EMANE_PREFIX")
