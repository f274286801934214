"""Benchmark: what merging Cisco's skill-scanner into our result costs on a pull request.

Bar (issue 6): the merged result of a pull request changing 3 skills costs no more than the
Cisco run itself plus 0.5 s. Builds a git repository whose pull request changes the 3 fixture
skills (tests/fixtures/cisco/skills, copied under .claude/skills/), then alternates:

  A. the Cisco run itself: `skill-scanner scan-all` on those 3 skills, offline, behavioral,
     SARIF + JSON, exactly the command, environment and network isolation the engine uses,
     started directly;
  B. the merged result: pull-request scope from git -> native + Cisco engines -> policy ->
     SARIF document with both runs, serialised.

Prints each round and the medians; B - A is what the integration costs. The machine's load
moves both by seconds, so rounds interleave A and B and the median difference is the figure.

    .venv/bin/python benchmarks/bench_cisco.py [--rounds 3]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scanner.config import Config  # noqa: E402
from scanner.engines import cisco, run_engines  # noqa: E402
from scanner.github.event import Event  # noqa: E402
from scanner.git_targets import build_scope  # noqa: E402
from scanner.policy import apply  # noqa: E402
from scanner.report import sarif  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "cisco" / "skills"
BAR_SECONDS = 0.5


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=Bench", "-c", "user.email=bench@example.org",
                           "-c", "commit.gpgsign=false", *args], check=True, capture_output=True, text=True).stdout.strip()


def make_pull_request(base: Path) -> tuple[Path, Event]:
    """A repository whose head commit edits every one of the 3 skills (and nothing else)."""
    repo = base / "repo"
    skills = repo / ".claude" / "skills"
    skills.mkdir(parents=True)
    for skill in sorted(FIXTURES.iterdir()):
        shutil.copytree(skill, skills / skill.name)
    (repo / "CLAUDE.md").write_text("# Project\n\nRun the tests before committing.\n")
    (repo / "src").mkdir()
    for i in range(50):
        (repo / "src" / f"module_{i}.py").write_text(f"VALUE = {i}\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    base_sha = git(repo, "rev-parse", "HEAD")
    for skill in sorted(skills.iterdir()):
        with open(skill / "SKILL.md", "a") as fh:
            fh.write("\nKeep answers short.\n")
    git(repo, "commit", "-q", "-am", "edit three skills")
    head_sha = git(repo, "rev-parse", "HEAD")
    event = Event(name="pull_request", repository="octo/bench", head_sha=head_sha, base_sha=base_sha,
                  ref="refs/pull/1/merge", commit_sha=head_sha, pr_number=1, author_login="dev",
                  author_association="MEMBER")
    return repo, event


def cisco_alone(exe: str, repo: Path, work: Path) -> float:
    """The Cisco run itself on the 3 skills: one scan-all over a folder holding just them."""
    folder = work / "direct"
    shutil.rmtree(folder, ignore_errors=True)
    work.mkdir(exist_ok=True)
    shutil.copytree(repo / ".claude" / "skills", folder)
    home = work / "home"
    home.mkdir(exist_ok=True)
    # The same isolation and environment the engine gives it, so B - A is only our own work.
    argv = [*cisco._netns_prefix(), exe, "scan-all", str(folder), "--use-behavioral", "--format", "sarif",
            "--format", "json", "--output-sarif", str(work / "direct.sarif"), "--output-json", str(work / "direct.json")]
    started = time.perf_counter()
    subprocess.run(argv, cwd=folder, env=cisco._child_env(str(home)), check=True, capture_output=True,
                   start_new_session=True)
    return time.perf_counter() - started


def merged(repo: Path, event: Event, config: Config, need_cisco: bool = True) -> tuple[float, dict]:
    started = time.perf_counter()
    scope = build_scope(str(repo), event, config, "changed")
    result = apply(run_engines(scope.targets, config), config)
    doc = sarif.document(result)
    body = sarif.dumps(doc)
    seconds = time.perf_counter() - started
    runs = {e.name: e for e in result.engines}
    if not need_cisco:
        return seconds, {}
    run = runs.get(cisco.ENGINE)
    assert run is not None and run.status.value == "ok", run
    assert len(doc["runs"]) == 2 and len(body) > 0
    skills = doc["runs"][1]["properties"]["instructionGuard"]["skills"]
    assert len(skills) == 3, skills
    return seconds, {"cisco-engine-seconds": run.seconds, "findings": len(result.findings)}


REPLAY = """#!{python}
# Stand-in that answers instantly with the reports the real tool wrote in round A, renamed
# from skill folders to the engine's staging slots (000, 001, ... in sorted order).
import json, os, sys
from skill_scanner.cli.cli import main  # noqa: as a real console script would
args = sys.argv[1:]
folder = args[1]
out = lambda name: args[args.index(name) + 1]
names = {names!r}
slots = sorted(os.listdir(folder))
text = open({sarif!r}).read()
for name, slot in zip(names, slots):
    text = text.replace('"uri": "' + name + '/', '"uri": "' + slot + '/')
open(out("--output-sarif"), "w").write(text)
report = json.load(open({report!r}))
for entry in report["results"]:
    entry["skill_path"] = os.path.join(folder, slots[names.index(os.path.basename(entry["skill_path"]))])
json.dump(report, open(out("--output-json"), "w"))
"""


def replay_install(work: Path) -> str:
    """A fake installation of the tool whose `scan-all` replays round A's reports."""
    site = work / "replay" / "lib" / "python3.11" / "site-packages"
    info = site / f"cisco_ai_skill_scanner-{cisco.PINNED_VERSION}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Name: cisco-ai-skill-scanner\nVersion: {cisco.PINNED_VERSION}\n")
    (info / "entry_points.txt").write_text("[console_scripts]\nskill-scanner = skill_scanner.cli.cli:main\n")
    (site / "skill_scanner" / "cli").mkdir(parents=True)
    (site / "skill_scanner" / "__init__.py").write_text("")
    (site / "skill_scanner" / "cli" / "__init__.py").write_text("")
    (site / "skill_scanner" / "cli" / "cli.py").write_text("def main():\n    return 0\n")
    exe = work / "replay" / "bin" / "skill-scanner"
    exe.parent.mkdir(parents=True)
    names = sorted(p.name for p in FIXTURES.iterdir())
    body = REPLAY.format(python=sys.executable, names=names, sarif=str(work / "direct.sarif"), report=str(work / "direct.json"))
    exe.write_text(body.replace("from skill_scanner", f"sys.path.insert(0, {str(site)!r})\nfrom skill_scanner", 1))
    exe.chmod(0o755)
    return str(exe)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    config = Config(engines=("native", "cisco"), cisco_mode="on", cisco_timeout=900)
    with tempfile.TemporaryDirectory(prefix="bench-cisco-") as tmp:
        exe = cisco.locate(config, tmp).path
        repo, event = make_pull_request(Path(tmp))
        print(f"skill-scanner: {exe} ({cisco.locate(config, tmp).version}); pull request changing 3 skills; {os.cpu_count()} CPUs")
        alone, together, diffs = [], [], []
        for n in range(1, args.rounds + 1):
            a = cisco_alone(exe, repo, Path(tmp))
            b, info = merged(repo, event, config)
            alone.append(a)
            together.append(b)
            diffs.append(b - a)
            print(f"round {n}: Cisco alone {a:6.2f} s | merged result {b:6.2f} s | difference {b - a:+.2f} s"
                  f" (Cisco engine inside: {info['cisco-engine-seconds']:.2f} s, {info['findings']} findings)")
        # The machine's load moves A and B by tens of seconds, so also measure our own work with
        # the tool's time taken out: a stand-in replays round A's reports instantly. The pipeline
        # with only the Cisco engine, minus the stand-in run directly, is what the merge costs on
        # top of the tool; the native engine runs in parallel with the tool (its time is printed).
        exe_replay = replay_install(Path(tmp))
        replay = replace(config, engines=("cisco",), cisco_executable=exe_replay)
        direct = statistics.median(cisco_alone(exe_replay, repo, Path(tmp) / "replay-run") for _ in range(5))
        piped = statistics.median(merged(repo, event, replay)[0] for _ in range(5))
        native_only = replace(config, engines=("native",), cisco_mode="off")
        native = statistics.median(merged(repo, event, native_only, need_cisco=False)[0] for _ in range(5))
        print(f"replayed tool: alone {direct:.3f} s, merged result {piped:.3f} s -> integration cost {piped - direct:+.3f} s "
              f"(medians of 5); native engine alone {native:.3f} s, overlapped with the tool's run")
        med = statistics.median(diffs)
        print(f"median: Cisco alone {statistics.median(alone):.2f} s, merged result {statistics.median(together):.2f} s, "
              f"difference {med:+.2f} s (bar: at most +{BAR_SECONDS} s) -> {'PASS' if med <= BAR_SECONDS else 'FAIL'}")
        return 0 if med <= BAR_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
