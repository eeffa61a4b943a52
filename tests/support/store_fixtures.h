// Messages cut into fragments, and a child process killed as with kill -9,
// for the cache Store's tests.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cache/store.h"
#include "support/test_time.h"

namespace dissem::test::store {

using dissem::MessageId;
using dissem::MessageMeta;
using dissem::Micros;
using dissem::cache::Store;


inline MessageMeta make_meta(std::uint64_t seq, std::uint32_t total_length, std::string group = "g") {
  MessageMeta m;
  m.id = MessageId{std::move(group), 7, seq};
  m.total_length = total_length;
  m.priority = 3;
  m.expiry_ms = 2'000'000'000'000;
  m.history_window = 16;
  m.tag = "tag-" + std::to_string(seq);
  return m;
}

// Deterministic bytes that differ per message and offset, so a fragment read
// from the wrong place never compares equal.
inline std::vector<std::uint8_t> bytes(std::uint32_t length, std::uint32_t seed) {
  std::vector<std::uint8_t> out(length);
  for (std::uint32_t i = 0; i < length; ++i) out[i] = static_cast<std::uint8_t>(seed * 131 + i * 7);
  return out;
}

// The payload of a message and its fragments, cut the way the engine does.
struct Message {
  MessageMeta meta;
  std::vector<std::uint8_t> payload;

  Message(std::uint64_t seq, std::uint32_t total_length) : meta(make_meta(seq, total_length)) {
    payload = bytes(total_length, static_cast<std::uint32_t>(seq));
  }
  std::span<const std::uint8_t> part(std::uint32_t offset, std::uint32_t length) const {
    return std::span(payload).subspan(offset, length);
  }
  // Puts fragments [first, last) of `size` bytes each.
  void put(Store& s, std::uint32_t size, std::uint32_t first, std::uint32_t last, bool own = false) const {
    for (std::uint32_t i = first; i < last; ++i) {
      const std::uint32_t off = i * size;
      ASSERT_TRUE(s.put_fragment(meta, off, part(off, std::min(size, meta.total_length - off)), kT0 + i, own));
    }
  }
};

// Dies as with kill -9: no destructor, no flush, no atexit. Called inside the
// scope that owns the Store, or its destructor would commit first.
[[noreturn]] inline void kill_self() {
  ::raise(SIGKILL);
  ::_exit(99);  // not reached
}

// Runs `body` (which ends with kill_self()) in a child process.
template <typename F>
void in_killed_child(F&& body) {
  const pid_t pid = ::fork();
  ASSERT_NE(pid, -1);
  if (pid == 0) {
    body();
    ::_exit(98);  // body did not kill itself
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "child did not die by SIGKILL";
}

}  // namespace dissem::test::store
