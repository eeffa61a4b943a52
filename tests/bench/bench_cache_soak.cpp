// Benchmark: the disk footprint of the cache under a long stream. Two real
// dissemd on loopback; one publishes COUNT messages of SIZE KB, the other
// subscribes; both caches have `cache.quota_bytes` = QUOTA MiB. At the end it
// prints, per daemon, what the cache holds and what its files take (database
// plus WAL), against the quota. Not a test: nothing is asserted.
//
// Usage: bench_cache_soak [count=24000] [size_kb=10] [quota_mib=64]
// Environment: DISSEM_BENCH_DIR, the parent of the caches' directory (default /tmp).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <sqlite3.h>
#include <sys/stat.h>

#include "client/client.h"
#include "support/daemon_process.h"
#include "support/process_cpu.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

std::uintmax_t file_size_or_zero(const fs::path& p) {
  std::error_code ec;
  const auto n = fs::file_size(p, ec);
  return ec ? 0 : n;
}

// Disk space the payload files take (allocated blocks: they may be sparse).
std::uintmax_t payload_bytes(const fs::path& db) {
  std::uintmax_t total = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(db.string() + "-payload", ec)) {
    struct stat st {};
    if (::stat(entry.path().c_str(), &st) == 0) total += static_cast<std::uintmax_t>(st.st_blocks) * 512;
  }
  return total;
}

void report(const char* name, const fs::path& db, dissem::client::Client& c, double quota) {
  const auto st = c.stats();
  const double main_mb = static_cast<double>(file_size_or_zero(db)) / 1e6;
  const double wal_mb = static_cast<double>(file_size_or_zero(db.string() + "-wal")) / 1e6;
  const double files_mb = static_cast<double>(payload_bytes(db)) / 1e6;
  std::printf("%s: cache holds %.1f MB in %llu messages; files %.1f MB database + %.1f MB WAL + %.1f MB payload "
              "files = %.2fx the quota (target <= 1.3x)\n",
              name, static_cast<double>(st.cache_bytes) / 1e6, static_cast<unsigned long long>(st.cache_messages),
              main_mb, wal_mb, files_mb, (main_mb + wal_mb + files_mb) * 1e6 / quota);
}

// After the daemons have stopped: how the database file's pages are used.
void report_pages(const char* name, const fs::path& db) {
  sqlite3* h = nullptr;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(h);
    return;
  }
  auto scalar = [&](const char* sql) {
    sqlite3_stmt* st = nullptr;
    long long v = -1;
    if (sqlite3_prepare_v2(h, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
      v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
  };
  std::printf("%s after stop: %lld pages of %lld bytes, %lld free\n", name, scalar("PRAGMA page_count"),
              scalar("PRAGMA page_size"), scalar("PRAGMA freelist_count"));
  sqlite3_close(h);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t count = argc > 1 ? std::stoul(argv[1]) : 24000;
  const std::size_t size = (argc > 2 ? std::stoul(argv[2]) : 10) * 1024;
  const std::size_t quota = (argc > 3 ? std::stoul(argv[3]) : 64) << 20;
  const char* base = std::getenv("DISSEM_BENCH_DIR");
  std::string tmpl = std::string(base != nullptr ? base : "/tmp") + "/dissem-soak-XXXXXX";
  const fs::path dir = ::mkdtemp(tmpl.data());
  struct RemoveDir {
    fs::path dir;
    ~RemoveDir() { fs::remove_all(dir); }
  } remove_dir{dir};
  const std::vector<std::string> settings{"--set", "engine.link_capacity_bps=1000000000", "--set",
                                          "engine.payload_size=1400", "--set",
                                          "cache.quota_bytes=" + std::to_string(quota)};
  try {
    {
    const int port = dissem::testing::test_port();
    dissem::testing::DaemonProcess pub_daemon(dir, "pub", port, settings);
    dissem::testing::DaemonProcess sub_daemon(dir, "sub", port, settings);
    dissem::client::Client cs((dir / "sub.sock").string());
    dissem::client::Client cp((dir / "pub.sock").string());
    cs.subscribe("soak");
    std::vector<std::uint8_t> data(size, 0x3c);
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t published = 0;
    std::size_t received = 0;
    while (received < count) {
      while (published < count && published < received + 256) {
        data[0] = static_cast<std::uint8_t>(published);
        data[1] = static_cast<std::uint8_t>(published >> 8);
        cp.publish("soak", data);
        ++published;
      }
      if (!cs.next_delivery(30s)) {
        std::printf("stalled after %zu of %zu messages\n", received, count);
        break;
      }
      ++received;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%zu x %zu KB through two daemons, quota %zu MiB: %zu delivered in %.1f s (%.1f MB/s)\n", count,
                size / 1024, quota >> 20, received, secs,
                static_cast<double>(received * size) / 1e6 / secs);
    report("publisher", dir / "pub.db", cp, static_cast<double>(quota));
    report("subscriber", dir / "sub.db", cs, static_cast<double>(quota));
    }
    report_pages("publisher", dir / "pub.db");
    report_pages("subscriber", dir / "sub.db");
  } catch (const std::exception& e) {
    std::printf("benchmark aborted: %s\n", e.what());
    return 1;
  }
  return 0;
}
