// Helpers for tests of the scenario language (src/scenario): a document's
// expansion for one cell, and the message a call throws.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scenario/cell.h"
#include "scenario/expansion.h"
#include "scenario/scenario_document.h"

namespace dissem::test {

inline scenario::Expansion expand_doc(const scenario::ScenarioDocument& d, const std::vector<std::string>& cell = {},
                                      std::uint64_t seed = 1, std::optional<double> horizon = std::nullopt) {
  const auto picked = scenario::pick_cell(d.matrix, cell, d.source);
  return scenario::expand(d.topology, scenario::cell_names(d.name, d.nodes, picked, seed), d.nodes.size(), seed,
                          horizon);
}

// What `f` throws, as its message; "" when it returns.
inline std::string thrown_by(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace dissem::test
