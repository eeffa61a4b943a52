// Reading key files (the format is described in key_files.h). Buffers that
// held secret text or keys are wiped before they are freed.
#include "daemon/key_files.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "config/setting_text.h"
#include "engine/config_keys.h"

namespace dissem::daemon {
namespace {

static_assert(crypto_sign_SECRETKEYBYTES == sizeof(engine::SigningKey));
static_assert(crypto_sign_PUBLICKEYBYTES == sizeof(engine::VerifyKey));
static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == sizeof(engine::SymmetricKey));

constexpr std::size_t kMaxFileBytes = 1 << 20;  // a million epochs would not need more
constexpr std::string_view kSpace = " \t\r\v\f";

// Where a problem is, for messages: "<config key>: <path>[:<line>]: <what>".
struct Where {
  std::string config_key;
  std::string path;

  std::string head() const { return config_key.empty() ? path : config_key + ": " + path; }
  [[noreturn]] void fail(const std::string& what) const { throw engine::ConfigError(head() + ": " + what); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& what) const {
    throw engine::ConfigError(head() + ":" + std::to_string(line) + ": " + what);
  }
};

// Wipes `bytes` when it goes out of scope, however the scope is left.
struct Wipe {
  void* data;
  std::size_t size;
  ~Wipe() { sodium_memzero(data, size); }
};

// A file's text, which may hold secrets: wiped when dropped.
class FileText {
 public:
  explicit FileText(std::size_t capacity) : buf_(capacity, '\0') {}
  FileText(FileText&&) = default;
  FileText& operator=(FileText&&) = delete;
  ~FileText() { sodium_memzero(buf_.data(), buf_.size()); }

  char* data() { return buf_.data(); }
  std::size_t capacity() const { return buf_.size(); }
  void set_size(std::size_t used) { used_ = used; }
  std::string_view view() const { return {buf_.data(), used_}; }

 private:
  std::vector<char> buf_;
  std::size_t used_ = 0;
};

struct Fd {
  int fd;
  ~Fd() { ::close(fd); }
};

// Regular, small enough, and (for secrets) private to its owner. Returns the size.
std::size_t check_file(const Where& w, int fd, bool secret) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) w.fail(std::string("cannot inspect: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) w.fail("not a regular file; a key file must be one");
  if (secret && (st.st_mode & 0044) != 0)
    w.fail("mode " + mode_text(st.st_mode & 07777) + " lets other users read this secret key; refusing it (chmod 600 " +
           w.path + ")");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxFileBytes) w.fail("larger than 1 MiB: not a key file");
  return static_cast<std::size_t>(st.st_size);
}

// The file's text; nullopt when it does not exist and `optional`.
std::optional<FileText> read_text(const Where& w, bool secret, bool optional) {
  // O_NONBLOCK: opening a FIFO must not hang start-up (it is refused as not regular).
  const int raw = ::open(w.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (raw < 0) {
    if (optional && errno == ENOENT) return std::nullopt;
    w.fail(std::string("cannot open: ") + std::strerror(errno));
  }
  const Fd fd{raw};
  const std::size_t size = check_file(w, fd.fd, secret);
  std::optional<FileText> text(std::in_place, size + 1);
  std::size_t used = 0;
  while (used < text->capacity()) {
    const ssize_t n = ::read(fd.fd, text->data() + used, text->capacity() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) w.fail(std::string("cannot read: ") + std::strerror(errno));
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  if (used > size) w.fail("changed while it was read; try again");
  text->set_size(used);
  return text;
}

std::string_view trim(std::string_view s) {
  const auto begin = s.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(kSpace) - begin + 1);
}

struct Line {
  std::size_t number;
  std::string_view text;  // trimmed; a view into the file's text
};

// The lines that are neither blank nor comments.
std::vector<Line> content_lines(std::string_view text) {
  std::vector<Line> out;
  std::size_t number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = std::min(text.find('\n', start), text.size());
    ++number;
    const auto line = trim(text.substr(start, end - start));
    if (!line.empty() && line.front() != '#') out.push_back({number, line});
    start = end + 1;
  }
  return out;
}

std::optional<KeyKind> kind_named(std::string_view word) {
  for (const KeyKind k : {KeyKind::Network, KeyKind::Sign, KeyKind::Verify, KeyKind::Seal})
    if (kind_name(k) == word) return k;
  return std::nullopt;
}

bool is_hex_digit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// Text from a file is quoted in messages unless it may be a key.
bool may_be_key(std::string_view text) {
  return text.size() >= 32 && std::all_of(text.begin(), text.end(), is_hex_digit);
}

void check_kind_line(const Where& w, const Line& line, KeyKind kind, const std::string& group) {
  const auto space = line.text.find_first_of(kSpace);
  const auto word = line.text.substr(0, space);
  const auto rest = space == std::string_view::npos ? std::string_view{} : trim(line.text.substr(space));
  const auto found = kind_named(word);
  // The line is not quoted: a file without its kind line starts with a key.
  if (!found) w.fail_at(line.number, "the first line must be the kind line '" + kind_line(kind, group) + "'");
  if (*found != kind)
    w.fail_at(line.number, "this is a " + std::string(word) + " file, not a " + std::string(kind_name(kind)) + " file");
  if (!is_group_kind(kind)) {
    if (!rest.empty()) w.fail_at(line.number, "unexpected text after " + std::string(word));
    return;
  }
  if (rest.empty()) w.fail_at(line.number, std::string(word) + " needs the group's name after it");
  if (rest != group) {
    const std::string theirs = may_be_key(rest) ? "another group" : "group '" + std::string(rest) + "'";
    w.fail_at(line.number, "holds keys of " + theirs + ", not of group '" + group + "'");
  }
}

std::uint32_t parse_epoch(const Where& w, const Line& line, std::string_view field) {
  const auto epoch = read_whole_number(field);
  // Not quoted: a line with its fields swapped would show the key.
  if (!epoch || *epoch == 0 || *epoch > std::numeric_limits<std::uint32_t>::max())
    w.fail_at(line.number, "the epoch is not a whole number from 1 to 4294967295");
  return static_cast<std::uint32_t>(*epoch);
}

void parse_hex(const Where& w, const Line& line, KeyKind kind, std::string_view hex, std::span<std::uint8_t> out) {
  const auto bad = std::find_if_not(hex.begin(), hex.end(), is_hex_digit);
  if (bad != hex.end())
    w.fail_at(line.number, "bad hex: character " + std::to_string(bad - hex.begin() + 1) +
                               " of the key is not a hexadecimal digit");
  if (hex.size() != 2 * out.size())
    w.fail_at(line.number, "wrong length: the key has " + std::to_string(hex.size()) + " hex digits; a " +
                               std::string(kind_name(kind)) + " is " + std::to_string(out.size()) + " bytes (" +
                               std::to_string(2 * out.size()) + " hex digits)");
  std::size_t len = 0;
  if (sodium_hex2bin(out.data(), out.size(), hex.data(), hex.size(), nullptr, &len, nullptr) != 0 || len != out.size())
    w.fail_at(line.number, "bad hex: the key does not decode");
}

// Whether a 64-byte Ed25519 secret key is real: the public half it carries
// is the one its seed derives.
bool is_real_signing_key(std::span<const std::uint8_t> sk) {
  std::array<std::uint8_t, crypto_sign_SEEDBYTES> seed{};
  engine::SigningKey derived{};
  engine::VerifyKey derived_pk{}, embedded_pk{};
  const Wipe wipe_seed{seed.data(), seed.size()}, wipe_derived{derived.data(), derived.size()};
  crypto_sign_ed25519_sk_to_seed(seed.data(), sk.data());
  crypto_sign_ed25519_sk_to_pk(embedded_pk.data(), sk.data());
  if (crypto_sign_seed_keypair(derived_pk.data(), derived.data(), seed.data()) != 0) return false;
  return sodium_memcmp(derived_pk.data(), embedded_pk.data(), embedded_pk.size()) == 0;
}

using KeySink = std::function<void(std::uint32_t epoch, std::size_t line, std::span<const std::uint8_t> key)>;

// Checks the whole text and hands every key to `sink`.
void parse_key_file(const Where& w, std::string_view text, KeyKind kind, const std::string& group,
                    const KeySink& sink) {
  const auto lines = content_lines(text);
  if (lines.empty())
    w.fail("no kind line and no keys: expected '" + kind_line(kind, group) + "' then '<epoch> <hex key>' lines");
  check_kind_line(w, lines.front(), kind, group);
  std::map<std::uint32_t, std::size_t> seen;
  std::array<std::uint8_t, sizeof(engine::SigningKey)> buf{};
  const Wipe wipe{buf.data(), buf.size()};
  const std::span<std::uint8_t> key(buf.data(), key_bytes(kind));
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const Line& line = lines[i];
    const auto space = line.text.find_first_of(kSpace);
    const auto hex = space == std::string_view::npos ? std::string_view{} : trim(line.text.substr(space));
    if (hex.empty() || hex.find_first_of(kSpace) != std::string_view::npos)
      w.fail_at(line.number, "expected '<epoch> <hex key>'");
    const std::uint32_t epoch = parse_epoch(w, line, line.text.substr(0, space));
    const auto [at, fresh] = seen.emplace(epoch, line.number);
    if (!fresh)
      w.fail_at(line.number,
                "duplicate epoch: " + std::to_string(epoch) + " is already on line " + std::to_string(at->second));
    parse_hex(w, line, kind, hex, key);
    if (kind == KeyKind::Sign && !is_real_signing_key(key))
      w.fail_at(line.number, "not an Ed25519 secret key: its public half is not the one its seed derives");
    sink(epoch, line.number, key);
  }
  if (seen.empty()) w.fail("no keys: add '<epoch> <hex key>' lines (dissem keygen writes them)");
}

// Keys of one size by epoch, with the line each is on; wiped when dropped.
template <std::size_t N>
struct Keys {
  std::map<std::uint32_t, std::array<std::uint8_t, N>> keys;
  std::map<std::uint32_t, std::size_t> lines;

  Keys() = default;
  Keys(Keys&&) = default;
  Keys& operator=(Keys&&) = delete;
  ~Keys() {
    for (auto& [epoch, key] : keys) sodium_memzero(key.data(), key.size());
  }
};

template <std::size_t N>
std::optional<Keys<N>> read_keys(const Where& w, KeyKind kind, const std::string& group, bool optional) {
  ensure_sodium();
  const auto text = read_text(w, is_secret(kind), optional);
  if (!text) return std::nullopt;
  std::optional<Keys<N>> out(std::in_place);
  const KeySink keep = [&](std::uint32_t epoch, std::size_t line, std::span<const std::uint8_t> key) {
    std::copy(key.begin(), key.end(), out->keys[epoch].begin());
    out->lines[epoch] = line;
  };
  parse_key_file(w, text->view(), kind, group, keep);
  return out;
}

// Every signing epoch's public half is in the verify file under the same epoch.
void check_sign_against_verify(const Where& sign_file, const Keys<64>& sign,
                               const std::map<std::uint32_t, engine::VerifyKey>& verify,
                               const std::string& verify_path) {
  for (const auto& [epoch, sk] : sign.keys) {
    const std::size_t line = sign.lines.at(epoch);
    const auto it = verify.find(epoch);
    if (it == verify.end())
      sign_file.fail_at(line, "epoch " + std::to_string(epoch) + " has no verify key in " + verify_path +
                                  ": this node would sign what no node can verify");
    engine::VerifyKey pk{};
    crypto_sign_ed25519_sk_to_pk(pk.data(), sk.data());
    if (sodium_memcmp(pk.data(), it->second.data(), pk.size()) != 0)
      sign_file.fail_at(line, "epoch " + std::to_string(epoch) + "'s public key differs from the one in " +
                                  verify_path + ": this node would sign what no node can verify");
  }
}

}  // namespace

void ensure_sodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
}

std::string mode_text(std::uint32_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

std::string_view kind_name(KeyKind kind) {
  switch (kind) {
    case KeyKind::Network: return "dissem-network-key";
    case KeyKind::Sign: return "dissem-group-sign-key";
    case KeyKind::Verify: return "dissem-group-verify-key";
    case KeyKind::Seal: return "dissem-group-seal-key";
  }
  return "dissem-network-key";
}

std::size_t key_bytes(KeyKind kind) { return kind == KeyKind::Sign ? sizeof(engine::SigningKey) : 32; }
bool is_secret(KeyKind kind) { return kind != KeyKind::Verify; }
bool is_group_kind(KeyKind kind) { return kind != KeyKind::Network; }

std::string kind_line(KeyKind kind, const std::string& group) {
  std::string line(kind_name(kind));
  if (is_group_kind(kind)) line += " " + group;
  return line;
}

std::string group_key_path(const std::string& prefix, KeyKind kind) {
  switch (kind) {
    case KeyKind::Sign: return prefix + ".sign";
    case KeyKind::Verify: return prefix + ".verify";
    case KeyKind::Seal: return prefix + ".seal";
    case KeyKind::Network: break;
  }
  return prefix;
}

std::string group_name_problem(const std::string& group) {
  if (group.empty()) return "the group name is empty";
  if (group.find_first_of("=,") != std::string::npos) return "group '" + group + "' contains '=' or ','";
  const auto is_control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; };
  if (std::any_of(group.begin(), group.end(), is_control))
    return "group '" + group + "' contains a control character";
  if (group.front() == ' ' || group.back() == ' ') return "group '" + group + "' starts or ends with a space";
  return {};
}

std::map<std::uint32_t, engine::SymmetricKey> read_network_keys(const std::string& path,
                                                                const std::string& config_key) {
  return std::move(read_keys<32>({config_key, path}, KeyKind::Network, "", false)->keys);
}

std::map<std::uint32_t, engine::VerifyKey> read_verify_keys(const std::string& path, const std::string& group,
                                                            const std::string& config_key) {
  return std::move(read_keys<32>({config_key, path}, KeyKind::Verify, group, false)->keys);
}

std::map<std::uint32_t, engine::SigningKey> read_sign_keys(const std::string& path, const std::string& group,
                                                           const std::string& config_key) {
  return std::move(read_keys<64>({config_key, path}, KeyKind::Sign, group, false)->keys);
}

std::map<std::uint32_t, engine::SymmetricKey> read_seal_keys(const std::string& path, const std::string& group,
                                                             const std::string& config_key) {
  return std::move(read_keys<32>({config_key, path}, KeyKind::Seal, group, false)->keys);
}

engine::GroupKeys read_group_keys(const std::string& group, const std::string& prefix,
                                  const std::string& config_key) {
  engine::GroupKeys out;
  const std::string verify_path = group_key_path(prefix, KeyKind::Verify);
  out.verify = read_verify_keys(verify_path, group, config_key);
  const Where sign_file{config_key, group_key_path(prefix, KeyKind::Sign)};
  if (auto sign = read_keys<64>(sign_file, KeyKind::Sign, group, true)) {
    check_sign_against_verify(sign_file, *sign, out.verify, verify_path);
    out.sign = std::move(sign->keys);
  }
  if (auto seal = read_keys<32>({config_key, group_key_path(prefix, KeyKind::Seal)}, KeyKind::Seal, group, true))
    out.seal = std::move(seal->keys);
  return out;
}

std::set<std::uint32_t> read_key_epochs(const std::string& path, KeyKind kind, const std::string& group) {
  std::set<std::uint32_t> out;
  const Where w{"", path};
  ensure_sodium();
  const auto text = read_text(w, is_secret(kind), false);
  parse_key_file(w, text->view(), kind, group,
                 [&](std::uint32_t epoch, std::size_t, std::span<const std::uint8_t>) { out.insert(epoch); });
  return out;
}

}  // namespace dissem::daemon
