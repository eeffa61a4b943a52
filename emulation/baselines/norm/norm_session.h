// One NORM API instance with one session, set up from the common options,
// and a bounded wait for its events. Shared by sender and receiver.
#pragma once

#include <normApi.h>

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

  // The next event, waiting at most timeout_s; false when none came.
  // NORM_EVENT_INVALID events are skipped.
  bool next_event(double timeout_s, NormEvent& event);

 private:
  NormInstanceHandle instance_ = NORM_INSTANCE_INVALID;
  NormSessionHandle session_ = NORM_SESSION_INVALID;
};

// For diagnostics on stderr.
const char* event_name(NormEventType type);

}  // namespace dissem::norm_baseline
