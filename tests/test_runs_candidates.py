"""runs.commands() reads only the lines that can name a file a command runs (one RE2 pass picks
them); held here to the reading of every line, runs._commands(), on every command form."""
from __future__ import annotations

from pathlib import Path

import pytest

from scanner import runs

ROOT = Path(__file__).resolve().parent.parent
FORMS = [
    "Run `bash scripts/setup.sh` first.", "python3 tools/sync.py --all", "python -m tools.release", "node bin/x.mjs",
    "deno run -A ./cli.ts", "go run ./cmd/y", "pwsh -ExecutionPolicy Bypass -File ops/z.ps1", "php tools/a.php",
    "perl b.pl", "ruby script/x.rb", "./bin/check", ".\\tools\\x.ps1", "npm run build", "pnpm lint", "yarn",
    "yarn install", "bun run dev", "npx tsx scripts/gen.ts", "source ./env.sh", ". scripts/activate", "sudo bash x/y",
    "$ROOT/scripts/a.sh", "${REPO_ROOT:-.}/bin/b", "%USERPROFILE%\\x.bat", "time python3 bench/run.py",
    "env FOO=1 node scripts/c.js", "uv run tools/d.py", "!`sh scripts/e.sh`", "`ops/f.ps1 -Now`", "composer install",
    "go generate ./internal/...", "go generate", "nothing to run here", "",
]


@pytest.mark.parametrize("text", FORMS)
def test_each_command_form(text):
    assert list(runs.commands(text)) == list(runs._commands(text))


def test_whole_documents():
    texts = ["\n".join(FORMS)] + [p.read_text(encoding="utf-8", errors="replace") for p in
                                  sorted((ROOT / "docs").rglob("*.md")) + sorted((ROOT / "demo").rglob("*.md"))]
    for t in texts:
        assert list(runs.commands(t)) == list(runs._commands(t))
