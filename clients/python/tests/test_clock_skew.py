"""Clocks that disagree: of two real daemons on loopback, one runs under
libfaketime (Debian package faketime) 20 s ahead. The other measures that
offset from the beacon echoes they already exchange (Peer.clock_offset_ms)
and raises one CLOCK_SKEW event, past engine.max_clock_skew_ms (2 s by
default). Without libfaketime the test skips loudly, and fails where
DISSEM_REQUIRE_ROOT_TESTS=1 (CI, whose set-up installs it)."""

import glob
import os
import tempfile

import pytest

from dissem_client import Client, EventKind
from support import Daemon, find_dissemd, pick_port, wait_for

SKEW_MS = 20_000.0


def faketime_library():
    found = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))
    if found:
        return found[0]
    reason = "!!! clock skew test NOT RUN: libfaketime missing (Debian package faketime) !!!"
    if os.environ.get("DISSEM_REQUIRE_ROOT_TESTS") == "1":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def test_a_neighbour_20_s_ahead_is_measured_and_raises_one_skew_event():
    library = faketime_library()
    binary = find_dissemd()
    port = pick_port()
    with tempfile.TemporaryDirectory(prefix="dissem-clock-") as directory:
        honest = Daemon(binary, directory, "honest", port, extra=["--set", "engine.beacon_interval_ms=300"])
        ahead = None
        try:
            honest.wait_ready()
            with Client(honest.socket) as c:
                # Connected before the skewed node appears, so its one event reaches us.
                ahead = Daemon(binary, directory, "ahead", port, extra=["--set", "engine.beacon_interval_ms=300"],
                               env={"LD_PRELOAD": library, "FAKETIME": "+20s",
                                    # A sanitised build's runtime must come first unless told otherwise.
                                    "ASAN_OPTIONS": "verify_asan_link_order=0:"
                                                    + os.environ.get("ASAN_OPTIONS", "")})
                ahead.wait_ready()
                peer = wait_for(lambda: next((p for p in c.peers() if p.clock_offset_ms is not None), None), 30,
                                "a clock offset measured from beacon echoes")
                assert abs(peer.clock_offset_ms - SKEW_MS) < 500, peer
                skew = None
                for event in c.events(timeout=15):
                    if event.kind == EventKind.CLOCK_SKEW:
                        skew = event
                        break
                assert skew is not None, "no CLOCK_SKEW event"
                assert skew.peer == peer.node_id
                assert abs(skew.clock_offset_ms - SKEW_MS) < 500, skew
                # Once per crossing: more beacons and echoes raise no second one.
                later = [e for e in c.events(timeout=2) if e.kind == EventKind.CLOCK_SKEW]
                assert later == [], later
        finally:
            honest.stop()
            if ahead is not None:
                ahead.stop()
