#include "ipc/convert_links.h"

#include <stdexcept>
#include <string>

#include "ipc/convert.h"

namespace dissem::ipc {

PeerInfo peer_info(const engine::LinkSample& s, Micros now) {
  PeerInfo p;
  p.node = s.node;
  p.last_heard_ago = now - s.last_heard;
  p.estimated_loss = s.beacon_loss;
  p.srtt = s.srtt;
  p.loss_in = s.loss_in;
  p.loss_out = s.loss_out;
  p.received_bytes_per_s = s.received_bytes_per_s;
  p.sent_bytes_per_s = s.sent_bytes_per_s;
  p.clock_offset = s.clock_offset;
  return p;
}

void to_proto(const LinkEventInfo& in, LinkEvent& out) {
  using K = engine::LinkEvent::Kind;
  switch (in.kind) {
    case K::PeerAppeared: out.set_kind(LinkEvent::PEER_APPEARED); break;
    case K::PeerSilent: out.set_kind(LinkEvent::PEER_SILENT); break;
    case K::LossAbove: out.set_kind(LinkEvent::LOSS_ABOVE); break;
    case K::LossBelow: out.set_kind(LinkEvent::LOSS_BELOW); break;
    case K::RateAbove: out.set_kind(LinkEvent::RATE_ABOVE); break;
    case K::RateBelow: out.set_kind(LinkEvent::RATE_BELOW); break;
  }
  to_proto(in.peer, *out.mutable_peer());
}

LinkEventInfo from_proto(const LinkEvent& in) {
  using K = engine::LinkEvent::Kind;
  LinkEventInfo out;
  switch (in.kind()) {
    case LinkEvent::PEER_APPEARED: out.kind = K::PeerAppeared; break;
    case LinkEvent::PEER_SILENT: out.kind = K::PeerSilent; break;
    case LinkEvent::LOSS_ABOVE: out.kind = K::LossAbove; break;
    case LinkEvent::LOSS_BELOW: out.kind = K::LossBelow; break;
    case LinkEvent::RATE_ABOVE: out.kind = K::RateAbove; break;
    case LinkEvent::RATE_BELOW: out.kind = K::RateBelow; break;
    default: throw std::invalid_argument("unknown IPC link event kind " + std::to_string(in.kind()));
  }
  out.peer = from_proto(in.peer());
  return out;
}

void to_proto(const engine::LinkThresholds& in, LinkThresholds& out) {
  out.set_loss_threshold(in.loss);
  out.set_loss_hysteresis(in.loss_hysteresis);
  out.set_rate_threshold(in.rate_bytes_per_s);
  out.set_rate_hysteresis(in.rate_hysteresis);
}

engine::LinkThresholds from_proto(const LinkThresholds& in) {
  return {in.loss_threshold(), in.loss_hysteresis(), in.rate_threshold(), in.rate_hysteresis()};
}

}  // namespace dissem::ipc
