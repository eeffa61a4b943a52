// dissemd: one per host. Parses the configuration (a bad key stops start-up
// with a message naming it), runs the daemon until SIGINT or SIGTERM, then
// commits the cache and exits 0.
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdio>
#include <exception>

#include "daemon/config_toml.h"
#include "daemon/daemon.h"
#include "daemon/daemon_args.h"
#include "daemon/log.h"

int main(int argc, char** argv) {
  using namespace dissem::daemon;
  DaemonArgs args;
  try {
    args = parse_daemon_args(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dissemd: %s\n", e.what());
    return 2;
  }
  if (args.action == StartAction::Help) {
    std::fputs(args.help.c_str(), stdout);
    return 0;
  }
  if (args.action == StartAction::PrintConfig) {
    std::fputs(to_toml(args.config).c_str(), stdout);
    return 0;
  }
  log_threshold() = args.config.log.level;
  try {
    boost::asio::io_context io;
    Daemon daemon(io, args.config);
    boost::asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code& ec, int signo) {
      if (ec) return;
      log(LogLevel::Info, "signal {}: stopping", signo);
      daemon.stop();
      io.stop();
    });
    daemon.start();
    io.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dissemd: %s\n", e.what());
    return 1;
  }
  return 0;
}
