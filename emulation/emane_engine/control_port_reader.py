"""Reads every statistic of every NEM of the emane process listening on
localhost's control port, and prints them as one JSON object:

    {"<nem id>": {"<layer>": {"<statistic>": value, ...}, ...}, ...}

Layers are named as emanesh names them (transport, shim0, mac, phy). Runs
under Debian's /usr/bin/python3 with EMANE's site-packages on PYTHONPATH
(statistics.py starts it inside a node's namespace); it imports EMANE's own
control port client, which this project does not carry.
"""

import json
import sys

from emane.shell import ControlPortClient  # EMANE's, from its install prefix


def main() -> int:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 47000
    client = ControlPortClient("localhost", port)
    try:
        out = {}
        for nem, components in client.getManifest().items():
            layers = {}
            shims = 0
            for build_id, kind, _plugin in components:
                name = kind.lower()
                if name == "shim":
                    name, shims = f"shim{shims}", shims + 1
                values = client.getStatistic(build_id)
                layers[name] = {k: v[0] if isinstance(v, tuple) else v for k, v in values.items()}
            out[str(nem)] = layers
    finally:
        client.stop()
    json.dump(out, sys.stdout, default=str)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
