"""Bundled-script speed: a generated 5,000-line Python file and 5,000-line shell script each
scanned with the whole rule catalog, and the walk of a skill holding 10,000 files.

Run: .venv/bin/python benchmarks/bench_scripts.py   (prints figures; the bar is well under 1 s each)
"""
from __future__ import annotations

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from scanner.agent_map import Catalog  # noqa: E402
from scanner.document import Document  # noqa: E402
from scanner.engines.native import scan_document  # noqa: E402
from scanner.rules import catalog  # noqa: E402
from scanner.targets import Limits, discover  # noqa: E402

LINES = 5_000


def python_source(lines: int) -> str:
    out = ["import os, sys, json, subprocess, base64, requests", "from pathlib import Path", ""]
    i = 0
    while len(out) < lines:
        out += [
            f"def step_{i}(path, items, token=os.environ.get('APP_TOKEN')):",
            f"    data = json.loads(Path(path).read_text()) if os.path.exists(path) else {{}}",
            f"    for k, v in sorted(data.items()):",
            f"        items.append(f'{{k}}={{v}}-{i}')",
            f"    r = requests.get('https://api.example.com/v1/{i}', headers={{'Authorization': token}})",
            f"    out = subprocess.run(['git', 'log', '-n', '{i % 7}'], capture_output=True, text=True)",
            f"    blob = base64.b64encode(out.stdout.encode()).decode()",
            f"    return {{'n': len(items), 'status': r.status_code, 'blob': blob}}",
            "",
        ]
        i += 1
    out.append("print(step_0(sys.argv[1], []))")
    return "\n".join(out[:lines]) + "\n"


def shell_source(lines: int) -> str:
    out = ["#!/usr/bin/env bash", "set -euo pipefail", ""]
    i = 0
    while len(out) < lines:
        out += [
            f"step_{i}() {{",
            f"  local dir=\"${{1:-build/{i}}}\"",
            f"  mkdir -p \"$dir\" && cp -r src/* \"$dir\"/ 2>/dev/null || true",
            f"  curl -fsSL https://api.example.com/v1/{i} -o \"$dir/data.json\"",
            f"  jq -r '.items[] | .name' \"$dir/data.json\" | sort | uniq > \"$dir/names.txt\"",
            f"  if [ -s \"$dir/names.txt\" ]; then echo \"step {i}: $(wc -l < \"$dir/names.txt\") names\"; fi",
            "}",
            "",
        ]
        i += 1
    return "\n".join(out[:lines]) + "\n"


def time_scan(path: str, text: str, repeat: int = 3) -> tuple[float, float, int]:
    """Best wall time and best CPU time of a full scan (CPU time is what a shared, loaded machine
    cannot inflate; both are printed)."""
    rules = catalog()
    best, best_cpu, found = float("inf"), float("inf"), 0
    for _ in range(repeat):
        doc = Document(path, text)  # fresh: no cached analysis between runs
        started, cpu = time.perf_counter(), time.process_time()
        found = len(scan_document(doc, rules, "skill"))
        best = min(best, time.perf_counter() - started)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best, best_cpu, found


def time_walk(files: int = 10_000) -> tuple[float, int, list[str]]:
    with tempfile.TemporaryDirectory() as root:
        skill = os.path.join(root, ".claude", "skills", "huge")
        os.makedirs(skill)
        with open(os.path.join(skill, "SKILL.md"), "w") as fh:
            fh.write("---\nname: huge\n---\n")
        for i in range(files):
            with open(os.path.join(skill, f"f{i:05}.py"), "w") as fh:
                fh.write("print(1)\n")
        started = time.perf_counter()
        ts = discover(root, Catalog(), Limits())
        elapsed = time.perf_counter() - started
        notes = [f"{n.path}: {n.reason}: {n.detail}" for n in ts.not_scanned]
        return elapsed, len(ts.targets), notes


def main() -> int:
    catalog()  # rule table loaded and fixture-checked once, outside the timings
    py, sh = python_source(LINES), shell_source(LINES)
    t_py, c_py, n_py = time_scan("generated.py", py)
    t_sh, c_sh, n_sh = time_scan("generated.sh", sh)
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"python  {LINES} lines, {len(py):>7} bytes: wall {t_py * 1000:7.1f} ms, cpu {c_py * 1000:7.1f} ms  ({n_py} findings, all rules)")
    print(f"shell   {LINES} lines, {len(sh):>7} bytes: wall {t_sh * 1000:7.1f} ms, cpu {c_sh * 1000:7.1f} ms  ({n_sh} findings, all rules)")
    t_walk, kept, notes = time_walk()
    print(f"walk of a skill holding 10000 files: {t_walk * 1000:7.1f} ms, {kept} files kept")
    for n in notes:
        print(f"  not scanned: {n}")
    ok = c_py < 1.0 and c_sh < 1.0 and any("skill-file-cap" in n for n in notes) and kept <= Limits().skill_max_files
    print("bar (each script under 1 s of CPU; walk stops at the cap and says so):", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
