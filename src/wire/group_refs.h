// Short group references: a data frame names its group by a small number
// its publisher chose, (publisher, ref), instead of the group's name. The
// publisher assigns refs once and keeps them (durable, in its node state),
// so a ref never changes meaning. Frames carrying the name in full also
// carry the ref, and beacons list them, so every node, a late one too,
// learns the mapping from the air and any node can serve the data again
// under the same ref (docs/protocol.md, "Group references").
//
// Bounded: at most `capacity` learnt entries; beyond that the one learnt
// longest ago is forgotten (frames using it then fail to decode until the
// name is heard again). Own entries are never forgotten.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace dissem::wire {

class GroupRefs {
 public:
  enum class Learnt : std::uint8_t { Known, New, Changed };

  explicit GroupRefs(std::size_t capacity = 8192) : capacity_(capacity > 0 ? capacity : 1) {}

  // The group `publisher` calls `ref`, or nullptr.
  const std::string* name_of(std::uint32_t publisher, std::uint32_t ref) const;
  // The ref `publisher` uses for `group`, or 0.
  std::uint32_t ref_of(std::uint32_t publisher, std::string_view group) const;

  // Records a mapping heard on the air. A ref the publisher now uses for
  // another name (it lost its state) replaces the old mapping once the same
  // claim has been heard kConfirmations times: Changed (Known before that).
  // `forgotten`, when given, receives the (publisher, ref) forgotten to make room.
  Learnt learn(std::uint32_t publisher, std::uint32_t ref, const std::string& group,
               std::optional<std::pair<std::uint32_t, std::uint32_t>>* forgotten = nullptr);
  // A mapping of our own, kept for good (restored from node state or assigned).
  void pin(std::uint32_t publisher, std::uint32_t ref, const std::string& group);
  // The next ref free for `publisher` (1 for the first group).
  std::uint32_t next_free(std::uint32_t publisher) const;

  std::size_t size() const { return by_ref_.size(); }
  std::uint64_t forgotten() const { return forgotten_; }

 private:
  using RefKey = std::pair<std::uint32_t, std::uint32_t>;
  using NameKey = std::pair<std::uint32_t, std::string>;
  struct Entry {
    std::string name;
    bool pinned = false;
    std::list<RefKey>::iterator age;  // position in age_ (learnt entries only)
  };
  void erase(const RefKey& key);
  void insert(const RefKey& key, const std::string& group, bool pinned);

  static constexpr std::uint32_t kConfirmations = 3;
  static constexpr std::size_t kMaxPending = 1024;

  std::size_t capacity_;
  std::uint64_t forgotten_ = 0;
  std::map<std::pair<RefKey, std::string>, std::uint32_t> pending_;  // contradicting claims heard so far
  std::map<RefKey, Entry> by_ref_;
  std::map<NameKey, std::uint32_t, std::less<>> by_name_;
  std::list<RefKey> age_;  // learnt entries, oldest first
};

}  // namespace dissem::wire
