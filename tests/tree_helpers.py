"""What the whole-tree shape tests share: write a small repository, scan it as `scan` would (default
configuration, agent files discovered), and read the worst severity a file drew."""
from __future__ import annotations

import os

from scanner.config import Config
from scanner.models import Severity
from scanner.pipeline import scan_tree


def write_file(root, rel: str, text: str) -> None:
    full = os.path.join(root, rel)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as fh:
        fh.write(text)


def write_tree(root, files: dict[str, str]) -> None:
    for rel, text in files.items():
        write_file(root, rel, text)


def worst(root, path: str) -> Severity | None:
    """The highest severity on `path` after scanning the tree at `root` whole, or None."""
    sevs = [f.severity for f in scan_tree(str(root), [], Config()).findings if f.path == path]
    return max(sevs) if sevs else None
