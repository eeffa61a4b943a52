#include "engine/wall_clock.h"

#include <algorithm>

#include <fmt/format.h>

namespace dissem::engine {
namespace {

Micros magnitude(Micros t) { return t < 0 ? -t : t; }

std::string describe(Micros divergence, bool adopted, bool peers_measured) {
  std::string text =
      fmt::format("the system clock stepped {:+.1f} s from dissem's wall time; ", static_cast<double>(divergence) / kSeconds);
  if (adopted) return text + "the neighbours' clocks agree with it: followed at once";
  text += peers_measured ? "the neighbours' clocks agree with dissem's time" : "no neighbour's clock is measured";
  return text + ": dissem's wall time moves towards it by 1 % of the time that passes";
}

}  // namespace

std::optional<WallClock::Step> WallClock::on_system_clock(Micros system_now, Micros now,
                                                          std::optional<Micros> peers_offset) {
  const Micros elapsed = last_now_ ? std::max<Micros>(0, now - *last_now_) : 0;
  last_now_ = now;
  const Micros d = system_now - wall(now);
  if (magnitude(d) <= kClockFollow) {
    follow(d);
    return std::nullopt;
  }
  // The neighbours are nearer the system clock than our wall time: a
  // correction (a clock set right after boot, say), taken at once.
  if (peers_offset && magnitude(*peers_offset - d) + kClockFollow < magnitude(*peers_offset)) {
    follow(d);
    ++steps_;
    return Step{d, true, describe(d, true, true)};
  }
  // A new step: none under way, or the system clock jumped again during one.
  const bool fresh = !in_step_ || magnitude(d - divergence_) > kClockFollow;
  in_step_ = true;
  const auto room = static_cast<Micros>(static_cast<double>(elapsed) * kClockSlew);
  const Micros move = std::clamp(d, -room, room);
  offset_ += move;
  divergence_ = d - move;
  if (!fresh) return std::nullopt;
  ++steps_;
  return Step{d, false, describe(d, false, peers_offset.has_value())};
}

void WallClock::follow(Micros d) {
  offset_ += d;
  divergence_ = 0;
  in_step_ = false;
}

}  // namespace dissem::engine
