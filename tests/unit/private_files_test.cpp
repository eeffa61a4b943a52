// The daemon's files are private: cache database 0600 in a directory it
// creates 0700, socket directories never writable by others.
#include "daemon/private_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "cache/store.h"

namespace fs = std::filesystem;
using dissem::daemon::prepare_cache_files;
using dissem::daemon::prepare_socket_directory;

namespace private_files_test {
namespace {

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
  return st.st_mode & 07777;
}

class PrivateFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/dissem-private-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

}  // namespace

TEST_F(PrivateFiles, CacheDatabaseAndItsWalAreOwnerOnlyInAPrivateDirectory) {
  const auto old = ::umask(0);  // the most permissive umask a user could have
  const fs::path db = dir_ / "state" / "cache.db";
  prepare_cache_files(db.string());
  ::umask(old);
  EXPECT_EQ(mode_of(dir_ / "state"), 0700u);
  EXPECT_EQ(mode_of(db), 0600u);
  {
    auto store = dissem::cache::Store::open(db.string());
    store->set_state("k", "v");
    store->flush();
    ASSERT_TRUE(fs::exists(db.string() + "-wal"));
    EXPECT_EQ(mode_of(db.string() + "-wal"), 0600u);
  }
  // An existing database left readable by others is made private again.
  ::chmod(db.c_str(), 0644);
  prepare_cache_files(db.string());
  EXPECT_EQ(mode_of(db), 0600u);
}

TEST_F(PrivateFiles, PayloadFilesAreOwnerOnlyAndAForeignPayloadDirectoryIsRefused) {
  const fs::path db = dir_ / "cache.db";
  const fs::path payload = dir_ / "cache.db-payload";
  prepare_cache_files(db.string());
  const auto old = ::umask(0);
  {
    auto store = dissem::cache::Store::open(db.string());
    dissem::MessageMeta meta;
    meta.id = dissem::MessageId{"g", 1, 1};
    meta.total_length = 1 << 20;  // above the payload file threshold
    const std::vector<std::uint8_t> bytes(1400, 7);
    store->put_fragment(meta, 0, bytes, 0);
    store->flush();
  }
  ::umask(old);
  EXPECT_EQ(mode_of(payload), 0700u);
  EXPECT_EQ(mode_of(payload / "1"), 0600u);
  ::chmod(payload.c_str(), 0755);
  prepare_cache_files(db.string());
  EXPECT_EQ(mode_of(payload), 0700u) << "made private again";
  // A link in its place (to anywhere) is not used.
  fs::rename(payload, dir_ / "elsewhere");
  fs::create_directory_symlink(dir_ / "elsewhere", payload);
  EXPECT_THROW(prepare_cache_files(db.string()), std::runtime_error);
}

TEST_F(PrivateFiles, DirectoriesOthersCanWriteToAreRefused) {
  const fs::path open_dir = dir_ / "open";
  fs::create_directory(open_dir);
  ::chmod(open_dir.c_str(), 0777);
  EXPECT_THROW(prepare_cache_files((open_dir / "cache.db").string()), std::runtime_error);
  EXPECT_FALSE(fs::exists(open_dir / "cache.db"));
  EXPECT_THROW(prepare_socket_directory(open_dir), std::runtime_error);
  ::chmod(open_dir.c_str(), 0775);  // group-writable too
  EXPECT_THROW(prepare_socket_directory(open_dir), std::runtime_error);
}

TEST_F(PrivateFiles, SocketDirectoryIsCreatedReachableButNotWritableByOthers) {
  const auto old = ::umask(0);
  prepare_socket_directory(dir_ / "run" / "dissem");
  ::umask(old);
  EXPECT_EQ(mode_of(dir_ / "run" / "dissem"), 0755u);
  EXPECT_NO_THROW(prepare_cache_files(":memory:"));
}

}  // namespace private_files_test
