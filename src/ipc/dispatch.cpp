#include "ipc/dispatch.h"

#include <exception>
#include <string>

#include "ipc/convert.h"
#include "ipc/convert_links.h"

namespace dissem::ipc {

Response error_response(std::uint64_t request_id, Error::Code code, const std::string& message) {
  Response r;
  r.set_request_id(request_id);
  r.mutable_error()->set_code(code);
  r.mutable_error()->set_message(message);
  return r;
}

namespace {

void set_ack(Response& out, const MessageId& id) {
  auto& ack = *out.mutable_publish_ack();
  ack.set_group(id.group);
  ack.set_publisher(id.publisher);
  ack.set_seq(id.seq);
}

void run(Backend& backend, ClientId client, const ClientMessage& request, Response& out) {
  switch (request.request_case()) {
    case ClientMessage::kPublish:
      set_ack(out, backend.publish(client, from_proto(request.publish())));
      return;
    case ClientMessage::kCancel:
      set_ack(out, backend.cancel(client, from_proto(request.cancel())));
      return;
    case ClientMessage::kSubscribe: {
      const auto& s = request.subscribe();
      out.mutable_subscribe_ack()->set_subscription_id(backend.subscribe(client, s.group(), from_proto(s)));
      return;
    }
    case ClientMessage::kUnsubscribe:
      backend.unsubscribe(client, request.unsubscribe().subscription_id());
      out.mutable_ok();
      return;
    case ClientMessage::kRequestHistory:
      backend.request_history(client, request.request_history().group(), request.request_history().count());
      out.mutable_ok();
      return;
    case ClientMessage::kAcknowledge: {
      const auto& a = request.acknowledge();
      backend.acknowledge(client, a.subscription_id(), MessageId{a.group(), a.publisher(), a.seq()});
      out.mutable_ok();
      return;
    }
    case ClientMessage::kDeleteSubscription:
      if (!backend.delete_subscription(client, request.delete_subscription().name()))
        throw std::invalid_argument("no durable subscription named '" + request.delete_subscription().name() + "'");
      out.mutable_ok();
      return;
    case ClientMessage::kGet: {
      const auto& g = request.get();
      auto d = backend.get(client, MessageId{g.group(), g.publisher(), g.seq()});
      if (!d)
        throw std::invalid_argument("message " + g.group() + "/" + std::to_string(g.publisher()) + "/" +
                                    std::to_string(g.seq()) + " is not held whole in this daemon's cache");
      to_proto(*d, *out.mutable_message());
      return;
    }
    case ClientMessage::kList: {
      engine::ListRequest r = from_proto(request.list());
      const std::size_t limit = r.limit;
      r.limit = limit + 1;  // one more tells whether the list was cut
      auto found = backend.list(client, r);
      auto& list = *out.mutable_messages();
      list.set_truncated(found.size() > limit);
      if (found.size() > limit) found.resize(limit);
      for (const auto& m : found) to_proto(m, *list.add_messages());
      return;
    }
    case ClientMessage::kWatchLinks: {
      const auto& w = request.watch_links();
      std::optional<engine::LinkThresholds> thresholds;
      if (w.has_thresholds()) thresholds = from_proto(w.thresholds());
      backend.watch_links(client, !w.stop(), thresholds);
      out.mutable_ok();
      return;
    }
    case ClientMessage::kSetSilent:
      backend.set_silent(client, request.set_silent().silent());
      out.mutable_ok();
      return;
    case ClientMessage::kReload: {
      const ReloadReport report = backend.reload(client);
      auto& r = *out.mutable_reloaded();
      for (const auto& k : report.applied) r.add_applied(k);
      for (const auto& k : report.needs_restart) r.add_needs_restart(k);
      r.set_keys(report.keys);
      return;
    }
    case ClientMessage::kGetStats:
      to_proto(backend.stats(), *out.mutable_stats());
      return;
    case ClientMessage::kListPeers: {
      auto& peers = *out.mutable_peers();
      for (const PeerInfo& p : backend.peers()) to_proto(p, *peers.add_peers());
      return;
    }
    case ClientMessage::REQUEST_NOT_SET:
      break;
  }
  out = error_response(request.request_id(), Error::UNKNOWN_REQUEST, "request names no operation this daemon knows");
}

}  // namespace

Response dispatch_request(Backend& backend, ClientId client, const ClientMessage& request) {
  Response out;
  out.set_request_id(request.request_id());
  try {
    run(backend, client, request, out);
  } catch (const engine::QueueFull& e) {
    return error_response(request.request_id(), Error::QUEUE_FULL, e.what());
  } catch (const engine::PublishError& e) {
    return error_response(request.request_id(), Error::REJECTED, e.what());
  } catch (const std::invalid_argument& e) {
    return error_response(request.request_id(), Error::REJECTED, e.what());
  } catch (const std::exception& e) {
    return error_response(request.request_id(), Error::FAILED, e.what());
  }
  return out;
}

}  // namespace dissem::ipc
