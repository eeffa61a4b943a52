#include "tools/load/load_options.h"

#include <string>
#include <vector>

namespace dissem::load {
namespace {

void add_workload(CLI::App& cmd, std::string& plan, std::vector<std::string>& streams) {
  cmd.add_option("--plan", plan, "workload file: one stream per line (src/tools/load/workload.h)");
  cmd.add_option("--stream", streams, "one stream: NAME,count=N,bytes=N,rate_hz=R[,sources=S,priority=P,...]")
      ->take_all()
      ->allow_extra_args(false);
}

}  // namespace

CLI::App* add_publish_command(CLI::App& app, PublishArgs& p) {
  auto* pub = app.add_subcommand("publish", "publish stamped messages and report when");
  pub->add_option("--socket", p.socket, "dissemd's IPC socket")->required();
  pub->add_option("--group", p.group, "group to publish to")->required();
  pub->add_option("--messages", p.messages, "sizes: COUNTxBYTES or BYTES, comma-separated (no workload)");
  pub->add_option("--interval-s", p.interval_s, "with --messages: pause between the starts of two publishes")
      ->check(CLI::NonNegativeNumber);
  pub->add_option("--priority", p.priority, "with --messages: message priority");
  add_workload(*pub, p.plan, p.streams);
  pub->add_option("--tag-scheme", p.tag_scheme, "workload tags: stream (one per stream), source (one per source) or none (untagged, no replacement)")
      ->check(CLI::IsMember({"stream", "source", "none"}))
      ->capture_default_str();
  pub->add_flag("--no-replace", p.no_replace, "publish the workload's replacing streams without replacement");
  pub->add_option("--offer-for-s", p.offer_for_s,
                  "offer the load for this many seconds only: later messages are not published, and a publish "
                  "waiting for room gives up then (0 = the whole plan, waiting as long as it takes)")
      ->check(CLI::NonNegativeNumber);
  return pub;
}

CLI::App* add_receive_command(CLI::App& app, ReceiveArgs& r) {
  auto* rec = app.add_subcommand("receive", "receive stamped messages and report latency");
  rec->add_option("--socket", r.socket, "dissemd's IPC socket")->required();
  rec->add_option("--group", r.group, "group to subscribe to")->required();
  rec->add_option("--expect", r.expect, "without a workload: messages to wait for")->check(CLI::PositiveNumber);
  add_workload(*rec, r.plan, r.streams);
  rec->add_option("--time-limit-s", r.time_limit_s, "give up after this many seconds (exit 4)")->check(CLI::PositiveNumber);
  rec->add_option("--linger-s", r.linger_s,
                  "with a workload: stop this long after its last message was produced (exit 4 if some never came)")
      ->check(CLI::NonNegativeNumber);
  rec->add_flag("--unreliable", r.unreliable, "subscribe without requesting missing fragments");
  rec->add_flag("--silent", r.silent, "a silent subscription (EMCON for the group): it never makes dissemd transmit");
  rec->add_option("--history", r.history,
                  "earlier messages to fetch per publisher (a node that first hears a stream mid-way)");
  return rec;
}

}  // namespace dissem::load
