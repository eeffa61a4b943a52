// One OpenPGM socket over UDP encapsulation, set up the same way for sender
// and receiver: created, given its role's options, bound to the interface,
// joined to the group, non-blocking, connected. Also owns OpenPGM's global
// engine (pgm_init ... pgm_shutdown), so that nothing of it outlives the run.
#pragma once

// <poll.h> first: pgm/socket.h declares pgm_poll_info only when POLLIN is defined.
#include <poll.h>
#include <pgm/pgm.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "pgm_options.h"

namespace dissem::pgm_baseline {

struct PgmError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Text of an OpenPGM error, which it frees.
std::string take_error(pgm_error_t* error);

class PgmSocket {
 public:
  // `configure` sets the role's options; it runs before the socket is bound.
  PgmSocket(const CommonOptions& c, const char* role, const std::function<void(PgmSocket&)>& configure);
  ~PgmSocket();
  PgmSocket(const PgmSocket&) = delete;
  PgmSocket& operator=(const PgmSocket&) = delete;

  pgm_sock_t* get() const { return sock_; }

  // pgm_setsockopt at level IPPROTO_PGM; a refusal throws, naming the option.
  void set(int option, int value, const char* name);
  void set_bytes(int option, const void* value, socklen_t length, const char* name);

  // Seconds until PGM's next timer (PGM_TIME_REMAIN) and until its rate
  // limit lets the blocked packet go (PGM_RATE_REMAIN).
  double time_remain_s() const;
  double rate_remain_s() const;

  // Waits at most `timeout_s` for PGM's descriptors: incoming packets and
  // its internal notifications, and, with `for_write`, room in the send
  // socket. With `repairs_blocked`, not for the repair notification, which
  // stays readable while repairs wait for the rate limit. Returns early on a
  // signal.
  void wait(double timeout_s, bool for_write, bool repairs_blocked = false) const;

  // The kernel socket PGM receives on (PGM_RECV_SOCK).
  int recv_fd() const;

 private:
  struct Engine {
    Engine();
    ~Engine();
  };
  Engine engine_;  // first constructed, last destroyed
  pgm_sock_t* sock_ = nullptr;
};

}  // namespace dissem::pgm_baseline
