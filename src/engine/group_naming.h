// Which name a data frame gives its group: the publisher's short reference
// (wire/group_refs.h) once the network has heard it, the name in full
// (with the reference) in the first frames after this node has not named
// it for an announcement interval. Each node counts only its own announcements: what a neighbour
// said reached the neighbour's neighbours, not necessarily this node's.
//
// Our own references are assigned at first use and kept in the node state
// ("gref/<group>"), so they never change meaning across restarts; learnt
// ones are kept there too ("gref-heard/<publisher>/<ref>", as many as the
// table holds), so a restarted node reads the streams it knew at once.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "cache/store.h"
#include "core/types.h"
#include "wire/codec.h"

namespace dissem::engine {

class GroupNaming {
 public:
  GroupNaming(NodeId self, std::size_t capacity) : self_(self), refs_(capacity) {}

  // Restores our references from the node state.
  void restore(cache::Store& store);

  // How to frame data of `publisher` in `group` now; an announcement is
  // noted as made.
  wire::DataEncoding encoding(NodeId publisher, const std::string& group, Micros now, Micros interval,
                              cache::Store& store);

  // After a data frame decoded: learns a mapping it announced. Returns true
  // when the mapping replaced a different one.
  bool on_frame(const wire::DataFragment& d, const wire::DataFrameInfo& info, cache::Store& store);
  // A beacon's list of streams names the same mappings.
  bool on_mapping(NodeId publisher, std::uint32_t ref, const std::string& group, cache::Store& store);

  std::uint32_t ref_of(NodeId publisher, const std::string& group) const { return refs_.ref_of(publisher, group); }
  const wire::GroupRefs& refs() const { return refs_; }

 private:
  std::uint32_t own_ref(const std::string& group, cache::Store& store);

  NodeId self_;
  wire::GroupRefs refs_;
  // Each announcement names the group in this many frames in a row.
  static constexpr std::uint32_t kRepeats = 4;
  struct Announcement {
    Micros at = 0;              // when the last one began
    std::uint32_t repeats = 0;  // frames named since
  };
  std::map<std::pair<NodeId, std::uint32_t>, Announcement> announced_;  // (publisher, ref)
};

}  // namespace dissem::engine
