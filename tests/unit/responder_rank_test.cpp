#include "engine/repair/responder_rank.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <vector>

namespace dissem::engine::responder_rank_test {
namespace {

std::map<NodeId, Peer> peers_of(const std::vector<NodeId>& ids) {
  std::map<NodeId, Peer> m;
  for (NodeId id : ids) m[id].beacons_heard = 2;  // established
  return m;
}

TEST(ResponderRank, NodesHearingTheSamePeersAgreeOnOneOrder) {
  const std::vector<NodeId> nodes{11, 22, 33, 44, 55};
  const NodeId requester = 55;
  for (std::uint64_t seq = 1; seq <= 50; ++seq) {
    const MessageId id{"news", 7, seq};
    std::vector<std::size_t> ranks;
    for (NodeId self : nodes) {
      if (self == requester) continue;
      std::vector<NodeId> others;
      for (NodeId o : nodes)
        if (o != self) others.push_back(o);
      ranks.push_back(responder_rank(id, self, requester, peers_of(others)));
    }
    std::sort(ranks.begin(), ranks.end());
    EXPECT_EQ(ranks, (std::vector<std::size_t>{0, 1, 2, 3})) << "seq " << seq;
  }
}

TEST(ResponderRank, TheFirstServerChangesFromMessageToMessage) {
  const std::vector<NodeId> servers{101, 202, 303, 404};
  std::array<int, 4> first{};
  for (std::uint64_t seq = 1; seq <= 400; ++seq) {
    const MessageId id{"g", 9, seq};
    for (std::size_t i = 0; i < servers.size(); ++i) {
      std::vector<NodeId> others{999};  // the requester, heard too
      for (NodeId o : servers)
        if (o != servers[i]) others.push_back(o);
      if (responder_rank(id, servers[i], 999, peers_of(others)) == 0) ++first[i];
    }
  }
  for (int n : first) {
    EXPECT_GT(n, 60);   // about 100 each: no node answers everything first
    EXPECT_LT(n, 140);
  }
}

TEST(ResponderRank, KeysDependOnEveryPartOfTheMessageId) {
  const MessageId base{"g", 1, 1};
  const auto k = responder_key(base, 5);
  EXPECT_NE(k, responder_key(MessageId{"h", 1, 1}, 5));
  EXPECT_NE(k, responder_key(MessageId{"g", 2, 1}, 5));
  EXPECT_NE(k, responder_key(MessageId{"g", 1, 2}, 5));
  EXPECT_NE(k, responder_key(base, 6));
  EXPECT_EQ(k, responder_key(base, 5));
}

}  // namespace
}  // namespace dissem::engine::responder_rank_test
