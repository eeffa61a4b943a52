// Benchmark: two real dissemd processes on loopback multicast, no loss.
// Prints dissemination throughput with the SQLite cache on, and the CPU both
// daemons spent per MB. Not a test: nothing is asserted about time.
//
// Usage: bench_daemons [total_mb=400] [message_mb=8] [payload_size=1400] [link_capacity_bps=1e9]
// (message_mb x 4 in flight must stay below the daemon's 64 MiB per-client queue.)
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// utime + stime of a process, in seconds, from /proc/<pid>/stat.
double cpu_seconds(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(f, line);
  const auto close = line.rfind(')');
  std::vector<std::string> fields;
  std::string field;
  for (char ch : line.substr(close + 2)) {
    if (ch == ' ') {
      fields.push_back(field);
      field.clear();
    } else {
      field += ch;
    }
  }
  // After "pid (comm) ": state is field 0, utime field 11, stime field 12.
  return (std::stod(fields.at(11)) + std::stod(fields.at(12))) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

pid_t start_daemon(const fs::path& dir, const char* name, int port, std::uint32_t payload,
                   std::uint64_t capacity_bps) {
  std::string sock = (dir / name).string();
  sock += ".sock";
  std::string db = (dir / name).string();
  db += ".db";
  std::vector<std::string> args{DISSEMD_PATH, "--interface", "lo", "--port", std::to_string(port), "--cache", db,
                                "--socket", sock, "--log-level", "warn",
                                "--set", "engine.link_capacity_bps=" + std::to_string(capacity_bps),
                                "--set", "engine.payload_size=" + std::to_string(payload),
                                "--set", "cache.quota_bytes=4000000000"};
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  for (int i = 0; i < 200; ++i) {
    try {
      dissem::client::Client probe(sock);
      return pid;
    } catch (const std::exception&) {
      std::this_thread::sleep_for(25ms);
    }
  }
  throw std::runtime_error("dissemd did not start");
}

void stop(pid_t pid) {
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t total_mb = argc > 1 ? std::stoul(argv[1]) : 400;
  const std::size_t message_mb = argc > 2 ? std::stoul(argv[2]) : 8;
  const auto payload = static_cast<std::uint32_t>(argc > 3 ? std::stoul(argv[3]) : 1400);
  // The engine paces at the configured link capacity; on loopback that is the knob.
  const std::uint64_t capacity_bps = argc > 4 ? std::stoull(argv[4]) : 1'000'000'000;
  char tmpl[] = "/tmp/dissem-bench-XXXXXX";
  const fs::path dir = ::mkdtemp(tmpl);
  const int port = 20000 + static_cast<int>(::getpid() % 20000);
  const pid_t pub = start_daemon(dir, "pub", port, payload, capacity_bps);
  const pid_t sub = start_daemon(dir, "sub", port, payload, capacity_bps);
  // Whatever happens below, the daemons are stopped and the directory removed.
  struct Cleanup {
    pid_t pub, sub;
    fs::path dir;
    ~Cleanup() {
      stop(pub);
      stop(sub);
      fs::remove_all(dir);
    }
  } cleanup{pub, sub, dir};
  try {
    dissem::client::Client cs((dir / "sub.sock").string());
    dissem::client::Client cp((dir / "pub.sock").string());
    cs.subscribe("bench");
    std::vector<std::uint8_t> data(message_mb << 20, 0x5a);
    const std::size_t messages = total_mb / message_mb;
    const double cpu0 = cpu_seconds(pub) + cpu_seconds(sub);
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t received = 0;
    std::size_t published = 0;
    // Keep a few messages in flight: publish ahead of what was delivered.
    while (received < messages) {
      while (published < messages && published < received + 4) {
        data[0] = static_cast<std::uint8_t>(published);
        cp.publish("bench", data);
        ++published;
      }
      auto d = cs.next_delivery(30s);
      if (!d) {
        std::printf("stalled after %zu of %zu messages\n", received, messages);
        break;
      }
      ++received;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = cpu_seconds(pub) + cpu_seconds(sub) - cpu0;
    const double mb = static_cast<double>(received * message_mb);
    std::printf("two daemons on loopback, payload %u B, link %.0f Mbit/s, %zu x %zu MB messages: %.1f MB/s, %.3f CPU-s per MB (both daemons)\n",
                payload, static_cast<double>(capacity_bps) / 1e6, received, message_mb, mb / secs, cpu / mb);
    const auto st = cs.stats().engine;
    std::printf("subscriber: %llu data + %llu repair datagrams received, %llu MFRs sent, %llu duplicate fragments\n",
                static_cast<unsigned long long>(st.received[0].datagrams),
                static_cast<unsigned long long>(st.received[1].datagrams),
                static_cast<unsigned long long>(st.mfrs_sent), static_cast<unsigned long long>(st.duplicate_fragments));
  } catch (const std::exception& e) {
    // E.g. the daemon dropped a client whose queue overflowed (64 MiB): keep
    // in-flight messages x message size below that.
    std::printf("benchmark aborted: %s\n", e.what());
    return 1;
  }
  return 0;
}
