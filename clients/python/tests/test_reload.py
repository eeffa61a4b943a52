"""A key rotation and a revocation on three running daemons, each reloaded a
different way (SIGHUP, `dissem reload`, Client.reload()), and reloads that
must be refused whole or that name what needs a restart.

A and C publish in the keyed group "ops", B subscribes; every datagram is
authenticated with the network key. The rotation adds epoch 2 to every key
file, due a few seconds after the reload: A keeps signing with epoch 1 until
then and with epoch 2 after, and B takes every message. Then C is revoked
on A and B (C itself is not told, as a captured node would not be): C's new
messages are refused and counted, what B held of C stays, A goes on."""

import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from dissem_client import Client, ErrorCode, RequestError
from support import Daemon, find_dissemd, pick_port, wait_for

A, B, C = 0xA1, 0xB2, 0xC3


def dissem_cli(dissemd):
    path = os.path.join(os.path.dirname(dissemd), "dissem")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no dissem next to {dissemd}")
    return path


def write_config(path, keys_dir, group_prefix, extra=""):
    with open(path + ".tmp", "w") as f:
        f.write(
            "[engine]\nbeacon_interval_ms = 300\n\n"
            "[security]\n"
            f'network_key_file = "{keys_dir}/net.key"\n'
            f'group_keys = ["ops={group_prefix}"]\n'
            f"{extra}"
        )
    os.replace(path + ".tmp", path)


def publish_and_expect(publisher, receiver, payload):
    publisher.publish("ops", payload)
    delivery = receiver.next_delivery(timeout=15)
    assert delivery is not None, f"{payload!r} did not arrive"
    assert delivery.payload == payload
    return delivery


def epoch_of(client, publisher, seq):
    held = client.list("ops", publisher=publisher, from_seq=seq, to_seq=seq).messages
    assert len(held) == 1, held
    return held[0].key_epoch


def test_a_key_rotation_and_a_revocation_reach_three_running_daemons():
    binary = find_dissemd()
    cli = dissem_cli(binary)
    port = pick_port()
    with tempfile.TemporaryDirectory(prefix="dissem-reload-") as d:
        keys, reader = os.path.join(d, "keys"), os.path.join(d, "reader")
        os.makedirs(keys)
        os.makedirs(reader)

        def keygen(*args):
            subprocess.run([cli, "keygen", *args], check=True, capture_output=True)

        keygen("network", "--epoch", "1", "--out", f"{keys}/net.key")
        keygen("group", "ops", "--epoch", "1", "--out", f"{keys}/ops")
        shutil.copy(f"{keys}/ops.verify", f"{reader}/ops.verify")  # B verifies, never signs
        configs = {n: os.path.join(d, f"{n}.toml") for n in "abc"}
        for n in "ac":
            write_config(configs[n], keys, f"{keys}/ops")
        write_config(configs["b"], keys, f"{reader}/ops")
        daemons = {
            n: Daemon(binary, d, n, port, extra=["--config", configs[n], "--node-id", str(i)])
            for n, i in zip("abc", (A, B, C))
        }
        try:
            for daemon in daemons.values():
                daemon.wait_ready()
            with Client(daemons["a"].socket) as a, Client(daemons["b"].socket) as b, \
                    Client(daemons["c"].socket) as c:
                b.subscribe("ops")
                publish_and_expect(a, b, b"a1 under epoch 1")
                c_held = publish_and_expect(c, b, b"c1 before its revocation")

                # The rotation: epoch 2 in every key file, due in 4 s.
                keygen("network", "--epoch", "2", "--out", f"{keys}/net.key", "--append")
                keygen("group", "ops", "--epoch", "2", "--out", f"{keys}/ops", "--append")
                shutil.copy(f"{keys}/ops.verify", f"{reader}/ops.verify")
                due = int(time.time()) + 4
                rotation = f'send_from = ["2={due}"]\n'
                for n in "abc":
                    write_config(configs[n], keys, f"{keys}/ops" if n != "b" else f"{reader}/ops", rotation)
                daemons["a"].proc.send_signal(signal.SIGHUP)
                out = subprocess.run([cli, "--socket", daemons["b"].socket, "reload"], check=True,
                                     capture_output=True, text=True).stdout
                assert "applied: security.send_from" in out, out
                assert "2 network epoch(s), 1 keyed group(s)" in out, out
                reloaded = c.reload()
                assert reloaded.applied == ["security.send_from"], reloaded
                assert reloaded.needs_restart == [], reloaded

                before = publish_and_expect(a, b, b"a2 before the switch")
                assert epoch_of(b, A, before.seq) == 1, "not due yet: still epoch 1"
                time.sleep(max(0.0, due + 1 - time.time()))
                after = publish_and_expect(a, b, b"a3 after the switch")
                assert epoch_of(b, A, after.seq) == 2, "the publisher switched to the new epoch"
                assert epoch_of(a, A, after.seq) == 2, "A took the new keys on SIGHUP"

                # C revoked on A and B, with epoch 1; C is not told.
                revocation = rotation + f'revoked_publishers = ["{C}"]\nrevoked_epochs = ["1"]\n'
                write_config(configs["a"], keys, f"{keys}/ops", revocation)
                write_config(configs["b"], keys, f"{reader}/ops", revocation)
                assert b.reload().applied == ["security.revoked_epochs", "security.revoked_publishers"]
                a.reload()
                c.publish("ops", b"c2 after its revocation")
                publish_and_expect(a, b, b"a4 after the revocation")
                wait_for(lambda: b.stats().integrity.get("revoked", 0) > 0, 10, "C's datagrams refused as revoked")
                assert b.next_delivery(timeout=2) is None, "nothing of C's after its revocation"
                kept = b.get("ops", C, c_held.seq)
                assert kept is not None and kept.payload == b"c1 before its revocation", "held before: kept"
                assert b.stats().integrity.get("unauthenticated", 0) == 0
                assert b.stats().messages_completed == 5, "a1 a2 a3 a4 and c1: nothing lost"

                # A file that does not parse is refused whole; the keys stay.
                with open(configs["b"], "a") as f:
                    f.write('\n[log]\nlevel = "loud"\n')
                with pytest.raises(RequestError) as refused:
                    b.reload()
                assert refused.value.code == ErrorCode.FAILED
                assert "log.level" in str(refused.value), refused.value
                daemons["b"].proc.send_signal(signal.SIGHUP)
                wait_for(lambda: "reload refused, running settings kept: log.level" in daemons["b"].output(), 10,
                         "the refused SIGHUP reload in B's log")
                publish_and_expect(a, b, b"a5 after a refused reload")
                assert b.stats().integrity.get("revoked", 0) > 0

                # A key that needs a restart is named, and the rest applied.
                write_config(configs["b"], keys, f"{reader}/ops",
                             revocation + '\n[engine]\nrequest_probability = 0.5\npayload_size = 900\n')
                # The file now has [engine] twice: refused, naming the table.
                with pytest.raises(RequestError):
                    b.reload()
                write_config(configs["b"], keys, f"{reader}/ops", revocation)
                with open(configs["b"]) as f:
                    text = f.read().replace("beacon_interval_ms = 300",
                                            "beacon_interval_ms = 300\nrequest_probability = 0.5\npayload_size = 900")
                with open(configs["b"], "w") as f:
                    f.write(text)
                r = b.reload()
                assert r.applied == ["engine.request_probability"], r
                assert r.needs_restart == ["engine.payload_size"], r
                publish_and_expect(a, b, b"a6 after a partial reload")
        finally:
            for daemon in daemons.values():
                daemon.stop()
