"""Real git repositories for the integrity and .rune tests: commits by named authors."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

ALICE = ("Alice Maintainer", "alice@team.example")
BOB = ("Bob Member", "bob@team.example")
MALLORY = ("Mallory Outsider", "mallory@evil.example")


class Repo:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "user.name", ALICE[0])
        self.git("config", "user.email", ALICE[1])
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str) -> str:
        env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0")
        return subprocess.run(["git", "-C", str(self.path), *args], check=True, capture_output=True,
                              text=True, env=env).stdout

    def write(self, files: dict[str, str | bytes | None]) -> None:
        for rel, content in files.items():
            full = self.path / rel
            if content is None:
                full.unlink()
                continue
            full.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                full.write_bytes(content)
            else:
                full.write_text(content, encoding="utf-8")

    def commit(self, files: dict[str, str | bytes | None], message: str, author: tuple[str, str] = ALICE) -> str:
        self.write(files)
        self.git("add", "-A")
        self.git("-c", f"user.name={author[0]}", "-c", f"user.email={author[1]}", "commit", "-q", "-m", message)
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()

    def branch(self, name: str) -> None:
        self.git("checkout", "-q", "-b", name)
