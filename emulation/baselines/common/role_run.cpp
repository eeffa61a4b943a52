#include "role_run.h"

#include "stop_signal.h"

namespace dissem::baseline {

bool RoleRun::stop_signalled(bool interrupts) {
  if (!stop_requested()) return false;
  interrupted_ = interrupts;
  return true;
}

void RoleRun::add_end_members(Json& j) const {
  j["timed_out"] = timed_out_;
  j["interrupted"] = interrupted_;
}

void RoleRun::add_error(Json& j) const {
  if (error_) j["error"] = *error_;
}

}  // namespace dissem::baseline
