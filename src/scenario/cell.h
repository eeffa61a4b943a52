// One cell of a scenario's [matrix] (one value per key) and the placeholder
// values every template of the topology may use: the cell's values and the
// built-ins seed, n_nodes, scenario, cell and the roles' facts
// (<role>_ids, <role>_names, <role>_count, <role>_id).
//
// The caller picks the cell with "key=value" texts (dissem-sim's --cell);
// a key with a single value in the matrix may be left out.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "scenario/node_set.h"
#include "scenario/table_reader.h"
#include "scenario/value.h"

namespace dissem::scenario {

// [matrix]: each key's values, keys in the order the file writes them.
using Matrix = std::vector<std::pair<std::string, std::vector<Value>>>;

Matrix read_matrix(const TableReader& top, const std::set<std::string>& reserved);

// The cell's id as the runner names its directory: "key-value_key-value", "default".
std::string cell_id(const std::vector<std::pair<std::string, Value>>& cell);

// The cell `choices` ("key=value") pick; a ScenarioError names a bad choice.
std::vector<std::pair<std::string, Value>> pick_cell(const Matrix& matrix, const std::vector<std::string>& choices,
                                                     const std::string& source);

// Every cell of the matrix, the first key varying slowest (one cell, empty, when there is no matrix).
std::vector<std::vector<std::pair<std::string, Value>>> every_cell(const Matrix& matrix);

// Names known per cell: the cell's values and the built-ins.
Names cell_names(const std::string& scenario_name, const NodeSet& nodes,
                 const std::vector<std::pair<std::string, Value>>& cell, std::uint64_t seed);
// Their names alone, for checking templates before any cell is picked.
std::set<std::string> cell_name_set(const Matrix& matrix, const NodeSet& nodes);

// The built-in placeholders a matrix key may not be named after.
const std::set<std::string>& reserved_names();

}  // namespace dissem::scenario
