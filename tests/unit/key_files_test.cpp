// Key files (daemon/key_files.h): every kind written and read back, rotation
// by appending an epoch, and errors that name the configuration key, the file,
// the line and what is wrong, without ever showing key bytes.
#include <gtest/gtest.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "daemon/key_files.h"
#include "engine/config_keys.h"

namespace dissem::daemon::key_files_test {
namespace {

namespace fs = std::filesystem;
using engine::ConfigError;

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << "'" << (needle) << "' not in: " << (haystack)

std::string hex(std::span<const std::uint8_t> bytes) {
  std::string out(2 * bytes.size() + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes.data(), bytes.size());
  out.pop_back();
  return out;
}

// Whether `text` holds a run of at least `n` hex digits (key material).
bool has_hex_run(const std::string& text, std::size_t n) {
  std::size_t run = 0;
  for (const char c : text) {
    run = std::isxdigit(static_cast<unsigned char>(c)) ? run + 1 : 0;
    if (run >= n) return true;
  }
  return false;
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

class KeyFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "dissem-key-files-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // A hand-written file with `mode`.
  std::string write(const std::string& name, const std::string& text, mode_t mode = 0600) {
    const auto p = path(name);
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
    ::chmod(p.c_str(), mode);
    return p;
  }

  // The ConfigError reading `p` as a network key file gives ("" if none).
  static std::string network_error(const std::string& p) {
    try {
      read_network_keys(p, "security.network_key_file");
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  }

  static std::string group_error(const std::string& prefix, const std::string& group = "news") {
    try {
      read_group_keys(group, prefix, "security.group_keys");
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(KeyFiles, EveryKindRoundTripsAndAppendingAddsAnEpoch) {
  const auto net1 = generate_network_key(), net2 = generate_network_key();
  EXPECT_NE(net1, net2);
  create_key_file(path("net.key"), KeyKind::Network, "", 1, net1);
  append_key(path("net.key"), KeyKind::Network, "", 7, net2);
  const auto net = read_network_keys(path("net.key"), "k");
  ASSERT_EQ(net.size(), 2u);
  EXPECT_EQ(net.at(1), net1);
  EXPECT_EQ(net.at(7), net2);

  SigningPair p1, p2;
  generate_signing_pair(p1);
  generate_signing_pair(p2);
  const auto seal1 = generate_seal_key();
  const std::string prefix = path("news");
  create_key_file(prefix + ".verify", KeyKind::Verify, "news", 1, p1.verify);
  create_key_file(prefix + ".sign", KeyKind::Sign, "news", 1, p1.sign);
  create_key_file(prefix + ".seal", KeyKind::Seal, "news", 1, seal1);
  append_key(prefix + ".verify", KeyKind::Verify, "news", 2, p2.verify);
  append_key(prefix + ".sign", KeyKind::Sign, "news", 2, p2.sign);

  const auto g = read_group_keys("news", prefix, "security.group_keys");
  EXPECT_EQ(g.verify, (std::map<std::uint32_t, engine::VerifyKey>{{1, p1.verify}, {2, p2.verify}}));
  EXPECT_EQ(g.sign, (std::map<std::uint32_t, engine::SigningKey>{{1, p1.sign}, {2, p2.sign}}));
  EXPECT_EQ(g.seal, (std::map<std::uint32_t, engine::SymmetricKey>{{1, seal1}}));
  EXPECT_EQ(read_sign_keys(prefix + ".sign", "news", "k").size(), 2u);
  EXPECT_EQ(read_seal_keys(prefix + ".seal", "news", "k").size(), 1u);
  EXPECT_EQ(read_key_epochs(prefix + ".verify", KeyKind::Verify, "news"), (std::set<std::uint32_t>{1, 2}));

  EXPECT_EQ(mode_of(path("net.key")), 0600u);
  EXPECT_EQ(mode_of(prefix + ".sign"), 0600u);
  EXPECT_EQ(mode_of(prefix + ".seal"), 0600u);
  EXPECT_EQ(mode_of(prefix + ".verify"), 0644u);
}

TEST_F(KeyFiles, AGroupNeedsOnlyItsVerifyFile) {
  SigningPair p;
  generate_signing_pair(p);
  create_key_file(path("g.verify"), KeyKind::Verify, "g", 3, p.verify);
  const auto g = read_group_keys("g", path("g"), "security.group_keys");
  EXPECT_EQ(g.verify.size(), 1u);
  EXPECT_TRUE(g.sign.empty());
  EXPECT_TRUE(g.seal.empty());
  // Without it, the group's keys are not loaded.
  EXPECT_CONTAINS(group_error(path("missing"), "g"),
                  "security.group_keys: " + path("missing.verify") + ": cannot open");
}

TEST_F(KeyFiles, CommentsBlankLinesSpacesAndCrlfAreAccepted) {
  const std::string key(64, 'a');
  const auto p = write("net.key", "# a comment\r\n\n   \n  dissem-network-key  \r\n# 2 is retired\n  5\t" + key +
                                      "  \r\n\n3 " + std::string(64, 'B') + "\n");
  const auto keys = read_network_keys(p, "k");
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys.at(5)[0], 0xaa);
  EXPECT_EQ(keys.at(3)[31], 0xbb);
}

TEST_F(KeyFiles, SecretFilesReadableByOthersAreRefusedNamingKeyPathAndMode) {
  create_key_file(path("net.key"), KeyKind::Network, "", 1, generate_network_key());
  ::chmod(path("net.key").c_str(), 0644);
  const auto e = network_error(path("net.key"));
  EXPECT_CONTAINS(e, "security.network_key_file: " + path("net.key"));
  EXPECT_CONTAINS(e, "mode 0644");
  EXPECT_CONTAINS(e, "chmod 600 " + path("net.key"));
  ::chmod(path("net.key").c_str(), 0640);  // the group may read it: refused too
  EXPECT_CONTAINS(network_error(path("net.key")), "mode 0640");
  ::chmod(path("net.key").c_str(), 0400);
  EXPECT_EQ(network_error(path("net.key")), "");

  SigningPair p;
  generate_signing_pair(p);
  create_key_file(path("g.verify"), KeyKind::Verify, "news", 1, p.verify);
  create_key_file(path("g.sign"), KeyKind::Sign, "news", 1, p.sign);
  create_key_file(path("g.seal"), KeyKind::Seal, "news", 1, generate_seal_key());
  ::chmod(path("g.verify").c_str(), 0666);  // public: any mode
  EXPECT_EQ(group_error(path("g")), "");
  ::chmod(path("g.seal").c_str(), 0604);
  EXPECT_CONTAINS(group_error(path("g")), path("g.seal") + ": mode 0604");
  ::chmod(path("g.seal").c_str(), 0600);
  ::chmod(path("g.sign").c_str(), 0644);
  EXPECT_CONTAINS(group_error(path("g")), "security.group_keys: " + path("g.sign") + ": mode 0644");

  // Not a regular file.
  fs::create_directory(path("dir.key"));
  EXPECT_CONTAINS(network_error(path("dir.key")), "not a regular file");
}

TEST_F(KeyFiles, MalformedFilesNameTheFileTheLineAndTheProblem) {
  const std::string good(64, 'c');
  const auto error_for = [&](const std::string& text) { return network_error(write("bad.key", text)); };
  const auto at = [&](int line) {
    return "security.network_key_file: " + path("bad.key") + ":" + std::to_string(line) + ": ";
  };

  EXPECT_CONTAINS(error_for("dissem-network-key\n1 " + std::string(63, 'c') + "z\n"), at(2) + "bad hex");
  EXPECT_CONTAINS(error_for("dissem-network-key\n1 " + std::string(62, 'c') + "\n"), at(2) + "wrong length");
  EXPECT_CONTAINS(error_for("dissem-network-key\n1 " + std::string(62, 'c') + "\n"), "32 bytes (64 hex digits)");
  EXPECT_CONTAINS(error_for("dissem-network-key\n1 " + good + "\n\n1 " + good + "\n"),
                  at(4) + "duplicate epoch: 1 is already on line 2");
  EXPECT_CONTAINS(error_for("dissem-network-key\n0 " + good + "\n"), at(2) + "the epoch is not a whole number");
  EXPECT_CONTAINS(error_for("dissem-network-key\n4294967296 " + good + "\n"), at(2) + "the epoch");
  EXPECT_CONTAINS(error_for("dissem-network-key\n" + good + "\n"), at(2) + "expected '<epoch> <hex key>'");
  EXPECT_CONTAINS(error_for("dissem-network-key\n1 " + good + " 2\n"), at(2) + "expected '<epoch> <hex key>'");
  EXPECT_CONTAINS(error_for("# only comments\ndissem-network-key\n"), "bad.key: no keys");
  EXPECT_CONTAINS(error_for(""), "bad.key: no kind line and no keys");
  EXPECT_CONTAINS(error_for("1 " + good + "\n"), at(1) + "the first line must be the kind line 'dissem-network-key'");
  EXPECT_CONTAINS(error_for("dissem-group-seal-key news\n1 " + good + "\n"),
                  at(1) + "this is a dissem-group-seal-key file, not a dissem-network-key file");
  EXPECT_CONTAINS(error_for("dissem-network-key extra\n1 " + good + "\n"), at(1) + "unexpected text");
  // Nothing of the key is quoted, even when its line is wrong.
  for (const auto& text : {"1 " + good + "\n", "dissem-network-key\n" + good + " 1\n",
                           "dissem-network-key\n1 " + good + "00\n"})
    EXPECT_FALSE(has_hex_run(error_for(text), 16)) << error_for(text);
}

TEST_F(KeyFiles, GroupFilesMustNameTheirGroup) {
  SigningPair p;
  generate_signing_pair(p);
  const std::string verify = "dissem-group-verify-key news\n1 " + hex(p.verify) + "\n";
  write("g.verify", verify, 0644);
  EXPECT_EQ(group_error(path("g"), "news"), "");
  EXPECT_CONTAINS(group_error(path("g"), "alerts"),
                  "security.group_keys: " + path("g.verify") + ":1: holds keys of group 'news', not of group 'alerts'");
  write("g.verify", "dissem-group-verify-key\n1 " + hex(p.verify) + "\n", 0644);
  EXPECT_CONTAINS(group_error(path("g")), ":1: dissem-group-verify-key needs the group's name");
  write("g.verify", "dissem-group-sign-key news\n1 " + hex(p.sign) + "\n", 0644);
  EXPECT_CONTAINS(group_error(path("g")), "this is a dissem-group-sign-key file, not a dissem-group-verify-key file");
  // A group name with spaces inside is the rest of the line.
  write("s.verify", "dissem-group-verify-key two words\n1 " + hex(p.verify) + "\n", 0644);
  EXPECT_EQ(group_error(path("s"), "two words"), "");
}

TEST_F(KeyFiles, SigningKeysMustBeRealAndVerifiable) {
  SigningPair p1, p2;
  generate_signing_pair(p1);
  generate_signing_pair(p2);
  write("g.verify", "dissem-group-verify-key news\n1 " + hex(p1.verify) + "\n", 0644);

  // 64 bytes whose second half is not the public key of the first.
  engine::SigningKey forged = p1.sign;
  forged[40] ^= 1;
  write("g.sign", "dissem-group-sign-key news\n1 " + hex(forged) + "\n");
  EXPECT_CONTAINS(group_error(path("g")), path("g.sign") + ":2: not an Ed25519 secret key");

  // An epoch the verify file lacks, and one whose public key differs.
  write("g.sign", "dissem-group-sign-key news\n1 " + hex(p1.sign) + "\n2 " + hex(p2.sign) + "\n");
  const auto missing = group_error(path("g"));
  EXPECT_CONTAINS(missing, "security.group_keys: " + path("g.sign") + ":3: epoch 2 has no verify key in " +
                               path("g.verify"));
  EXPECT_CONTAINS(missing, "would sign what no node can verify");
  write("g.sign", "dissem-group-sign-key news\n1 " + hex(p2.sign) + "\n");
  EXPECT_CONTAINS(group_error(path("g")), path("g.sign") + ":2: epoch 1's public key differs");
  // Verify epochs without a signing key are fine (others publish, or old ones).
  write("g.verify", "dissem-group-verify-key news\n1 " + hex(p2.verify) + "\n9 " + hex(p1.verify) + "\n", 0644);
  EXPECT_EQ(group_error(path("g")), "");
}

TEST_F(KeyFiles, WritingNeverReplacesAFileNorRepeatsAnEpoch) {
  const auto key = generate_network_key();
  create_key_file(path("net.key"), KeyKind::Network, "", 1, key);
  EXPECT_THROW(create_key_file(path("net.key"), KeyKind::Network, "", 2, key), std::runtime_error);
  EXPECT_EQ(read_network_keys(path("net.key"), "k").size(), 1u) << "the first file is intact";
  try {
    append_key(path("net.key"), KeyKind::Network, "", 1, key);
    FAIL() << "appended an epoch twice";
  } catch (const ConfigError& e) {
    EXPECT_CONTAINS(e.what(), path("net.key") + ": already holds epoch 1");
  }
  EXPECT_THROW(append_key(path("net.key"), KeyKind::Seal, "g", 2, key), ConfigError) << "another kind";
  EXPECT_THROW(append_key(path("none.key"), KeyKind::Network, "", 2, key), ConfigError) << "no such file";
  EXPECT_THROW(create_key_file(path("z.key"), KeyKind::Network, "", 0, key), ConfigError) << "epoch 0";
  EXPECT_THROW(create_key_file(path("g.seal"), KeyKind::Seal, "a=b", 1, key), ConfigError) << "bad group name";
  EXPECT_FALSE(fs::exists(path("z.key")));

  // A file without a final newline gets one before the appended line.
  write("open.key", "dissem-network-key\n1 " + hex(key));
  append_key(path("open.key"), KeyKind::Network, "", 2, key);
  EXPECT_EQ(read_network_keys(path("open.key"), "k").size(), 2u);

  // Modes do not depend on the umask.
  const mode_t old = ::umask(0077);
  SigningPair p;
  generate_signing_pair(p);
  create_key_file(path("u.verify"), KeyKind::Verify, "u", 1, p.verify);
  ::umask(0);
  create_key_file(path("u.sign"), KeyKind::Sign, "u", 1, p.sign);
  ::umask(old);
  EXPECT_EQ(mode_of(path("u.verify")), 0644u);
  EXPECT_EQ(mode_of(path("u.sign")), 0600u);
}

TEST(KeyFileNames, GroupNamesThatCannotBeConfiguredAreRefused) {
  EXPECT_EQ(group_name_problem("news"), "");
  EXPECT_EQ(group_name_problem("sensors/temp two"), "");
  EXPECT_NE(group_name_problem(""), "");
  EXPECT_NE(group_name_problem("a=b"), "");
  EXPECT_NE(group_name_problem("a,b"), "");
  EXPECT_NE(group_name_problem(" a"), "");
  EXPECT_NE(group_name_problem("a\nb"), "");
  EXPECT_EQ(group_key_path("/k/news", KeyKind::Sign), "/k/news.sign");
  EXPECT_EQ(kind_line(KeyKind::Seal, "news"), "dissem-group-seal-key news");
  EXPECT_EQ(key_bytes(KeyKind::Sign), 64u);
}

}  // namespace
}  // namespace dissem::daemon::key_files_test
