#include "scenario/expansion_json.h"

namespace dissem::scenario {
namespace {

Json link_json(int from, int to, const LinkParams& p) {
  return Json{{"from", from},           {"to", to},           {"latency_s", p.latency_s},
              {"jitter_s", p.jitter_s}, {"loss_pct", p.loss_pct}, {"dup_pct", p.dup_pct},
              {"unicast_bps", p.unicast_bps}, {"broadcast_bps", p.broadcast_bps}};
}

Json nodes_json(const ScenarioDocument& doc, const Expansion& x) {
  Json out = Json::array();
  for (const auto& n : doc.nodes.nodes()) {
    Json node{{"id", n.id}, {"name", n.name}, {"roles", n.roles}};
    if (x.graph) {
      const auto& p = x.graph->points[static_cast<std::size_t>(n.id - 1)];
      node["x"] = p.x;
      node["y"] = p.y;
    }
    out.push_back(std::move(node));
  }
  return out;
}

}  // namespace

Json link_events_json(const std::vector<LinkEvent>& events) {
  Json out = Json::array();
  for (const auto& e : events) {
    Json j{{"at_s", e.time_s}};
    j.update(link_json(e.sender, e.receiver, e.params));
    out.push_back(std::move(j));
  }
  return out;
}

Json expansion_json(const ScenarioDocument& doc, const std::string& cell, std::uint64_t seed,
                    std::optional<double> horizon_s, const Expansion& x) {
  Json out{{"scenario", doc.name}, {"cell", cell}, {"seed", seed}, {"horizon_s", json_or_null(horizon_s)},
           {"kind", doc.topology.kind}, {"nodes", nodes_json(doc, x)}, {"default_disconnected", x.default_disconnected}};
  if (x.graph)
    out["graph"] = Json{{"radius", x.graph->radius},         {"links", x.graph->edges()},
                        {"mean_degree", x.graph->mean_degree()}, {"min_degree", x.graph->min_degree()},
                        {"max_degree", x.graph->max_degree()}, {"redrawn", x.graph->redrawn}};
  Json links = Json::array();
  for (const auto& [pair, params] : x.links) links.push_back(link_json(pair.first, pair.second, params));
  out["links"] = std::move(links);
  out["events"] = link_events_json(x.events);
  Json gilbert = Json::array();
  for (const auto& [pair, g] : x.gilbert)
    gilbert.push_back(Json{{"from", pair.first}, {"to", pair.second}, {"p_good_to_bad", g.p_good_to_bad},
                           {"p_bad_to_good", g.p_bad_to_good}, {"loss_in_bad", g.loss_in_bad}});
  out["gilbert"] = std::move(gilbert);
  Json outages = Json::array();
  for (const auto& [pair, spans] : x.outages) {
    Json down = Json::array();
    for (const auto& [s, e] : spans) down.push_back(Json::array({s, e}));
    outages.push_back(Json{{"from", pair.first}, {"to", pair.second}, {"down", std::move(down)}});
  }
  out["outages"] = std::move(outages);
  return out;
}

}  // namespace dissem::scenario
