"""dissemd's metrics endpoint with the real tools from Debian's prometheus
package (no root): `promtool check metrics` accepts what the endpoint
serves, and a prometheus server started here scrapes a running daemon, its
HTTP API then giving the values `dissem stats --json` gives. Without the
tools the test skips loudly, and fails where DISSEM_REQUIRE_ROOT_TESTS=1
(CI, whose set-up installs them)."""

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / os.environ.get("DISSEM_BUILD_DIR", "build/debug")


def _require_tools() -> None:
    missing = [t for t in ("promtool", "prometheus") if shutil.which(t) is None]
    if not missing:
        return
    reason = f"!!! metrics tests NOT RUN: {', '.join(missing)} missing (Debian package prometheus) !!!"
    if os.environ.get("DISSEM_REQUIRE_ROOT_TESTS") == "1":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(what: str, check, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"{what} not within {seconds:.0f} s")


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def daemon(tmp_path):
    """A dissemd with metrics on, that has published three messages."""
    yield from _daemon(BUILD, tmp_path)


@pytest.fixture
def release_daemon(tmp_path):
    """The same, built without sanitizers: for what measures the daemon's CPU,
    and what runs it out of file descriptors (UBSan's checks need some of
    their own)."""
    yield from _daemon(REPO / os.environ.get("DISSEM_RELEASE_BUILD_DIR", "build/release"), tmp_path)


def _daemon(build: Path, tmp_path: Path):
    _require_tools()
    dissemd, dissem = build / "src" / "dissemd", build / "src" / "dissem"
    if not (os.access(dissemd, os.X_OK) and os.access(dissem, os.X_OK)):
        pytest.fail(f"no dissemd / dissem in {build}: build them or set DISSEM_BUILD_DIR", pytrace=False)
    metrics_port = _free_port()
    sock = tmp_path / "d.sock"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        udp_port = s.getsockname()[1]
    proc = subprocess.Popen([str(dissemd), "--socket", str(sock), "--cache", str(tmp_path / "cache.db"),
                             "--port", str(udp_port), "--log-level", "warn", "--set", "metrics.enabled=true",
                             "--set", f"metrics.listen=127.0.0.1:{metrics_port}"],
                            stdout=subprocess.DEVNULL, stderr=open(tmp_path / "dissemd.stderr", "wb"))
    try:
        _wait_for("dissemd's socket", lambda: sock.exists() or proc.poll() is not None, 30)
        if proc.poll() is not None:
            pytest.fail("dissemd did not start: " + (tmp_path / "dissemd.stderr").read_text())
        payload = tmp_path / "payload"
        payload.write_bytes(os.urandom(4000))
        for _ in range(3):
            subprocess.run([str(dissem), "--socket", str(sock), "publish", "metrics", str(payload)], check=True,
                           stdout=subprocess.DEVNULL, timeout=30)
        yield dissem, sock, metrics_port, proc.pid
    finally:
        _stop(proc)


def _scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        assert r.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        return r.read().decode()


def test_promtool_accepts_what_the_endpoint_serves(daemon):
    _, _, port, _ = daemon
    text = _scrape(port)
    done = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stdout.strip() and not done.stderr.strip(), done.stdout + done.stderr
    assert "dissem_messages_published_total 3\n" in text


def test_a_prometheus_server_scrapes_the_values_dissem_stats_gives(daemon, tmp_path):
    dissem, sock, port, _ = daemon
    web = _free_port()
    config = tmp_path / "prometheus.yml"
    config.write_text("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                      "scrape_configs:\n  - job_name: dissemd\n    static_configs:\n"
                      f"      - targets: ['127.0.0.1:{port}']\n")
    server = subprocess.Popen(["prometheus", f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'tsdb'}",
                               f"--web.listen-address=127.0.0.1:{web}", "--log.level=warn"],
                              stdout=subprocess.DEVNULL, stderr=open(tmp_path / "prometheus.log", "wb"))
    try:
        def query(expr: str):
            url = f"http://127.0.0.1:{web}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    result = json.load(r)["data"]["result"]
            except OSError:
                return None
            return float(result[0]["value"][1]) if result else None

        published = _wait_for("prometheus' first scrape of dissemd",
                              lambda: query("dissem_messages_published_total"), 90)
        stats = json.loads(subprocess.run([str(dissem), "--socket", str(sock), "stats", "--json"], check=True,
                                          capture_output=True, text=True, timeout=30).stdout)
        assert published == stats["messages"]["published"] == 3
        assert query('dissem_traffic_sent_bytes_total{kind="data"}') == stats["traffic"]["data"]["sent"]["bytes"]
        assert query("dissem_cache_messages") == stats["cache"]["messages"]
        assert query('up{job="dissemd"}') == 1.0
    finally:
        _stop(server)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def test_out_of_file_descriptors_the_endpoint_waits_instead_of_spinning(release_daemon):
    """Connections past the daemon's file descriptor limit wait in the
    listen queue: the daemon pauses between tries rather than spinning on
    EMFILE, and serves again once connections close."""
    _, _, port, pid = release_daemon
    open_fds = len(os.listdir(f"/proc/{pid}/fd"))
    subprocess.run(["prlimit", f"--pid={pid}", f"--nofile={open_fds + 3}"], check=True, timeout=30)
    clients = []
    try:
        for _ in range(12):
            clients.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        time.sleep(0.5)
        before = _cpu_seconds(pid)
        time.sleep(2.0)
        spent = _cpu_seconds(pid) - before
        assert spent < 0.5, f"dissemd spent {spent:.2f} s of CPU in 2 s with accepts failing (spinning on EMFILE)"
    finally:
        for c in clients:
            c.close()
    assert "dissem_messages_published_total 3\n" in _wait_for("a scrape after the connections closed",
                                                               lambda: _try_scrape(port), 30)


def _try_scrape(port: int):
    try:
        return _scrape(port)
    except OSError:
        return None
