// A restart after an unclean shutdown: complete messages whose payload is in
// a file (cache/payload_files.h) are checked against their digest before the
// engine trusts them, since a power loss may leave holes that read as zeros.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/node.h"
#include "support/store_fixtures.h"
#include "support/temp_db.h"
#include "wire/message_digest.h"

using namespace dissem;
using namespace dissem::test::store;
namespace fs = std::filesystem;

namespace node_restart_verify_test {
namespace {

constexpr std::uint32_t kFrag = 1400;

Message with_digest(std::uint64_t seq, std::uint32_t length) {
  Message m(seq, length);
  m.meta.digest = wire::message_digest(m.payload);
  return m;
}

}  // namespace

TEST(NodeRestart, AFileBackedMessageWithAHoleIsDroppedAfterAnUncleanShutdown) {
  test::TempDb db;
  const Message good = with_digest(1, 100 * kFrag);
  const Message holed = with_digest(2, 150 * kFrag);
  in_killed_child([&] {
    auto s = cache::Store::open(db.path());
    good.put(*s, kFrag, 0, 100);
    holed.put(*s, kFrag, 0, 150);
    s->mark_complete(good.meta.id);
    s->mark_complete(holed.meta.id);
    s->flush();
    kill_self();
  });
  // What a power loss can leave: a page of the file that never reached the disk.
  const fs::path dir = db.path() + "-payload";
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (fs::file_size(entry.path()) != holed.meta.total_length) continue;
    std::fstream f(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(70 * kFrag);
    const std::string zeros(4096, '\0');
    f.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  }
  engine::EngineConfig cfg;
  cfg.node_id = 9;
  engine::Node node(cfg, cache::Store::open(db.path()), kT0);
  EXPECT_TRUE(node.store().contains(good.meta.id));
  EXPECT_FALSE(node.store().contains(holed.meta.id)) << "dropped, to be fetched again";
  EXPECT_EQ(node.stats().integrity[static_cast<std::size_t>(engine::IntegrityEvent::VerifyFailed)], 1u);
}

}  // namespace node_restart_verify_test
