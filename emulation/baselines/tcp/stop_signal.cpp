#include "stop_signal.h"

#include <csignal>

namespace dissem::tcp_baseline {
namespace {

volatile std::sig_atomic_t g_stop = 0;

extern "C" void on_stop_signal(int) { g_stop = 1; }

}  // namespace

void install_stop_handlers() {
  // No SA_RESTART: a blocking connect or poll returns at once with EINTR.
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // A peer that resets the connection must not kill the process: writes use
  // MSG_NOSIGNAL, and this covers anything else.
  std::signal(SIGPIPE, SIG_IGN);
}

bool stop_requested() { return g_stop != 0; }

}  // namespace dissem::tcp_baseline
