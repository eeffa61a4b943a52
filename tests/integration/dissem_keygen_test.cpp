// `dissem keygen` and dissemd's [security] keys, as an operator uses them:
// the files keygen writes (and their modes), rotation by --append, refusals,
// and dissemd printing key paths but never keys, and refusing a key file
// others can read.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "daemon/key_files.h"
#include "support/run_capture.h"

namespace fs = std::filesystem;

namespace dissem_keygen_test {
namespace {

using dissem::testing::run_capture;

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << "'" << (needle) << "' not in: " << (haystack)

struct Run {
  int code = -1;
  std::string output;  // stdout and stderr
};

// `program args` through the shell (the test's paths need no quoting), with
// a time limit so that a daemon that unexpectedly starts cannot hang the test.
Run run(const std::string& program, const std::string& args) {
  Run r;
  std::string command = "timeout 30 ";
  command += program;
  command += ' ';
  command += args;
  r.output = run_capture(command, &r.code);
  return r;
}

std::string dissem_path() { return (fs::path(DISSEMD_PATH).parent_path() / "dissem").string(); }
Run keygen(const std::string& args) { return run(dissem_path(), "keygen " + args); }

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

unsigned mode_of(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

std::size_t longest_hex_run(const std::string& text) {
  std::size_t run = 0, longest = 0;
  for (const char c : text) {
    run = std::isxdigit(static_cast<unsigned char>(c)) ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

class DissemKeygen : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/dissem-keygen-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    ASSERT_TRUE(fs::exists(dissem_path())) << dissem_path() << " not built";
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

}  // namespace

TEST_F(DissemKeygen, GroupWritesPrivateSecretsAndAppendRotates) {
  const std::string prefix = path("news");
  const auto first = keygen("group news --epoch 1 --out " + prefix + " --seal");
  ASSERT_EQ(first.code, 0) << first.output;
  for (const char* suffix : {".sign", ".verify", ".seal"}) EXPECT_CONTAINS(first.output, prefix + suffix);
  EXPECT_CONTAINS(first.output, "epoch 1");
  EXPECT_LT(longest_hex_run(first.output), 64u) << "key bytes printed: " << first.output;
  EXPECT_EQ(mode_of(prefix + ".sign"), 0600u);
  EXPECT_EQ(mode_of(prefix + ".seal"), 0600u);
  EXPECT_EQ(mode_of(prefix + ".verify"), 0644u);

  // A rotation: epoch 2 joins epoch 1 in the signing and verify files.
  const auto second = keygen("group news --epoch 2 --out " + prefix + " --append");
  ASSERT_EQ(second.code, 0) << second.output;
  EXPECT_CONTAINS(second.output, "added epoch 2 to " + prefix + ".sign");
  auto keys = dissem::daemon::read_group_keys("news", prefix, "security.group_keys");
  EXPECT_EQ(keys.verify.size(), 2u);
  EXPECT_EQ(keys.sign.size(), 2u);
  EXPECT_EQ(keys.seal.size(), 1u);

  // An epoch already there is refused before anything is written.
  const std::string sign_before = slurp(prefix + ".sign");
  const auto again = keygen("group news --epoch 2 --out " + prefix + " --append --seal");
  EXPECT_EQ(again.code, 2) << again.output;
  EXPECT_CONTAINS(again.output, "already holds epoch 2");
  EXPECT_EQ(slurp(prefix + ".sign"), sign_before);
  EXPECT_EQ(dissem::daemon::read_seal_keys(prefix + ".seal", "news", "").size(), 1u);

  ASSERT_EQ(keygen("group news --epoch 3 --out " + prefix + " --append --seal").code, 0);
  keys = dissem::daemon::read_group_keys("news", prefix, "security.group_keys");
  EXPECT_EQ(keys.sign.size(), 3u);
  EXPECT_EQ(keys.seal.size(), 2u);

  // Another group's prefix holds files of group 'news'.
  const auto other = keygen("group alerts --epoch 4 --out " + prefix + " --append");
  EXPECT_EQ(other.code, 2) << other.output;
  EXPECT_CONTAINS(other.output, "holds keys of group 'news', not of group 'alerts'");
}

TEST_F(DissemKeygen, RefusesToOverwriteWithoutAppend) {
  const std::string file = path("net.key");
  ASSERT_EQ(keygen("network --epoch 1 --out " + file).code, 0);
  EXPECT_EQ(mode_of(file), 0600u);
  const std::string before = slurp(file);
  const auto refused = keygen("network --epoch 2 --out " + file);
  EXPECT_EQ(refused.code, 2);
  EXPECT_CONTAINS(refused.output, file + " already exists");
  EXPECT_CONTAINS(refused.output, "--append");
  EXPECT_EQ(slurp(file), before);

  const auto group = keygen("group g --epoch 1 --out " + path("g"));
  ASSERT_EQ(group.code, 0) << group.output;
  const auto group_again = keygen("group g --epoch 2 --out " + path("g"));
  EXPECT_EQ(group_again.code, 2) << group_again.output;
  EXPECT_EQ(dissem::daemon::read_group_keys("g", path("g"), "").sign.size(), 1u);

  ASSERT_EQ(keygen("network --epoch 2 --out " + file + " --append").code, 0);
  EXPECT_EQ(dissem::daemon::read_network_keys(file, "").size(), 2u);

  EXPECT_EQ(keygen("network --epoch 1 --out " + path("missing.key") + " --append").code, 2);
  EXPECT_FALSE(fs::exists(path("missing.key")));
  EXPECT_EQ(keygen("network --epoch 0 --out " + path("zero.key")).code, 2);
  EXPECT_EQ(keygen("network --out " + path("zero.key")).code, 2) << "--epoch is required";
  EXPECT_EQ(keygen("group a=b --epoch 1 --out " + path("bad")).code, 2) << "not a configurable group name";
  EXPECT_FALSE(fs::exists(path("zero.key")));
}

TEST_F(DissemKeygen, DissemdPrintsKeyPathsNotKeysAndRefusesAReadableKey) {
  const std::string net = path("net.key"), prefix = path("news");
  ASSERT_EQ(keygen("network --epoch 1 --out " + net).code, 0);
  ASSERT_EQ(keygen("group news --epoch 1 --out " + prefix + " --seal").code, 0);
  const std::string keys = "--set security.network_key_file=" + net + " --set security.group_keys=news=" + prefix;

  const auto printed = run(DISSEMD_PATH, "--print-config " + keys);
  ASSERT_EQ(printed.code, 0) << printed.output;
  EXPECT_CONTAINS(printed.output, "network_key_file = \"" + net + "\"");
  EXPECT_CONTAINS(printed.output, "group_keys = [\"news=" + prefix + "\"]");
  EXPECT_LT(longest_hex_run(printed.output), 64u) << "key bytes printed: " << printed.output;

  ::chmod(net.c_str(), 0644);
  const std::string where = " --cache " + path("cache.db") + " --socket " + path("d.sock") + " --port 9";
  const auto refused = run(DISSEMD_PATH, keys + where);
  EXPECT_EQ(refused.code, 1) << refused.output;
  EXPECT_CONTAINS(refused.output, "security.network_key_file: " + net + ": mode 0644");
  EXPECT_CONTAINS(refused.output, "chmod 600 " + net);
}

}  // namespace dissem_keygen_test
