#include "rogue_summary.h"

namespace dissem::rogue {

Json rogue_summary(const RogueTally& tally) {
  Json j;
  j["datagrams"] = tally.datagrams;
  j["bytes"] = tally.bytes;
  j["heard"] = tally.heard;
  j["target"] = tally.target ? Json{{"group", tally.target->group},
                                    {"publisher", tally.target->publisher},
                                    {"newest", tally.target->newest}}
                             : Json(nullptr);
  j["sent"] = tally.sent;
  return j;
}

}  // namespace dissem::rogue
