"""A progress line: what is being done (each phase running, with done / total)
and an estimate of the time left, redrawn in place on a terminal.

``compare`` scores the implementations in worker processes while this process
attributes the gaps, so two phases may run at once; the line shows each, and
the time left is that of the slower.  A phase's estimate is its remaining work
at the rate it has gone so far (none before its first step).  Several threads
may advance it: a lock keeps the line whole."""

from __future__ import annotations

import contextlib
import threading
import time
from typing import TextIO


def duration(seconds: float) -> str:
    """``12 s``, ``3 min 05 s``, ``1 h 02 min``: a time left, short."""
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole} s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class Phase:
    def __init__(self, total: int, done: int, unit: str) -> None:
        self.total, self.done, self.unit = total, done, unit
        self.resumed = done
        self.start = time.monotonic()

    def left(self, now: float) -> float | None:
        """Seconds left at the rate so far, or None before the first step."""
        stepped = self.done - self.resumed
        if self.done >= self.total:
            return 0.0
        if stepped <= 0:
            return None
        return (now - self.start) / stepped * (self.total - self.done)

    def describe(self, name: str) -> str:
        """``scoring 3/12 implementations``.  (The plural as ``wording.plural``
        makes it: the modules at the bottom import none of metricdiff's.)"""
        unit = f" {self.unit}{'' if self.total == 1 else 's'}" if self.unit else ""
        return f"{name} {self.done}/{self.total}{unit}"


class Progress:
    """``label: phase done/total [· phase done/total] · about T left`` on
    ``stream``: redrawn in place on a terminal at most every ``interval``
    seconds; elsewhere a line at most every ``8 * interval`` seconds."""

    def __init__(self, label: str, stream: TextIO, interval: float = 0.25) -> None:
        self.label = label
        self.stream = stream
        try:
            self.tty = stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False
        self.interval = interval if self.tty else interval * 8
        self.phases: dict[str, Phase] = {}
        self.shown = time.monotonic()
        #: Whether a line has been drawn (and, on a terminal, is still open).
        self.drawn = False
        self._lock = threading.Lock()

    def start(self, phase: str, total: int, done: int = 0, unit: str = "") -> None:
        """A phase of ``total`` steps (``unit``: what one is, for the line),
        ``done`` of them done already (by an earlier run: not timed)."""
        with self._lock:
            self.phases[phase] = Phase(total, done, unit)
            self._maybe_show(force=True)

    def advance(self, phase: str, count: int = 1) -> None:
        with self._lock:
            self.phases[phase].done += count
            self._maybe_show()

    def stop(self, phase: str) -> None:
        """``phase`` is over: it leaves the line."""
        with self._lock:
            self.phases.pop(phase, None)

    def finish(self) -> None:
        """The last line, ended."""
        with self._lock:
            self._show(time.monotonic(), final=True)

    def interrupted(self) -> None:
        """End the line drawn in place, so that what is printed next starts a
        line of its own."""
        if self.tty and self.drawn:
            with contextlib.suppress(OSError, ValueError):
                self.stream.write("\n")
                self.stream.flush()

    def text(self, now: float) -> str:
        """The line as it reads at ``now``."""
        parts = [phase.describe(name) for name, phase in self.phases.items()]
        lefts = [phase.left(now) for phase in self.phases.values()]
        known = [left for left in lefts if left is not None]
        if known and len(known) == len(lefts) and max(known) > 0:
            parts.append(f"about {duration(max(known))} left")
        return f"{self.label}: {' · '.join(parts)}"

    def _maybe_show(self, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.shown >= self.interval:
            self.shown = now
            self._show(now, final=False)

    def _show(self, now: float, final: bool) -> None:
        text = self.text(now)
        self.drawn = not final
        with contextlib.suppress(OSError, ValueError):
            if self.tty:
                self.stream.write("\r\x1b[K" + text + ("\n" if final else ""))
            else:
                self.stream.write(text + "\n")
            self.stream.flush()


__all__ = ["Phase", "Progress", "duration"]
