"""The campaign's progress line on stderr.

On a terminal: one line rewritten in place ("[3/8] running: ... | 1m12s
elapsed, ETA 2m30s"), with a permanent line only for runs that did not end
ok. Elsewhere (CI logs, files): one line per finished run, no control
characters.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time


def duration(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    if h:
        return f"{h}h{m:02d}m"
    if m:
        return f"{m}m{s:02d}s"
    return f"{s}s"


class Progress:
    def __init__(self, total: int, stream=None):
        self.total = total
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.done = 0
        self.running: list[str] = []
        self.started = time.monotonic()
        self.lock = threading.Lock()
        self._line_shown = False

    def _eta(self) -> str:
        if not self.done:
            return "ETA ?"
        elapsed = time.monotonic() - self.started
        # Elapsed per finished run already includes the parallelism.
        return f"ETA {duration(elapsed / self.done * (self.total - self.done))}"

    def _status_line(self) -> str:
        running = ", ".join(self.running) if self.running else "-"
        line = (f"[{self.done}/{self.total}] running: {running} | "
                f"{duration(time.monotonic() - self.started)} elapsed, {self._eta()}")
        return line

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def _redraw(self) -> None:
        if self.tty:
            # A line longer than the terminal wraps, and "\r" would then
            # rewrite only its last row: cut it to the width.
            width = shutil.get_terminal_size((100, 24)).columns
            line = self._status_line()
            if len(line) >= width:
                line = line[:max(10, width - 2)] + "…"
            self._write("\r\x1b[K" + line)
            self._line_shown = True

    def started_run(self, label: str) -> None:
        with self.lock:
            self.running.append(label)
            self._redraw()

    def finished_run(self, label: str, status: str, wall_s: float, reason: str | None) -> None:
        with self.lock:
            if label in self.running:
                self.running.remove(label)
            self.done += 1
            text = f"[{self.done}/{self.total}] {label}: {status} in {duration(wall_s)}"
            if reason:
                text += f" ({reason})"
            if self.tty:
                if status != "ok":
                    self._write("\r\x1b[K" + text + "\n")
                self._redraw()
            else:
                self._write(text + f" | {self._eta()}\n")

    def tick(self) -> None:
        with self.lock:
            self._redraw()

    def message(self, text: str) -> None:
        with self.lock:
            self._write(("\r\x1b[K" if self.tty and self._line_shown else "") + text + "\n")
            self._redraw()

    def close(self) -> None:
        with self.lock:
            if self.tty and self._line_shown:
                self._write("\r\x1b[K")
                self._line_shown = False
