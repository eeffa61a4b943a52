// Benchmark: two real dissemd processes on loopback multicast, no loss.
// Prints dissemination throughput with the SQLite cache on, and the CPU both
// daemons spent per MB. Not a test: nothing is asserted about time.
//
// Usage: bench_daemons [total_mb=400] [message_mb=8] [payload_size=0] [link_capacity_bps=6e9] [key=value]...
// (each trailing key=value is an engine setting for both daemons, e.g. coding=false)
// (payload_size 0 is the daemon default: fragments sized to lo's MTU.)
// (message_mb x 4 in flight must stay below the daemon's 64 MiB per-client queue.)
// Environment: DISSEM_BENCH_DIR, the parent of the caches' directory (default /tmp).
#include <malloc.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "support/daemon_process.h"
#include "support/process_cpu.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;


int main(int argc, char** argv) {
  // This process is only the harness (one publishing and one subscribing
  // client): keep its freed message buffers instead of returning each 8 MB
  // to the kernel and faulting the next one in page by page, which cost it
  // half its CPU and took that CPU from the daemons being measured.
  ::mallopt(M_MMAP_THRESHOLD, 256 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 512 << 20);
  const std::size_t total_mb = argc > 1 ? std::stoul(argv[1]) : 400;
  const std::size_t message_mb = argc > 2 ? std::stoul(argv[2]) : 8;
  const auto payload = static_cast<std::uint32_t>(argc > 3 ? std::stoul(argv[3]) : 0);
  // The engine paces at the configured link capacity; on loopback that is the knob.
  const std::uint64_t capacity_bps = argc > 4 ? std::stoull(argv[4]) : 6'000'000'000;
  // DISSEM_BENCH_DIR picks where the caches live (e.g. /dev/shm to take the
  // disk out of the measurement); default /tmp.
  const char* base = std::getenv("DISSEM_BENCH_DIR");
  std::string tmpl = base != nullptr ? base : "/tmp";
  tmpl += "/dissem-bench-XXXXXX";
  const fs::path dir = ::mkdtemp(tmpl.data());
  const int port = dissem::testing::test_port();
  // Removes the directory whatever happens; declared first, so it runs after
  // the daemons below have been stopped by their destructors.
  struct RemoveDir {
    fs::path dir;
    ~RemoveDir() { fs::remove_all(dir); }
  } remove_dir{dir};
  std::vector<std::string> settings{"--set", "engine.link_capacity_bps=" + std::to_string(capacity_bps),
                                    "--set", "engine.payload_size=" + std::to_string(payload),
                                    "--set", "cache.quota_bytes=4000000000"};
  std::string engine_settings;
  for (int i = 5; i < argc; ++i) {
    settings.insert(settings.end(), {"--set", std::string("engine.") + argv[i]});
    engine_settings += std::string(", ") + argv[i];
  }
  try {
    dissem::testing::DaemonProcess pub_daemon(dir, "pub", port, settings);
    dissem::testing::DaemonProcess sub_daemon(dir, "sub", port, settings);
    const pid_t pub = pub_daemon.pid();
    const pid_t sub = sub_daemon.pid();
    dissem::client::Client cs((dir / "sub.sock").string());
    dissem::client::Client cp((dir / "pub.sock").string());
    cs.subscribe("bench");
    std::vector<std::uint8_t> data(message_mb << 20, 0x5a);
    const std::size_t messages = total_mb / message_mb;
    const double cpu0 = dissem::testing::process_cpu_seconds(pub) + dissem::testing::process_cpu_seconds(sub);
    const auto t0 = std::chrono::steady_clock::now();
    // The publishing client runs in its own thread, as an application that
    // produces and one that consumes would: each publish waits for the
    // daemon to commit it (the API's durability promise), and reading the
    // deliveries must not wait behind that. At most kInFlight messages are
    // published ahead of what has been delivered.
    constexpr std::size_t kInFlight = 4;  // x 8 MB: below the daemon's 64 MiB per-client queue
    std::mutex m;
    std::condition_variable delivered_cv;
    std::size_t received = 0;
    bool stop = false;
    std::string publish_error;
    std::thread publisher([&] {
      try {
        for (std::size_t published = 0; published < messages; ++published) {
          {
            std::unique_lock lock(m);
            delivered_cv.wait(lock, [&] { return stop || published < received + kInFlight; });
            if (stop) return;
          }
          data[0] = static_cast<std::uint8_t>(published);
          cp.publish("bench", data);
        }
      } catch (const std::exception& e) {
        std::lock_guard lock(m);
        publish_error = e.what();
      }
    });
    // Whatever happens below, the publisher is told to stop and joined.
    struct StopPublisher {
      std::mutex& m;
      std::condition_variable& cv;
      bool& stop;
      std::thread& thread;
      ~StopPublisher() {
        {
          std::lock_guard lock(m);
          stop = true;
        }
        cv.notify_one();
        thread.join();
      }
    } stop_publisher{m, delivered_cv, stop, publisher};
    while (received < messages) {
      if (!cs.next_delivery(30s)) {
        std::printf("stalled after %zu of %zu messages\n", received, messages);
        break;
      }
      std::lock_guard lock(m);
      ++received;
      delivered_cv.notify_one();
    }
    {
      std::lock_guard lock(m);
      if (!publish_error.empty()) std::printf("publishing failed: %s\n", publish_error.c_str());
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = dissem::testing::process_cpu_seconds(pub) + dissem::testing::process_cpu_seconds(sub) - cpu0;
    const double mb = static_cast<double>(received * message_mb);
    std::printf("two daemons on loopback, payload %s B, link %.0f Mbit/s%s, %zu x %zu MB messages: %.1f MB/s, %.3f CPU-s per MB (both daemons)\n",
                payload == 0 ? "MTU-sized" : std::to_string(payload).c_str(), static_cast<double>(capacity_bps) / 1e6,
                engine_settings.c_str(), received, message_mb, mb / secs, cpu / mb);
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
