#include "daemon/metrics_server.h"

#include <memory>
#include <string>
#include <system_error>
#include <utility>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace dissem::daemon {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

namespace {

constexpr std::size_t kMaxHeaderBytes = 8192;
constexpr auto kIdleLimit = std::chrono::seconds(10);
constexpr auto kAcceptRetry = std::chrono::milliseconds(100);

}  // namespace

// One scraper's connection: requests read and answered in turn (keep-alive)
// until it closes, sends something that is not HTTP, or stays idle.
class MetricsServer::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, std::shared_ptr<Shared> shared) : stream_(std::move(socket)), shared_(std::move(shared)) {}
  ~Session() { --shared_->sessions; }

  void start() { read(); }

 private:
  void read() {
    parser_.emplace();
    parser_->header_limit(kMaxHeaderBytes);
    parser_->body_limit(0);  // a scrape carries no body
    stream_.expires_after(kIdleLimit);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == boost::asio::error::operation_aborted)
      return close();
    if (ec) return answer(http::status::bad_request, "not an HTTP request this endpoint takes\n", false);
    const auto& request = parser_->get();
    if (request.method() != http::verb::get && request.method() != http::verb::head)
      return answer(http::status::method_not_allowed, "GET /metrics only\n", request.keep_alive());
    if (request.target() != "/metrics")
      return answer(http::status::not_found, "nothing here: the metrics are at /metrics\n", request.keep_alive());
    answer(http::status::ok, shared_->render(), request.keep_alive(), request.method() == http::verb::head);
  }

  void answer(http::status status, std::string body, bool keep_alive, bool head = false) {
    auto response = std::make_shared<http::response<http::string_body>>(status, 11);
    response->set(http::field::server, "dissemd");
    response->set(http::field::content_type, status == http::status::ok
                                                 ? "text/plain; version=0.0.4; charset=utf-8"
                                                 : "text/plain; charset=utf-8");
    if (status == http::status::method_not_allowed) response->set(http::field::allow, "GET, HEAD");
    response->keep_alive(keep_alive);
    const auto size = body.size();
    if (!head) response->body() = std::move(body);
    response->content_length(size);
    stream_.expires_after(kIdleLimit);
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response, keep_alive](beast::error_code ec, std::size_t) {
                        if (ec || !keep_alive) return self->close();
                        self->read();
                      });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::empty_body>> parser_;
  std::shared_ptr<Shared> shared_;
};

MetricsServer::MetricsServer(boost::asio::io_context& io, const ListenAddress& at, Render render)
    : acceptor_(io), retry_(io), shared_(std::make_shared<Shared>(Shared{std::move(render), 0})) {
  const tcp::endpoint endpoint(at.address, at.port);
  beast::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(boost::asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(boost::asio::socket_base::max_listen_connections, ec);
  if (ec) {
    throw std::system_error(ec, "metrics: cannot listen on " + endpoint.address().to_string() + " port " +
                                    std::to_string(at.port));
  }
  accept();
}

MetricsServer::~MetricsServer() {
  beast::error_code ignored;
  acceptor_.close(ignored);
}

std::uint16_t MetricsServer::port() const { return acceptor_.local_endpoint().port(); }

void MetricsServer::accept() {
  acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec == boost::asio::error::operation_aborted) return;  // closed: the daemon is stopping
    if (ec) {
      // Out of file descriptors (EMFILE) or memory: accepting again at once
      // would fail at once, spinning. A pause lets connections close first.
      retry_.expires_after(kAcceptRetry);
      retry_.async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec) accept();
      });
      return;
    }
    if (shared_->sessions < kMaxSessions) {
      ++shared_->sessions;
      std::make_shared<Session>(std::move(socket), shared_)->start();
    }
    // Past the limit the socket closes here, unanswered: scrapers retry.
    accept();
  });
}

}  // namespace dissem::daemon
