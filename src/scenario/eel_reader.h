// EMANE Event Log (EEL) text, the one reader of it: dissem-emu's --eel
// files and a scenario's literal EEL topology (kind = "eel") both come here.
//
//   <time_s> nem:<X> commeffect nem:<Y>,<latency_s>,<jitter_s>,<loss_pct>,<dup_pct>,<unicast_bps>,<broadcast_bps> [...]
//
// Blank lines and '#' comments are skipped; the event type is matched
// without regard to case. Numbers are read strictly (config/setting_text.h:
// no "inf" or "nan", no sign on a rate). Which of X and Y sends is the
// reader's convention: "sender-first" (X sends: how dissem-emu and EMANE's
// eelloadercommeffect read a file) or "receiver-first" (X receives).
// Other event types (location, pathloss, ...) are counted when the caller
// allows them (dissem-emu: they are EMANE's PHY's business) and refused
// otherwise. Errors name the line and the field.
#pragma once

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/link_event.h"

namespace dissem::scenario {

// One commeffect entry as written: the line's nem and the entry's.
struct EelEntry {
  double time_s = 0;
  int lead = 0;   // the line's nem:<X>
  int other = 0;  // the entry's nem:<Y>
  LinkParams params;
  std::size_t line = 0;
};

struct EelText {
  std::vector<EelEntry> entries;               // in file order
  std::map<std::string, std::size_t> ignored;  // other event types -> how many (when allowed)
};

struct EelReading {
  int max_nem = 65535;               // nem ids are 1..max_nem
  bool count_other_events = false;   // false: a line of another event type is an error
  bool lead_sends = true;            // the convention, for messages: whether the line's nem sends
};

// A line the reader refuses: what() is "line N: <what>".
class EelSyntaxError : public std::invalid_argument {
 public:
  EelSyntaxError(std::size_t line, const std::string& detail);
  std::size_t line() const { return line_; }
  const std::string& detail() const { return detail_; }

 private:
  std::size_t line_;
  std::string detail_;
};

EelText read_eel_text(std::string_view text, const EelReading& how = {});
// One line of it (without its newline), numbered `line`, added to `out`:
// for a reader that streams a file line by line.
void read_eel_line(std::string_view text, std::size_t line, const EelReading& how, EelText& out);

// A scenario's literal EEL as directed link events, X -> Y under
// "sender-first", Y -> X under "receiver-first".
std::vector<LinkEvent> read_eel(std::string_view text, std::string_view convention);

}  // namespace dissem::scenario
