#include "stop_signal.h"

#include <csignal>

namespace dissem::baseline {
namespace {

volatile std::sig_atomic_t g_stop = 0;

extern "C" void on_stop_signal(int) { g_stop = 1; }

}  // namespace

void install_stop_handlers() {
  // No SA_RESTART: a blocking connect or poll returns at once with EINTR (a
  // library's own thread may take the signal instead: the main loops then
  // see the flag within one bounded wait).
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // A peer that resets a connection must not kill the process.
  std::signal(SIGPIPE, SIG_IGN);
}

bool stop_requested() { return g_stop != 0; }

}  // namespace dissem::baseline
