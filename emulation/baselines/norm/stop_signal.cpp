#include "stop_signal.h"

#include <csignal>

namespace dissem::norm_baseline {
namespace {

volatile std::sig_atomic_t g_stop = 0;

extern "C" void on_stop_signal(int) { g_stop = 1; }

}  // namespace

void install_stop_handlers() {
  // No SA_RESTART: a poll() in the main thread returns at once. If NORM's
  // own thread takes the signal instead, the main loop still sees the flag
  // within one bounded wait.
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool stop_requested() { return g_stop != 0; }

}  // namespace dissem::norm_baseline
