#include "tools/dissem_keygen.h"

#include <CLI/CLI.hpp>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <set>
#include <span>
#include <vector>

#include "daemon/key_files.h"
#include "engine/config_keys.h"
#include "tools/dissem_common.h"

namespace dissem::cli {
namespace {

using daemon::KeyKind;

// One file to write and the key that goes into it.
struct Target {
  std::string path;
  KeyKind kind;
  std::span<const std::uint8_t> key;
  bool needed_for_append = true;  // false: created when --append finds it missing
  bool create = true;             // decided by plan()
};

// Wipes a generated key however the command ends.
struct WipeKey {
  std::span<std::uint8_t> key;
  ~WipeKey() { sodium_memzero(key.data(), key.size()); }
};

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

std::string role(KeyKind kind) {
  switch (kind) {
    case KeyKind::Network: return "secret: give it to every node of the network";
    case KeyKind::Sign: return "secret: give it only to the nodes that publish in the group";
    case KeyKind::Verify: return "public: give it to every node that carries the group";
    case KeyKind::Seal: return "secret: give it to the nodes that may read the group's payloads";
  }
  return "";
}

// Whether each target is created or appended to, with every check made
// before anything is written.
void plan(std::vector<Target>& targets, const KeygenOptions& o, const std::string& group) {
  const std::string epoch = std::to_string(o.epoch);
  for (auto& t : targets) {
    const bool there = exists(t.path);
    t.create = !there;
    if (!o.append) {
      if (there)
        throw Failure(kExitUsage, t.path + " already exists; refusing to overwrite it (--append adds epoch " + epoch +
                                      " to it, for a rotation)");
      continue;
    }
    if (!there) {
      if (t.needed_for_append)
        throw Failure(kExitUsage, "--append: " + t.path + " does not exist (leave out --append to create new files)");
      continue;
    }
    std::set<std::uint32_t> epochs;
    try {
      epochs = daemon::read_key_epochs(t.path, t.kind, group);
    } catch (const engine::ConfigError& e) {
      throw Failure(kExitUsage, e.what());
    }
    if (epochs.count(o.epoch) != 0)
      throw Failure(kExitUsage, t.path + " already holds epoch " + epoch + "; a rotation adds a new epoch");
  }
}

// Writes every target; files created before a failure are removed again.
void write(const std::vector<Target>& targets, const KeygenOptions& o, const std::string& group) {
  std::vector<std::string> created;
  try {
    for (const auto& t : targets) {
      if (t.create) {
        daemon::create_key_file(t.path, t.kind, group, o.epoch, t.key);
        created.push_back(t.path);
      } else {
        daemon::append_key(t.path, t.kind, group, o.epoch, t.key);
      }
    }
  } catch (...) {
    for (const auto& path : created) ::unlink(path.c_str());
    throw;
  }
  for (const auto& t : targets) {
    const std::string what = daemon::kind_line(t.kind, group);
    if (t.create) {
      std::printf("created %s: %s, epoch %u, mode %s (%s)\n", t.path.c_str(), what.c_str(), o.epoch,
                  daemon::is_secret(t.kind) ? "0600" : "0644", role(t.kind).c_str());
    } else {
      std::printf("added epoch %u to %s: %s (%s)\n", o.epoch, t.path.c_str(), what.c_str(), role(t.kind).c_str());
    }
  }
}

void keygen_network(const KeygenOptions& o) {
  engine::SymmetricKey key = daemon::generate_network_key();
  const WipeKey wipe{key};
  std::vector<Target> targets{{o.out, KeyKind::Network, key}};
  plan(targets, o, "");
  write(targets, o, "");
}

void keygen_group(const KeygenOptions& o) {
  if (const auto problem = daemon::group_name_problem(o.group); !problem.empty()) throw Failure(kExitUsage, problem);
  daemon::SigningPair pair;  // wipes its secret half
  daemon::generate_signing_pair(pair);
  engine::SymmetricKey seal = daemon::generate_seal_key();
  const WipeKey wipe{seal};
  // The verify file first: a signing key never lands without its public half.
  std::vector<Target> targets{{daemon::group_key_path(o.out, KeyKind::Verify), KeyKind::Verify, pair.verify},
                              {daemon::group_key_path(o.out, KeyKind::Sign), KeyKind::Sign, pair.sign}};
  const std::string seal_path = daemon::group_key_path(o.out, KeyKind::Seal);
  if (o.seal) targets.push_back({seal_path, KeyKind::Seal, seal, false});
  plan(targets, o, o.group);
  write(targets, o, o.group);
  if (o.append && !o.seal && exists(seal_path))
    std::fprintf(stderr, "dissem: note: %s was left as it is (add --seal to give it epoch %u too)\n",
                 seal_path.c_str(), o.epoch);
}

}  // namespace

CLI::App* add_keygen_command(CLI::App& app, KeygenOptions& o) {
  CLI::App* keygen = app.add_subcommand("keygen", "write key files for dissemd's [security] keys (no daemon needed)");
  keygen->require_subcommand(1);
  const auto common = [&o](CLI::App* sub, const char* out_help) {
    sub->add_option("--epoch", o.epoch, "the keys' epoch, 1 .. 4294967295 (a rotation adds a newer one)")
        ->required()
        ->check(CLI::Range(1u, 4294967295u));
    sub->add_option("--out", o.out, out_help)->required();
    sub->add_flag("--append", o.append, "add the epoch to existing files instead of creating new ones");
  };
  CLI::App* network = keygen->add_subcommand("network", "a network key (authenticates every datagram)");
  common(network, "the key file to write (mode 0600)");
  CLI::App* group = keygen->add_subcommand("group", "a group's signing and verify keys (and with --seal its seal key)");
  group->add_option("name", o.group, "the group")->required();
  common(group, "prefix of the files: PREFIX.sign (0600), PREFIX.verify (0644), PREFIX.seal (0600)");
  group->add_flag("--seal", o.seal, "also write PREFIX.seal, a key that encrypts the group's payloads");
  return keygen;
}

void run_keygen(const CLI::App& keygen, const KeygenOptions& o) {
  if (keygen.got_subcommand("network")) keygen_network(o);
  if (keygen.got_subcommand("group")) keygen_group(o);
}

}  // namespace dissem::cli
