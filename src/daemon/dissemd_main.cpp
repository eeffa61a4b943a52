// dissemd: one per host. Parses the configuration (a bad key stops start-up
// with a message naming it), runs the daemon until SIGINT or SIGTERM, then
// commits the cache and exits 0. SIGHUP reads the same command line's
// configuration and key files again (daemon/config_reload.h); a refused
// reload is logged and the running settings stay.
#include <malloc.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdio>
#include <exception>
#include <functional>

#include <google/protobuf/stubs/logging.h>

#include "core/version.h"
#include "daemon/config_toml.h"
#include "daemon/daemon.h"
#include "daemon/daemon_args.h"
#include "daemon/log.h"

int main(int argc, char** argv) {
  using namespace dissem::daemon;
  // Messages of megabytes pass through several buffers (IPC frame, cache,
  // deliveries). glibc serves each from a fresh mmap and unmaps it on free,
  // so every large message paid page faults and page zeroing again (a third
  // of the daemon's kernel time in bench_daemons). Keeping buffers up to
  // 32 MiB (glibc's ceiling for this knob) on the heap, and not trimming it
  // eagerly, lets them be reused.
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 256 << 20);
  // The protobuf library logs a line to stderr for some malformed input
  // (invalid UTF-8 in a string field): a hostile node could flood the
  // journal with them. Every malformed datagram and IPC frame is counted
  // instead (dissem stats), so the library's messages are dropped.
  google::protobuf::SetLogHandler(nullptr);
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
  if (args.action == StartAction::Version) {
    std::printf("%s\n", dissem::version_line("dissemd").c_str());
    return 0;
  }
  if (args.action == StartAction::PrintConfig) {
    std::fputs(to_toml(args.config).c_str(), stdout);
    return 0;
  }
  log_threshold() = args.config.log.level;
  try {
    boost::asio::io_context io;
    Daemon daemon(io, args.config, [argc, argv] { return parse_daemon_args(argc, argv).config; });
    boost::asio::signal_set signals(io, SIGINT, SIGTERM);
    boost::asio::signal_set hangups(io, SIGHUP);
    std::function<void(const boost::system::error_code&, int)> on_hangup =
        [&](const boost::system::error_code& ec, int) {
          if (ec) return;
          log(LogLevel::Info, "signal SIGHUP: reloading the configuration");
          try {
            daemon.reload(0);
          } catch (const std::exception& e) {
            log(LogLevel::Error, "reload refused, running settings kept: {}", e.what());
          }
          hangups.async_wait(on_hangup);
        };
    hangups.async_wait(on_hangup);
    signals.async_wait([&](const boost::system::error_code& ec, int signo) {
      if (ec) return;
      log(LogLevel::Info, "signal {}: stopping", signo);
      daemon.stop();
      hangups.cancel();
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
