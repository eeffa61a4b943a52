// Key files: the text form of the keys a node holds (engine/security/security_config.h).
// The configuration names them; key material is never in the configuration.
//
//   # comment lines start with '#'; blank lines are ignored
//   dissem-group-sign-key news     <- first: the file's kind (and group)
//   1 3f0a...                      <- "<epoch> <hex key>", one line per epoch
//   2 91c4...                         (several overlap during a rotation)
//
// Kinds: dissem-network-key (32-byte secret shared by the network),
// dissem-group-sign-key GROUP (64-byte Ed25519 secret key, libsodium's
// crypto_sign format: seed then public key), dissem-group-verify-key GROUP
// (32-byte Ed25519 public key), dissem-group-seal-key GROUP (32-byte
// XChaCha20-Poly1305 key). Epochs are 1 .. 4294967295, each once per file.
//
// Secret files (all but verify files) are refused unless they are regular
// files that neither the group nor others may read. Every error is an
// engine::ConfigError: "<config key>: <path>:<line>: <what is wrong>".
// Key bytes never appear in a message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "engine/security/security_config.h"

namespace dissem::daemon {

enum class KeyKind { Network, Sign, Verify, Seal };

std::string_view kind_name(KeyKind kind);  // "dissem-network-key", "dissem-group-sign-key", ...
std::size_t key_bytes(KeyKind kind);       // 64 for Sign, 32 for the others
bool is_secret(KeyKind kind);              // every kind but Verify
bool is_group_kind(KeyKind kind);          // every kind but Network

// Shared by the key-file readers and writers and the configuration keys.
void ensure_sodium();                      // sodium_init(), or a runtime_error
std::string mode_text(std::uint32_t mode); // "0640": a permission mode in octal

// The line naming a file's kind: "dissem-network-key", "dissem-group-sign-key news".
std::string kind_line(KeyKind kind, const std::string& group);
// Group key files of a group share a prefix: PREFIX.sign, PREFIX.verify, PREFIX.seal.
std::string group_key_path(const std::string& prefix, KeyKind kind);

// Why `group` cannot name a keyed group (empty when it can): it must be
// non-empty, without '=', ',' or control characters, and without spaces
// around it.
std::string group_name_problem(const std::string& group);

// --- reading -----------------------------------------------------------------
// `config_key` names the configuration key that named the file (errors start
// with it); empty for none.

std::map<std::uint32_t, engine::SymmetricKey> read_network_keys(const std::string& path,
                                                                const std::string& config_key);
std::map<std::uint32_t, engine::VerifyKey> read_verify_keys(const std::string& path, const std::string& group,
                                                            const std::string& config_key);
// Also checks that each key is a real Ed25519 key: its public half is the one
// its seed derives.
std::map<std::uint32_t, engine::SigningKey> read_sign_keys(const std::string& path, const std::string& group,
                                                           const std::string& config_key);
std::map<std::uint32_t, engine::SymmetricKey> read_seal_keys(const std::string& path, const std::string& group,
                                                             const std::string& config_key);

// A group's keys from PREFIX.verify (required), PREFIX.sign and PREFIX.seal
// (each if it exists). Every signing epoch's public half must be in the
// verify file under the same epoch: otherwise this node would sign what no
// node can verify.
engine::GroupKeys read_group_keys(const std::string& group, const std::string& prefix,
                                  const std::string& config_key);

// The epochs of a file of `kind` (and `group`, for group kinds), checked as
// the readers above check it; its keys are not kept.
std::set<std::uint32_t> read_key_epochs(const std::string& path, KeyKind kind, const std::string& group);

// --- generating and writing ----------------------------------------------------

engine::SymmetricKey generate_network_key();  // random bytes
engine::SymmetricKey generate_seal_key();     // an XChaCha20-Poly1305 key

struct SigningPair {
  engine::VerifyKey verify;
  engine::SigningKey sign;
  SigningPair() = default;
  SigningPair(const SigningPair&) = delete;
  SigningPair& operator=(const SigningPair&) = delete;
  ~SigningPair();  // wipes the secret key
};
void generate_signing_pair(SigningPair& out);  // an Ed25519 key pair

// Creates `path` holding the kind line and one key. Never replaces a file:
// it must not exist. Secret files are created 0600 (never readable by others,
// not even briefly), verify files 0644. `group` is ignored for the network
// kind. Throws ConfigError for a bad group name or epoch, std::runtime_error
// when the file cannot be created or written.
void create_key_file(const std::string& path, KeyKind kind, const std::string& group, std::uint32_t epoch,
                     std::span<const std::uint8_t> key);

// Adds `epoch` to the existing file `path`, which must be of `kind` and
// `group` and must not hold `epoch` yet (ConfigError otherwise).
void append_key(const std::string& path, KeyKind kind, const std::string& group, std::uint32_t epoch,
                std::span<const std::uint8_t> key);

}  // namespace dissem::daemon
