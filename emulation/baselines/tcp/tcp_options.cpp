#include "tcp_options.h"

#include <CLI/CLI.hpp>

#include <stdexcept>
#include <vector>

namespace dissem::tcp_baseline {

using baseline::UsageError;

namespace {

struct Texts {
  std::string plan;
  std::vector<std::string> streams;
  std::string endpoint;
};

void add_common(CLI::App& cmd, Options& o, Texts& t) {
  cmd.add_option("--plan", t.plan, "workload file: one stream per line (src/tools/load/workload.h)");
  cmd.add_option("--stream", t.streams, "one stream: NAME,count=N,bytes=N,rate_hz=R[,sources=S,...]")
      ->take_all()
      ->allow_extra_args(false);
  cmd.add_option("--time-limit", o.time_limit_s, "hard bound in seconds from start; a partial result is printed")
      ->capture_default_str()
      ->check(CLI::Range(1e-3, 86400.0));
}

Endpoint endpoint(const std::string& option, const std::string& text, bool host_required) {
  try {
    return parse_endpoint(text, host_required);
  } catch (const std::invalid_argument& e) {
    throw UsageError(option + ": " + e.what());
  }
}

void finish(Options& o, const Texts& t) {
  try {
    o.workload = load::workload_from_options(t.plan, t.streams);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string(t.plan.empty() ? "--stream" : "--plan/--stream") + ": " + e.what());
  }
  if (o.role == Role::Sender) {
    o.sender.connect = endpoint("--connect", t.endpoint, true);
    if (o.workload.streams.empty()) throw UsageError("--plan/--stream: the sender needs a workload");
    return;
  }
  o.receiver.listen = endpoint("--listen", t.endpoint, false);
  if (o.workload.streams.empty() == (o.receiver.expect == 0))
    throw UsageError("--expect: give either a workload (--plan, --stream) or --expect N");
  if (o.receiver.linger_s >= 0 && o.workload.streams.empty())
    throw UsageError("--linger: needs the workload, to know when its last message was produced");
}

}  // namespace

CommandLine parse_command_line(int argc, const char* const* argv) {
  CLI::App app{"dissem-tcp: a TCP baseline sender/receiver of stamped messages; prints one JSON result as the last "
               "stdout line",
               "dissem-tcp"};
  app.require_subcommand(1);
  Texts sender_texts, receiver_texts;
  Options sender_o, receiver_o;

  CLI::App* sender = app.add_subcommand("sender", "connect and write the workload's messages on schedule");
  add_common(*sender, sender_o, sender_texts);
  sender->add_option("--connect", sender_texts.endpoint, "the receiver, HOST:PORT (IPv4)")->required();
  sender->add_option("--connect-timeout", sender_o.sender.connect_timeout_s, "seconds to keep trying to connect")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
  sender->add_option("--send-buffer", sender_o.sender.send_buffer, "SO_SNDBUF bytes (default: the kernel's autotuning)")
      ->check(CLI::Range(4096, 1 << 30));

  CLI::App* receiver = app.add_subcommand("receiver", "accept one connection and record every message");
  add_common(*receiver, receiver_o, receiver_texts);
  receiver->add_option("--listen", receiver_texts.endpoint, "[ADDRESS:]PORT to listen on (IPv4)")->required();
  receiver->add_option("--expect", receiver_o.receiver.expect, "without a workload: messages to wait for")
      ->check(CLI::Range(1u, 1000000u));
  receiver->add_option("--linger", receiver_o.receiver.linger_s,
                       "with a workload: stop this many seconds after its last message was produced")
      ->check(CLI::Range(0.0, 86400.0));

  return baseline::parse_command_line<Options>(app, argc, argv, "dissem-tcp", [&] {
    const bool is_sender = sender->parsed();
    Options o = is_sender ? sender_o : receiver_o;
    o.role = is_sender ? Role::Sender : Role::Receiver;
    finish(o, is_sender ? sender_texts : receiver_texts);
    return o;
  });
}

}  // namespace dissem::tcp_baseline
