// `dissem get`, `dissem list` and `dissem unsubscribe`: what the local daemon's cache holds.
#include <cstdio>

#include <fmt/format.h>

#include "tools/dissem_commands.h"
#include "tools/dissem_common.h"

namespace dissem::cli {

void run_get(const std::string& socket, const GetOptions& o) {
  auto c = connect_or_explain(socket);
  const MessageId id{o.group, o.publisher, o.seq};
  const auto d = c.get(id);
  if (!d) throw Failure(kExitRefused, "message " + format_id(id) + " is not held whole in dissemd's cache");
  std::FILE* out = stdout;
  if (!o.out_file.empty()) {
    out = std::fopen(o.out_file.c_str(), "wb");
    if (out == nullptr) throw Failure(kExitLocalIo, "cannot write " + o.out_file);
  }
  const bool ok = std::fwrite(d->payload.data(), 1, d->payload.size(), out) == d->payload.size();
  const bool closed = out == stdout ? std::fflush(out) == 0 : std::fclose(out) == 0;
  if (!ok || !closed) throw Failure(kExitLocalIo, "cannot write " + (o.out_file.empty() ? "stdout" : o.out_file));
}

void run_unsubscribe(const std::string& socket, const std::string& name) {
  auto c = connect_or_explain(socket);
  if (!c.delete_subscription(name)) throw Failure(kExitRefused, "no durable subscription named '" + name + "'");
}

void run_list(const std::string& socket, const ListOptions& o) {
  auto c = connect_or_explain(socket);
  bool truncated = false;
  const auto list = c.list(engine::ListRequest{o.group, o.publisher, o.from_seq, o.to_seq, o.limit}, &truncated);
  std::string text;
  if (o.json) {
    Json messages = Json::array();
    for (const auto& m : list) {
      messages.push_back({{"group", m.meta.id.group},
                          {"publisher", m.meta.id.publisher},
                          {"seq", m.meta.id.seq},
                          {"priority", m.meta.priority},
                          {"expiry_ms", m.meta.expiry_ms},
                          {"tag", m.meta.tag},
                          {"length", m.meta.total_length},
                          {"stored_bytes", m.stored_bytes},
                          {"complete", m.complete},
                          {"replace", m.meta.replace},
                          {"cancel", m.meta.cancel},
                          {"key_epoch", m.meta.key_epoch}});
    }
    text = json_text({{"messages", std::move(messages)}, {"truncated", truncated}}) + "\n";
  } else {
    text = fmt::format("{:<10} {:>8} {:>8} {:>10} {:>10} {:>15}  {}\n", "publisher", "seq", "priority", "length",
                       "held", "expiry_ms", "tag");
    for (const auto& m : list) {
      std::string flags = m.meta.cancel ? " (cancel)" : m.meta.replace ? " (replace)" : "";
      if (m.meta.key_epoch != 0) flags += fmt::format(" (key epoch {})", m.meta.key_epoch);
      text += fmt::format("{:08x}   {:>8} {:>8} {:>10} {:>10} {:>15}  {}{}\n", m.meta.id.publisher, m.meta.id.seq,
                          m.meta.priority, m.meta.total_length, m.complete ? "whole" : fmt::format("{}", m.stored_bytes),
                          m.meta.expiry_ms == 0 ? std::string("never") : fmt::format("{}", m.meta.expiry_ms),
                          m.meta.tag, flags);
    }
    if (truncated) text += fmt::format("... more than {} matched (--limit)\n", o.limit);
  }
  std::fputs(text.c_str(), stdout);
}

}  // namespace dissem::cli
