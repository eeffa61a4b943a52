#include "engine/datagram_sender.h"

namespace dissem::engine {
namespace {

template <typename Frame>
NodeId sender_of_data(const Frame& f) {
  if (f.repair()) return 0;
  return f.hops() > 0 ? f.forwarder() : f.publisher();
}

}  // namespace

NodeId sender_of(const wire::Decoded& d, NodeId sealer) {
  if (sealer != 0) return sealer;
  switch (d.kind) {
    case wire::Kind::Data:
      return sender_of_data(d.data);
    case wire::Kind::Coded:
      return sender_of_data(d.coded);
    case wire::Kind::Window:
      // No forwarder field: only the publisher's own symbols are attributed.
      return d.window.repair() || d.window.hops() > 0 ? 0 : d.window.publisher();
    case wire::Kind::Request:
      return d.request.requester();
    case wire::Kind::Beacon:
      return d.beacon.node();
    case wire::Kind::Summary:
      return d.summary.node();
    case wire::Kind::Bundle:
      break;
  }
  return 0;
}

}  // namespace dissem::engine
