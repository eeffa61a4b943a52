// dissemd's metrics endpoint: HTTP/1.1 on a TCP address of the operator's
// choosing (metrics.listen), serving GET /metrics with what `render` returns
// (daemon/metrics_text.h), in Prometheus' text format. Nothing else is
// served: other paths get 404, other methods 405, anything that is not HTTP
// (or a header over 8 KiB, or a body) 400 and the connection closed. At most
// kMaxSessions connections at once, each closed after 10 s idle. Runs on the
// daemon's io_context (Boost.Beast), so `render` is called on its thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "daemon/listen_address.h"

namespace dissem::daemon {

class MetricsServer {
 public:
  using Render = std::function<std::string()>;
  static constexpr std::size_t kMaxSessions = 16;

  // Listens at once. Throws std::system_error naming the address when it
  // cannot (in use, not this host's, a privileged port).
  MetricsServer(boost::asio::io_context& io, const ListenAddress& at, Render render);
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  std::uint16_t port() const;

 private:
  class Session;
  // What a connection still needs when it outlives the server (the daemon
  // stopping while a scrape is being answered).
  struct Shared {
    Render render;
    std::size_t sessions = 0;
  };
  void accept();

  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_;  // after a failed accept (out of file descriptors)
  std::shared_ptr<Shared> shared_;
};

}  // namespace dissem::daemon
