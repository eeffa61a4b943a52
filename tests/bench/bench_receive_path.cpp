// Benchmark: the engine's receive path with the SQLite cache.
// Prints fragments per second on one core (decode + reassembly + NTM + cache
// insert + completion + delivery read-back) and the header bytes per fragment,
// in an open network and with authentication on (every datagram sealed with
// the network key, every message signed: engine/security/security_config.h), for
// large messages (140 fragments) and for one-fragment messages (a signature
// check per fragment when they arrive one by one: the worst case), and for
// bursts handed over together as a loaded daemon reads them.
// Not a test: it asserts nothing about time.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <sodium.h>

#include "engine/security/datagram_auth.h"
#include "engine/fragmenter.h"
#include "engine/security/manifest_chain.h"
#include "engine/security/message_signature.h"
#include "engine/node.h"
#include "wire/codec.h"
#include "wire/message_digest.h"

using namespace dissem;

namespace {

// CPU time of this thread: "per core" figures that a busy or stolen CPU on a
// shared virtual machine does not distort the way wall time does.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Keys for the authenticated runs: a network key and group bench/group1's pair.
struct BenchKeys {
  engine::SecurityConfig receiver;
  engine::SigningKey sign{};
  engine::SymmetricKey net{};
  BenchKeys() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium");
    engine::VerifyKey pk{};
    crypto_sign_keypair(pk.data(), sign.data());
    randombytes_buf(net.data(), net.size());
    receiver.network[1] = net;
    receiver.groups["bench/group1"].verify[1] = pk;
  }
};

std::vector<std::vector<std::uint8_t>> make_datagrams(std::size_t fragments, std::uint32_t per_message,
                                                      const BenchKeys* keys = nullptr) {
  std::vector<std::vector<std::uint8_t>> out;
  out.reserve(fragments);
  std::vector<std::uint8_t> payload(1400);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<std::uint8_t>(i * 31);
  // Every message is `per_message` copies of `payload`: one digest for all,
  // and the receiver's check of each completed message is real work.
  std::vector<std::uint8_t> whole;
  for (std::uint32_t f = 0; f < per_message; ++f) whole.insert(whole.end(), payload.begin(), payload.end());
  const std::uint64_t digest = wire::message_digest(whole);
  wire::DataFragment d;
  std::string previous_link;  // as a publisher chains its manifests (engine/security/manifest_chain.h)
  for (std::uint64_t seq = 1; out.size() < fragments; ++seq) {
    MessageMeta meta;
    meta.id = {"bench/group1", 0x0BADCAFE, seq};
    meta.total_length = per_message * 1400;
    meta.priority = 1;
    // A day after the receiver's clock: expiries travel as 32-bit
    // milliseconds and must lie within 24 days of it (engine/message_expiry.h).
    meta.expiry_ms = 1'700'000'000'000 + 86'400'000;
    meta.digest = digest;
    if (keys != nullptr) {
      meta.key_epoch = 1;
      meta.chain = previous_link;
      meta.signature = engine::sign_manifest(meta, keys->sign);
      previous_link = engine::link_bytes(engine::manifest_link(meta));
    }
    for (std::uint32_t f = 0; f < per_message && out.size() < fragments; ++f) {
      engine::fill_fragment(d, meta, f * 1400, payload, false, 0);
      out.push_back(wire::encode(d));
      if (keys != nullptr) engine::seal_datagram(out.back(), keys->net, 1, 0x0BADCAFE, 1'000'000 + out.size());
    }
  }
  return out;
}

// The cache file and what lives beside it (WAL, payload files).
void remove_cache(const std::string& path) {
  if (path == ":memory:") return;
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  std::filesystem::remove_all(path + "-payload");
}

// Where the file-backed runs keep their cache: $DISSEM_BENCH_DIR, else /tmp
// (as bench_daemons). Creating a file on ext4 without a journal, as on the
// 2-core test machine, scans past every inode deleted in the last minutes:
// where the test suite just ran that is up to 0.5 ms, against 30 us in a
// quiet directory. A fresh cache creates one per large message; one at its
// quota reuses the files of the messages it evicts.
std::string bench_cache_path() {
  const char* dir = std::getenv("DISSEM_BENCH_DIR");
  return std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/dissem-bench-cache.db";
}

// `batch`: datagrams handed over together (Node::on_datagrams), as a daemon
// drains its socket; 1 = one by one.
void run(const char* label, const std::string& path, const std::vector<std::vector<std::uint8_t>>& datagrams,
         const engine::SecurityConfig& security = {}, std::size_t batch = 1, const cache::StoreOptions& store = {}) {
  remove_cache(path);
  engine::EngineConfig cfg;
  cfg.node_id = 2;
  cfg.security = security;
  engine::Node node(cfg, cache::Store::open(path, store), 1'700'000'000LL * kSeconds);
  node.subscribe("bench/group1", engine::SubscriptionOptions{}, 0);
  Micros now = 1'700'000'000LL * kSeconds;
  std::size_t delivered = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = thread_cpu_seconds();
  std::vector<std::span<const std::uint8_t>> burst;
  for (std::size_t i = 0; i < datagrams.size(); i += batch) {
    if (batch == 1) {
      node.on_datagram(datagrams[i], now);
    } else {
      burst.assign(datagrams.begin() + static_cast<std::ptrdiff_t>(i),
                   datagrams.begin() + static_cast<std::ptrdiff_t>(std::min(i + batch, datagrams.size())));
      node.on_datagrams(burst, now);
    }
    now += 10;
    while (node.poll_delivery()) ++delivered;
  }
  node.store().flush();
  const double cpu = thread_cpu_seconds() - c0;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double fps = static_cast<double>(datagrams.size()) / cpu;
  std::printf("%-34s %zu fragments: %8.0f fragments/s per core (%6.3f s CPU, %6.3f s wall), %6.1f MB/s, "
              "%zu messages delivered, %llu signatures checked\n",
              label, datagrams.size(), fps, cpu, secs, fps * 1400 / 1e6, delivered,
              static_cast<unsigned long long>(node.stats().signatures_checked));
  remove_cache(path);
}

}  // namespace

int main(int argc, char** argv) {
  // Usage: bench_receive_path [fragments] [all|memory|file|quota|auth]
  const std::size_t n = argc > 1 ? std::stoul(argv[1]) : 200'000;
  const std::string which = argc > 2 ? argv[2] : "all";
  const auto datagrams = make_datagrams(n, 140);
  std::printf("header bytes per fragment: %zu (group \"bench/group1\", 12 chars, 1400-byte payload)\n",
              datagrams[100].size() - 1400);

  // Decode alone, for reference.
  wire::Decoded decoded;
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t ok = 0;
  for (const auto& d : datagrams) ok += wire::decode(d, wire::Limits{}, decoded) ? 0 : 1;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%-28s %9zu fragments in %6.3f s: %9.0f fragments/s\n", "decode only", ok, secs,
              static_cast<double>(ok) / secs);

  // The integrity check's share: hashing a completed message once.
  {
    const std::vector<std::uint8_t> message(1 << 20, 0x5a);
    std::uint64_t sink = 0;
    const double c0 = thread_cpu_seconds();
    constexpr int kRounds = 200;
    for (int i = 0; i < kRounds; ++i) sink += wire::message_digest(message);
    const double cpu = thread_cpu_seconds() - c0;
    std::printf("%-28s %9.0f MB/s per core (BLAKE2b, 1 MiB messages; checksum %llx)\n", "message digest",
                kRounds * 1.048576 / cpu, static_cast<unsigned long long>(sink));
  }

  if (which == "all" || which == "memory") run("receive path, :memory:", ":memory:", datagrams);
  if (which == "all" || which == "file" || which == "quota") {
    // A cache at its quota, as a daemon's is after a while: the oldest
    // messages are evicted and new ones reuse their files.
    cache::StoreOptions at_quota;
    at_quota.quota_bytes = 32 << 20;
    run("receive path, WAL file at 32 MiB quota", bench_cache_path(), datagrams, {}, 64, at_quota);
  }
  if (which == "all" || which == "file") {
    // Messages of 196 KB: each payload in a file of its own.
    run("receive path, WAL file", bench_cache_path(), datagrams);
    // As dissemd hands them over: each socket wake-up's datagrams together.
    run("receive path, WAL file, burst 64", bench_cache_path(), datagrams, {}, 64);
    // Every payload in SQLite rows, as before payload files.
    cache::StoreOptions rows;
    rows.payload_file_min_bytes = 0;
    run("... payload in rows, burst 64", bench_cache_path(), datagrams, {}, 64, rows);
  }
  if (which == "all" || which == "auth") {
    const BenchKeys keys;
    const auto sealed = make_datagrams(n, 140, &keys);
    // The last message links to its predecessor, as all but a publisher's
    // first after a restart do.
    const std::size_t extra = sealed.back().size() - datagrams.back().size();
    std::printf("authenticated: %zu bytes more per datagram (trailer, signature, epoch and chain link), %zu per "
                "140-fragment message\n", extra, 140 * extra);
    run("auth off, :memory:", ":memory:", datagrams);
    run("auth on, :memory:", ":memory:", sealed, keys.receiver);
    run("auth on, WAL file", bench_cache_path(), sealed, keys.receiver);
    const auto small = make_datagrams(n / 4, 1);
    const auto small_sealed = make_datagrams(n / 4, 1, &keys);
    run("1-fragment msgs, auth off", ":memory:", small);
    run("1-fragment msgs, auth on", ":memory:", small_sealed, keys.receiver);
    // A receiver at its limit finds its socket full: the daemon hands each
    // wake-up's datagrams over together (up to 64), and one signature check
    // vouches for the burst (engine/security/manifest_chain.h).
    for (const std::size_t batch : {8, 64}) {
      const std::string off = "1-fragment msgs, auth off, burst " + std::to_string(batch);
      const std::string on = "1-fragment msgs, auth on, burst " + std::to_string(batch);
      run(off.c_str(), ":memory:", small, {}, batch);
      run(on.c_str(), ":memory:", small_sealed, keys.receiver, batch);
    }
    run("140-fragment msgs, auth on, burst 64", ":memory:", sealed, keys.receiver, 64);
  }
  return 0;
}
