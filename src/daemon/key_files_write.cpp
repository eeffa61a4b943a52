// Generating keys and writing key files (the format is described in
// key_files.h). Text that held a key is wiped before it is freed.
#include "daemon/key_files.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "engine/config_keys.h"

namespace dissem::daemon {
namespace {

std::runtime_error io_error(const std::string& what) { return std::runtime_error(what + ": " + std::strerror(errno)); }

// Text that holds a key: wiped when dropped.
class SecretBuffer {
 public:
  // The key is written last, in place, after the buffer's last growth: no
  // copy of it is left behind in freed memory.
  SecretBuffer() = default;
  SecretBuffer(const SecretBuffer&) = delete;
  SecretBuffer& operator=(const SecretBuffer&) = delete;
  ~SecretBuffer() {
    bytes_.resize(bytes_.capacity());  // no reallocation
    sodium_memzero(bytes_.data(), bytes_.size());
  }

  void add(std::string_view text) { bytes_.insert(bytes_.end(), text.begin(), text.end()); }
  void add_key_line(std::uint32_t epoch, std::span<const std::uint8_t> key) {
    add(std::to_string(epoch));
    add(" ");
    const std::size_t at = bytes_.size();
    bytes_.resize(at + 2 * key.size() + 1);
    sodium_bin2hex(bytes_.data() + at, 2 * key.size() + 1, key.data(), key.size());
    bytes_.back() = '\n';  // in place of bin2hex's terminating NUL
  }
  const char* data() const { return bytes_.data(); }
  std::size_t size() const { return bytes_.size(); }

 private:
  std::vector<char> bytes_;
};

std::string comment_for(KeyKind kind, const std::string& group) {
  switch (kind) {
    case KeyKind::Network:
      return "# dissem network key: secret, shared by every node of the network (keep it mode 0600)\n";
    case KeyKind::Sign:
      return "# dissem signing key of group '" + group +
             "': secret, only for the nodes that publish in it (keep it mode 0600)\n";
    case KeyKind::Verify:
      return "# dissem verify key of group '" + group + "': public, for every node that carries the group\n";
    case KeyKind::Seal:
      return "# dissem seal key of group '" + group +
             "': secret, for the nodes that may read the group's payloads (keep it mode 0600)\n";
  }
  return "";
}

void check_inputs(KeyKind kind, const std::string& group, std::uint32_t epoch, std::span<const std::uint8_t> key) {
  if (epoch == 0) throw engine::ConfigError("epoch 0 is not allowed: epochs start at 1");
  if (key.size() != key_bytes(kind))
    throw std::invalid_argument(std::string(kind_name(kind)) + ": a key of " + std::to_string(key.size()) + " bytes");
  if (is_group_kind(kind)) {
    if (const auto problem = group_name_problem(group); !problem.empty()) throw engine::ConfigError(problem);
  }
}

void write_all(int fd, const SecretBuffer& text, const std::string& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw io_error("cannot write " + path);
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) throw io_error("cannot write " + path);
}

// Whether the file's last byte is a newline (true for an empty file).
bool ends_with_newline(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw io_error("cannot inspect " + path);
  if (st.st_size == 0) return true;
  char last = 0;
  if (::pread(fd, &last, 1, st.st_size - 1) != 1) throw io_error("cannot read " + path);
  return last == '\n';
}

}  // namespace

SigningPair::~SigningPair() { sodium_memzero(sign.data(), sign.size()); }

engine::SymmetricKey generate_network_key() {
  ensure_sodium();
  engine::SymmetricKey key{};
  randombytes_buf(key.data(), key.size());
  return key;
}

engine::SymmetricKey generate_seal_key() {
  ensure_sodium();
  engine::SymmetricKey key{};
  crypto_aead_xchacha20poly1305_ietf_keygen(key.data());
  return key;
}

void generate_signing_pair(SigningPair& out) {
  ensure_sodium();
  if (crypto_sign_keypair(out.verify.data(), out.sign.data()) != 0)
    throw std::runtime_error("libsodium could not generate a signing key pair");
}

void create_key_file(const std::string& path, KeyKind kind, const std::string& group, std::uint32_t epoch,
                     std::span<const std::uint8_t> key) {
  ensure_sodium();
  check_inputs(kind, group, epoch, key);
  SecretBuffer text;
  text.add(comment_for(kind, group));
  text.add(kind_line(kind, group));
  text.add("\n");
  text.add_key_line(epoch, key);
  const mode_t mode = is_secret(kind) ? 0600 : 0644;
  // O_EXCL: never replaces a file, nor follows a link planted at `path`; a
  // secret file has mode 0600 from its creation on.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) throw io_error("cannot create " + path);
  try {
    // The umask may have taken bits off a verify file, which is public.
    if (::fchmod(fd, mode) != 0) throw io_error("cannot set the mode of " + path);
    write_all(fd, text, path);
  } catch (...) {
    ::close(fd);
    ::unlink(path.c_str());
    throw;
  }
  if (::close(fd) != 0) throw io_error("cannot write " + path);
}

void append_key(const std::string& path, KeyKind kind, const std::string& group, std::uint32_t epoch,
                std::span<const std::uint8_t> key) {
  ensure_sodium();
  check_inputs(kind, group, epoch, key);
  // Reading first checks the file's kind, group, keys and (secret) mode.
  if (read_key_epochs(path, kind, group).count(epoch) != 0)
    throw engine::ConfigError(path + ": already holds epoch " + std::to_string(epoch) +
                              "; a rotation adds a new epoch");
  const int fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_CLOEXEC);
  if (fd < 0) throw io_error("cannot open " + path + " to append");
  try {
    SecretBuffer text;
    if (!ends_with_newline(fd, path)) text.add("\n");
    text.add_key_line(epoch, key);
    write_all(fd, text, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) throw io_error("cannot write " + path);
}

}  // namespace dissem::daemon
