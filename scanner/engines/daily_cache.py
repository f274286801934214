"""A small JSON file of answers from a paid or rate-limited service (the judge's verdicts,
VirusTotal's lookups), keyed by content hash, with a count of today's calls for the daily cap."""
from __future__ import annotations

import datetime as dt
import json
import os


class DailyCache:
    def __init__(self, path: str) -> None:
        self.path = path
        self.data: dict = {"day": "", "calls": 0, "entries": {}}
        if path:
            try:
                with open(path, encoding="utf-8") as fh:
                    loaded = json.load(fh)
                if isinstance(loaded, dict) and isinstance(loaded.get("entries"), dict):
                    self.data = loaded
            except (OSError, ValueError):
                pass  # an unreadable cache is an empty one: answers are asked for again
        today = dt.date.today().isoformat()
        if self.data.get("day") != today:
            self.data["day"], self.data["calls"] = today, 0

    @property
    def entries(self) -> dict:
        return self.data["entries"]

    @property
    def calls(self) -> int:
        return int(self.data.get("calls") or 0)

    def count_call(self) -> None:
        self.data["calls"] = self.calls + 1

    def save(self) -> None:
        """Write atomically (a reader never sees half a file); no path, no file."""
        if not self.path:
            return
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(self.data, fh)
        os.replace(tmp, self.path)
