"""Clock steps of an hour on one node (engine/wall_clock.h). Of two real
daemons on loopback, one runs under libfaketime (Debian package faketime)
with its system clock read from a file that the test rewrites: an hour
ahead, then an hour behind. Its monotonic clock is left alone
(FAKETIME_DONT_FAKE_MONOTONIC), as with a clock set by hand or by a bad time
source. Its neighbour's clock sides with its own time, so it keeps that time
and slews at 1 %: nothing it holds expires in a mass, a message with a
minute to live still arrives, what expired stays expired, and its timers
keep their pace. Without libfaketime the test skips loudly, and fails where
DISSEM_REQUIRE_ROOT_TESTS=1 (CI, whose set-up installs it)."""

import os
import tempfile
import time

from dissem_client import Client, EventKind
from support import Daemon, find_dissemd, pick_port, wait_for
from test_clock_skew import faketime_library

HOUR_MS = 3_600_000.0


def set_clock(path, offset):
    with open(path + ".tmp", "w") as f:
        f.write(offset + "\n")
    os.replace(path + ".tmp", path)


def next_step_event(client, timeout):
    for event in client.events(timeout=timeout):
        if event.kind == EventKind.CLOCK_STEPPED:
            return event
    return None


def publish_and_receive(publisher, receiver, payload, lifetime_ms):
    publisher.publish("g", payload, lifetime_ms=lifetime_ms)
    delivery = receiver.next_delivery(timeout=10)
    assert delivery is not None, f"{payload!r} did not arrive"
    assert delivery.payload == payload
    return delivery


def test_an_hour_forward_then_back_expires_nothing_early_revives_nothing_and_stalls_nothing():
    library = faketime_library()
    binary = find_dissemd()
    port = pick_port()
    fast = ["--set", "engine.beacon_interval_ms=300"]
    with tempfile.TemporaryDirectory(prefix="dissem-clock-step-") as directory:
        clock_file = os.path.join(directory, "clock")
        set_clock(clock_file, "+0s")
        honest = Daemon(binary, directory, "honest", port, extra=fast)
        stepped = Daemon(binary, directory, "stepped", port, extra=fast,
                         env={"LD_PRELOAD": library, "FAKETIME_TIMESTAMP_FILE": clock_file,
                              "FAKETIME_NO_CACHE": "1", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
                              "ASAN_OPTIONS": "verify_asan_link_order=0:" + os.environ.get("ASAN_OPTIONS", "")})
        try:
            honest.wait_ready()
            stepped.wait_ready()
            with Client(honest.socket) as pub, Client(stepped.socket) as sub:
                sub.subscribe("g")
                wait_for(lambda: next((p for p in sub.peers() if p.clock_offset_ms is not None), None), 30,
                         "the neighbour's clock measured from beacon echoes")
                held = publish_and_receive(pub, sub, b"ten minutes to live", 600_000)

                # An hour ahead.
                set_clock(clock_file, "+3600s")
                step = next_step_event(sub, 10)
                assert step is not None, "no CLOCK_STEPPED event for the step ahead"
                assert abs(step.clock_offset_ms - HOUR_MS) < 5_000, step
                assert "agree with dissem's time" in step.detail, step.detail
                # Judged by the system clock, a minute's lifetime would be an
                # hour past; by the node's wall time it is a minute ahead.
                publish_and_receive(pub, sub, b"a minute to live", 60_000)
                time.sleep(2)
                stats = sub.stats()
                assert stats.messages_expired == 0, stats
                assert stats.clock_steps == 1, stats
                assert stats.clock_divergence_us > 3_500 * 1_000_000, stats
                kept = sub.get(held.group, held.publisher, held.seq)
                assert kept is not None and kept.payload == b"ten minutes to live"

                # An hour behind the true time.
                set_clock(clock_file, "-3600s")
                step = next_step_event(sub, 10)
                assert step is not None, "no CLOCK_STEPPED event for the step back"
                assert step.clock_offset_ms < -HOUR_MS + 60_000, step
                short = publish_and_receive(pub, sub, b"three seconds to live", 3_000)
                # Its expiry timer runs on the monotonic clock: it fires in
                # seconds, not in an hour, and the message stays expired.
                wait_for(lambda: sub.stats().messages_expired >= 1, 15, "the 3 s message expired")
                assert sub.get(short.group, short.publisher, short.seq) is None
                assert sub.get(held.group, held.publisher, held.seq) is not None, "the ten-minute one is still held"
                publish_and_receive(pub, sub, b"after both steps", 60_000)
                assert sub.stats().clock_steps == 2
            log = stepped.output()
            assert "the system clock stepped" in log, log
        finally:
            honest.stop()
            stepped.stop()
