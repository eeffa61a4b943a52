// `dissem top`: a live view of the local daemon, redrawn in place with
// ncurses (tools/top_view.h says what it shows). q or Ctrl-C ends it and
// gives the terminal back as it was.
#include <curses.h>
#include <unistd.h>

#include <csignal>
#include <fmt/format.h>
#include <thread>

#include "tools/dissem_commands.h"
#include "tools/dissem_common.h"
#include "tools/top_view.h"

namespace dissem::cli {
namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

// The terminal in curses mode for the life of this object; restored on any exit.
class Screen {
 public:
  Screen() {
    if (::isatty(STDIN_FILENO) != 1 || ::isatty(STDOUT_FILENO) != 1)
      throw Failure(kExitUsage, "dissem top needs a terminal (use dissem stats or dissem peers in scripts)");
    screen_ = newterm(nullptr, stdout, stdin);
    if (screen_ == nullptr) throw Failure(kExitUsage, "dissem top: cannot use this terminal (is TERM set?)");
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
  }
  ~Screen() {
    endwin();
    delscreen(screen_);
  }
  Screen(const Screen&) = delete;
  Screen& operator=(const Screen&) = delete;

  void draw(const std::vector<std::string>& lines) {
    erase();
    for (std::size_t i = 0; i < lines.size() && static_cast<int>(i) < LINES; ++i)
      mvaddnstr(static_cast<int>(i), 0, lines[i].c_str(), COLS);
    refresh();
  }

 private:
  SCREEN* screen_ = nullptr;
};

// Restores the previous handlers on scope exit.
class StopSignals {
 public:
  StopSignals() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &old_int_);
    ::sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

TopSample poll(client::Client& c) {
  TopSample s;
  s.at = std::chrono::steady_clock::now();
  s.stats = c.stats();
  s.peers = c.peers();
  engine::ListRequest r;
  r.incomplete_only = true;
  r.limit = 200;
  s.in_flight = c.list(r, &s.in_flight_truncated);
  return s;
}

}  // namespace

void run_top(const std::string& socket, const TopOptions& o) {
  auto c = connect_or_explain(socket);
  const StopSignals signals;
  Screen screen;
  const auto interval = std::chrono::milliseconds(static_cast<long long>(o.interval_s * 1000.0));
  const std::string title = fmt::format("dissem top: {}, every {:.1f} s (q: quit)", socket, o.interval_s);
  std::optional<TopSample> previous;
  while (g_stop == 0) {
    TopSample now = poll(c);
    screen.draw(render_top(title, previous ? &*previous : nullptr, now, COLS, LINES));
    previous = std::move(now);
    // Keys until the next sample is due: q ends, a resize redraws at once.
    const auto due = std::chrono::steady_clock::now() + interval;
    bool redraw = false;
    while (g_stop == 0 && !redraw) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(due - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      timeout(static_cast<int>(std::min<long long>(left.count(), 200)));
      const int ch = getch();
      if (ch == 'q' || ch == 'Q') return;
      redraw = ch == KEY_RESIZE;
    }
  }
}

}  // namespace dissem::cli
