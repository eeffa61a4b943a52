// The command line of a program whose sender and receiver take the same
// common options (dissem-norm, dissem-pgm): `PROGRAM sender|receiver
// [common options] [the role's options]`. Each subcommand parses the common
// options into its own copy; the one of the role chosen is kept. The sender
// takes --messages (common/message_spec.h), which its check reads.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "command_line.h"

namespace dissem::baseline {

template <typename Options>
class RoleCommandLine {
 public:
  using Common = decltype(Options::common);
  using Sender = decltype(Options::sender);

  // Sets up both subcommands with the common options; the caller adds each
  // role's own options to sender() and receiver(), bound to options().
  RoleCommandLine(const std::string& description, const char* program, const std::string& sender_help,
                  const std::string& receiver_help, void (*add_common)(CLI::App&, Common&))
      : app_(description, program), program_(program) {
    app_.require_subcommand(1);
    sender_ = app_.add_subcommand("sender", sender_help);
    add_common(*sender_, sender_common_);
    receiver_ = app_.add_subcommand("receiver", receiver_help);
    add_common(*receiver_, receiver_common_);
  }

  CLI::App& sender() { return *sender_; }
  CLI::App& receiver() { return *receiver_; }
  Options& options() { return options_; }

  // Adds the sender's --messages, kept as text for the sender's check.
  void add_messages_option() {
    sender_->add_option("--messages", messages_, "COUNTxBYTES (e.g. 1x819200) or a comma list of sizes")->required();
  }

  // Parses argv and keeps the role and its common options; then checks
  // (throwing UsageError) the common options and, for a sender, its own
  // with the --messages text. See parse_command_line.
  CommandLine<Options> parse(int argc, const char* const* argv, void (*check_common)(const Common&),
                             void (*check_sender)(const Common&, Sender&, const std::string& messages)) {
    return parse_command_line<Options>(app_, argc, argv, program_, [&] {
      options_.role = sender_->parsed() ? Role::Sender : Role::Receiver;
      options_.common = options_.role == Role::Sender ? sender_common_ : receiver_common_;
      check_common(options_.common);
      if (options_.role == Role::Sender) check_sender(options_.common, options_.sender, messages_);
      return options_;
    });
  }

 private:
  CLI::App app_;
  const char* program_;
  CLI::App* sender_ = nullptr;
  CLI::App* receiver_ = nullptr;
  Options options_;
  std::string messages_;
  Common sender_common_;
  Common receiver_common_;
};

}  // namespace dissem::baseline
