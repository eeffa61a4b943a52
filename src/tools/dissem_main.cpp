// dissem: the command-line client of the local dissemd.
//
//   dissem publish news report.pdf            prints news/0000abcd/1 once durable
//   tar c dir | dissem publish backups -
//   dissem subscribe news --count 1 --out inbox/
//   dissem stats --json
//   dissem peers
//   dissem reload                                       after editing dissemd.toml or key files
//   dissem peers --watch --interval-s 1                   live table and link events
//   dissem keygen group news --epoch 1 --out keys/news     key files for dissemd
//
// Exit codes: 0 ok, 1 dissemd refused the request, 2 bad usage, 3 cannot
// connect to dissemd, 4 subscribe timed out before --count messages,
// 5 an output file could not be written.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "core/version.h"
#include "client/client.h"
#include "ipc/socket_file.h"
#include "tools/dissem_commands.h"
#include "tools/dissem_common.h"
#include "config/setting_text.h"
#include "tools/dissem_keygen.h"

namespace {

using namespace dissem::cli;

// Node ids are written in hexadecimal (as message ids print them).
std::string hex_node_id(const std::string& s) {
  const auto v = dissem::read_whole_number(s, 16);
  if (!v || *v == 0 || *v > 0xffffffffULL)
    throw CLI::ValidationError("'" + s + "' is not a node id (1..ffffffff, hexadecimal)");
  return std::to_string(*v);
}

void error_line(const std::string& message) {
  std::string line = "dissem: ";
  line += message;
  line += '\n';
  std::fputs(line.c_str(), stderr);
}

constexpr const char* kFooter =
    "Exit codes: 0 ok, 1 dissemd refused the request, 2 bad usage, 3 cannot connect to dissemd,\n"
    "4 subscribe timed out before --count messages, 5 an output file could not be written.";

// --- publish and cancel ---------------------------------------------------------------

struct PublishCommand {
  PublishOptions options;
  std::uint32_t expiry_s = 0;  // --expiry-s, turned into options.lifetime_ms
};

CLI::App* add_publish_command(CLI::App& app, PublishCommand& c) {
  auto& pub = c.options;
  CLI::App* publish = app.add_subcommand("publish", "publish a file (or stdin) as one message; prints its id");
  publish->add_option("group", pub.group, "group to publish to")->required();
  publish->add_option("file", pub.file, "file to send, or - for stdin")->capture_default_str();
  publish->add_option("--priority", pub.priority,
                      "message priority: a higher level is always sent (and repaired) before a lower one, except for "
                      "the share engine.priority_floor keeps for lower levels that wait; equal levels go in "
                      "publication order")
      ->capture_default_str();
  auto* lifetime = publish->add_option("--lifetime-ms", pub.lifetime_ms,
                                       "expire this many milliseconds after publication (0: never); an expired "
                                       "message is never sent, repaired or delivered, and every cache drops it")
                       ->capture_default_str();
  publish->add_option("--expiry-s", c.expiry_s, "the same in whole seconds")->excludes(lifetime);
  publish->add_flag("--replace", pub.replace,
                    "supersede this node's older messages of the group with the same --tag: they leave the send "
                    "queue and every cache, and no subscriber gets them after this one");
  publish->add_option("--history", pub.history, "history window subscribers may fetch (messages)")
      ->capture_default_str();
  publish->add_option("--tag", pub.tag, "tag carried with the message (what --replace and cancel --tag match)");
  publish->add_flag("--progress", pub.progress, "show a progress line on stderr (default: only on a terminal)");
  return publish;
}

void run_publish_command(const std::string& socket, PublishCommand c) {
  if (c.expiry_s > 0) {
    if (c.expiry_s > 4'000'000) throw Failure(kExitUsage, "--expiry-s is too far in the future (at most 4000000)");
    c.options.lifetime_ms = c.expiry_s * 1000;
  }
  run_publish(socket, c.options);
}

CLI::App* add_cancel_command(CLI::App& app, CancelOptions& can) {
  CLI::App* cancel = app.add_subcommand(
      "cancel", "cancel this node's messages of a group (by number, by tag, or both); prints the cancel message's id");
  cancel->add_option("group", can.group, "group of the messages")->required();
  cancel->add_option("--seq", can.seqs, "a message number to cancel (repeatable)");
  cancel->add_option("--tag", can.tag, "cancel every older message with this tag");
  return cancel;
}

void run_cancel_command(const std::string& socket, const CancelOptions& can) {
  if (can.seqs.empty() && can.tag.empty()) throw Failure(kExitUsage, "cancel needs --seq or --tag");
  run_cancel(socket, can);
}

// --- subscribe and unsubscribe --------------------------------------------------------

CLI::App* add_subscribe_command(CLI::App& app, SubscribeOptions& sub) {
  CLI::App* subscribe = app.add_subcommand("subscribe", "print deliveries of a group, or write them to files");
  subscribe->add_option("group", sub.group, "group to subscribe to")->required();
  subscribe->add_flag("--unreliable", sub.unreliable, "do not request missing fragments");
  subscribe->add_flag("--ordered", sub.ordered, "deliver in sequence order per publisher");
  subscribe->add_option("--history", sub.history, "earlier messages to fetch per publisher")->capture_default_str();
  subscribe->add_option("--min-priority", sub.min_priority, "deliver only messages of at least this priority")
      ->capture_default_str();
  subscribe->add_option("--tag", sub.tags, "deliver only messages with this tag (repeatable)");
  subscribe->add_option("--name", sub.name,
                        "durable subscription: dissemd keeps it (and keeps fetching) after this command exits or "
                        "dissemd restarts; each message written is acknowledged, and subscribing under the name "
                        "again delivers every cached message not acknowledged yet");
  subscribe->add_flag("--silent", sub.silent,
                      "EMCON for this group: never make dissemd transmit for it (no requests, no interest "
                      "advertised); get what the first pass and others' repairs bring");
  subscribe->add_option("--count", sub.count, "exit after this many messages (0: no limit)")->capture_default_str();
  subscribe->add_option("--timeout-s", sub.timeout_s, "give up after this many seconds (0: never)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  auto* out_dir = subscribe->add_option("--out", sub.out_dir, "write each message to DIR/<group>-<publisher>-<seq>");
  subscribe->add_option("-o,--output", sub.out_file, "append every payload to FILE instead of stdout")
      ->excludes(out_dir);
  subscribe->add_flag("--progress", sub.progress, "show a progress line on stderr (default: only on a terminal)");
  subscribe->add_flag("-q,--quiet", sub.quiet, "no per-delivery lines on stderr");
  return subscribe;
}

CLI::App* add_unsubscribe_command(CLI::App& app, std::string& name) {
  CLI::App* unsubscribe = app.add_subcommand("unsubscribe", "end a durable subscription (subscribe --name) for good");
  unsubscribe->add_option("name", name, "the subscription's name")->required();
  return unsubscribe;
}

// --- get and list: the cache ----------------------------------------------------------

CLI::App* add_get_command(CLI::App& app, GetOptions& o) {
  CLI::App* get = app.add_subcommand("get", "write one message held whole in dissemd's cache to stdout (or a file)");
  get->add_option("group", o.group, "group of the message")->required();
  get->add_option("publisher", o.publisher, "publisher's node id (hexadecimal, as `list` shows it)")
      ->required()
      ->transform(hex_node_id);
  get->add_option("seq", o.seq, "sequence number")->required();
  get->add_option("-o,--output", o.out_file, "write to FILE instead of stdout");
  return get;
}

CLI::App* add_list_command(CLI::App& app, ListOptions& o) {
  CLI::App* list = app.add_subcommand("list", "the messages of a group held in dissemd's cache");
  list->add_option("group", o.group, "group to list")->required();
  list->add_option("--publisher", o.publisher, "only this publisher (hexadecimal node id)")->transform(hex_node_id);
  list->add_option("--from", o.from_seq, "first sequence number (inclusive)");
  list->add_option("--to", o.to_seq, "last sequence number (inclusive)");
  list->add_option("--limit", o.limit, "at most this many")->check(CLI::Range(1, 1'000'000))->capture_default_str();
  list->add_flag("--json", o.json, "machine-readable output");
  return list;
}

// --- stats, peers and top: the daemon's state -----------------------------------------

CLI::App* add_stats_command(CLI::App& app, bool& json) {
  CLI::App* stats = app.add_subcommand("stats", "traffic, MFR, repair, cache and delivery counters");
  stats->add_flag("--json", json, "machine-readable output");
  return stats;
}

CLI::App* add_emcon_command(CLI::App& app, std::string& state) {
  CLI::App* emcon = app.add_subcommand(
      "emcon", "radio silence: 'on' and dissemd transmits nothing at all (it still receives, caches and delivers; "
               "publications wait), 'off' and it fetches what silence left missing");
  emcon->add_option("state", state, "on or off")->required()->check(CLI::IsMember({"on", "off"}));
  return emcon;
}

CLI::App* add_reload_command(CLI::App& app, bool& json) {
  CLI::App* reload = app.add_subcommand(
      "reload", "dissemd reads its configuration and key files again (as on SIGHUP) and applies what can change "
                "while running; prints what it applied and what needs a restart");
  reload->add_flag("--json", json, "machine-readable output");
  return reload;
}

CLI::App* add_peers_command(CLI::App& app, PeersOptions& o) {
  CLI::App* peers = app.add_subcommand(
      "peers", "nodes heard recently and their links: last heard, loss each way, round-trip time, rates");
  auto* peers_json = peers->add_flag("--json", o.json, "machine-readable output");
  peers->add_flag("--watch", o.watch,
                  "a live table, redrawn every --interval-s, with link events as they come, until Ctrl-C")
      ->excludes(peers_json);
  peers->add_option("--interval-s", o.interval_s, "--watch: seconds between redraws")
      ->check(CLI::Range(0.1, 60.0))
      ->capture_default_str();
  peers->add_option("--duration-s", o.duration_s, "--watch: stop after this many seconds (0: never)")
      ->check(CLI::Range(0.0, 31'536'000.0))
      ->capture_default_str();
  peers->add_option("--loss-threshold", o.loss_threshold,
                    "--watch: link event when a peer's loss (the worse direction) rises above this fraction "
                    "(default: dissemd's engine.link_loss_threshold)")
      ->check(CLI::Range(0.0, 1.0));
  peers->add_option("--loss-hysteresis", o.loss_hysteresis,
                    "--watch: ... and again once it falls under the threshold less this")
      ->check(CLI::Range(0.0, 1.0));
  peers->add_option("--rate-threshold", o.rate_threshold,
                    "--watch: link event when the bytes/s received from a peer rise above this (0: none)")
      ->check(CLI::Range(0.0, 1e12));
  peers->add_option("--rate-hysteresis", o.rate_hysteresis,
                    "--watch: ... and again once they fall under the threshold less this fraction of it")
      ->check(CLI::Range(0.0, 0.95));
  return peers;
}

CLI::App* add_top_command(CLI::App& app, TopOptions& o) {
  CLI::App* top = app.add_subcommand(
      "top", "a live view, redrawn in place: traffic by kind, requests and repairs, cache, peers and their links, "
             "messages being received; q or Ctrl-C quits");
  top->add_option("--interval-s", o.interval_s, "seconds between redraws")
      ->check(CLI::Range(0.1, 60.0))
      ->capture_default_str();
  return top;
}

// --- failures -------------------------------------------------------------------------

// The exit code for the exception being handled, after its line on stderr.
// Called only from a catch block.
int report_failure(const std::string& socket) {
  try {
    throw;
  } catch (const Failure& e) {
    error_line(e.what());
    return e.code();
  } catch (const dissem::client::RequestError& e) {
    std::string m = "dissemd refused the request: ";
    m += e.what();
    error_line(m);
    return kExitRefused;
  } catch (const dissem::client::ConnectionError& e) {
    // Connected, then lost: the daemon stopped, or closed us as a slow reader.
    std::string m = "lost the connection to dissemd at ";
    m += socket;
    m += ": ";
    m += e.what();
    error_line(m);
    return kExitNoDaemon;
  } catch (const std::exception& e) {
    // Anything else failed on this side (memory, the filesystem), not in dissemd.
    error_line(e.what());
    return kExitLocalIo;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dissem: publish, subscribe and inspect through the local dissemd"};
  app.set_version_flag("--version", dissem::version_line("dissem"), "print the version and exit");
  app.footer(kFooter);
  app.require_subcommand(1);
  std::string socket = dissem::ipc::client_socket_path(dissem::ipc::default_socket_path());
  app.add_option("--socket", socket, "dissemd's IPC socket")->envname("DISSEM_SOCKET")->capture_default_str();

  PublishCommand publish_command;
  CLI::App* publish = add_publish_command(app, publish_command);
  CancelOptions cancel_options;
  CLI::App* cancel = add_cancel_command(app, cancel_options);
  SubscribeOptions subscribe_options;
  CLI::App* subscribe = add_subscribe_command(app, subscribe_options);
  std::string unsubscribe_name;
  CLI::App* unsubscribe = add_unsubscribe_command(app, unsubscribe_name);
  GetOptions get_options;
  CLI::App* get = add_get_command(app, get_options);
  ListOptions list_options;
  CLI::App* list = add_list_command(app, list_options);
  bool stats_json = false;
  CLI::App* stats = add_stats_command(app, stats_json);
  std::string emcon_state;
  CLI::App* emcon = add_emcon_command(app, emcon_state);
  bool reload_json = false;
  CLI::App* reload = add_reload_command(app, reload_json);
  PeersOptions peers_options;
  CLI::App* peers = add_peers_command(app, peers_options);
  TopOptions top_options;
  CLI::App* top = add_top_command(app, top_options);
  KeygenOptions keygen_options;
  CLI::App* keygen = add_keygen_command(app, keygen_options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and friends exit 0 through app.exit; every other parse error is
    // bad usage, whatever CLI11's own code for it.
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  try {
    if (*publish) run_publish_command(socket, publish_command);
    if (*cancel) run_cancel_command(socket, cancel_options);
    if (*subscribe) run_subscribe(socket, subscribe_options);
    if (*get) run_get(socket, get_options);
    if (*unsubscribe) run_unsubscribe(socket, unsubscribe_name);
    if (*list) run_list(socket, list_options);
    if (*stats) run_stats(socket, stats_json);
    if (*emcon) run_emcon(socket, emcon_state);
    if (*reload) run_reload(socket, reload_json);
    if (*peers) run_peers(socket, peers_options);
    if (*top) run_top(socket, top_options);
    if (*keygen) run_keygen(*keygen, keygen_options);
    return kExitOk;
  } catch (const std::exception&) {
    return report_failure(socket);
  }
}
