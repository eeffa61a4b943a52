// One NORM API instance with one session, set up from the common options,
// and a bounded wait for its events. Shared by sender and receiver.
#pragma once

#include <normApi.h>

#include <functional>
#include <stdexcept>

#include "norm_options.h"

namespace dissem::norm_baseline {

// NORM refused a setting or could not start; the text says which.
struct NormError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class NormRuntime {
 public:
  // Creates the instance (NORM's protocol thread) and the session, and
  // applies interface, TTL, loopback and GRTT. Throws NormError.
  explicit NormRuntime(const CommonOptions& options);
  ~NormRuntime();
  NormRuntime(const NormRuntime&) = delete;
  NormRuntime& operator=(const NormRuntime&) = delete;

  NormSessionHandle session() const { return session_; }

  // Runs `start_call` (NormStartSender or NormStartReceiver, which open the
  // sockets) with NORM's thread suspended, so that a broadcast session's
  // sockets get SO_BROADCAST before NORM's first packet (the sender's GRTT
  // probe would otherwise fail). Throws NormError naming `what` on failure.
  void start(const char* what, const std::function<bool(NormSessionHandle)>& start_call);

  // The next event, waiting at most timeout_s; false when none came.
  // NORM_EVENT_INVALID events are skipped.
  bool next_event(double timeout_s, NormEvent& event);

 private:
  NormInstanceHandle instance_ = NORM_INSTANCE_INVALID;
  NormSessionHandle session_ = NORM_SESSION_INVALID;
  bool broadcast_ = false;
};

// For diagnostics on stderr.
const char* event_name(NormEventType type);

}  // namespace dissem::norm_baseline
