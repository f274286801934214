"""Helpers for the Action's end-to-end tests: real git repositories, GitHub-shaped event payloads
(from @octokit/webhooks-examples, validated against @octokit/openapi-webhooks), and entrypoint.py
run as a subprocess with the environment a runner gives a container action."""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest

from scanner.action.outputs import parse_outputs

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules" / "@octokit"
EXAMPLES = NODE / "webhooks-examples" / "api.github.com" / "index.json"
WEBHOOK_SCHEMA = NODE / "openapi-webhooks" / "generated" / "api.github.com.json"
REPOSITORY = "Codertocat/Hello-World"

MAINTAINER = ("Mona Maintainer", "mona@example.org")
MEMBER = ("Max Member", "max@example.org")
OUTSIDER = ("Otto Outsider", "otto@elsewhere.example")


def require_npm_data() -> None:
    if not EXAMPLES.is_file() or not WEBHOOK_SCHEMA.is_file():
        pytest.fail("npm test data missing: run `npm ci` (bash scripts/test.sh does) for @octokit/webhooks-examples "
                    "and @octokit/openapi-webhooks")


class GitRepo:
    """A real repository in a temporary folder; commits carry the given author identity."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, author: tuple[str, str] = MAINTAINER) -> str:
        name, email = author
        env = {**os.environ, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email,
               "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email, "GIT_CONFIG_NOSYSTEM": "1",
               "HOME": str(self.path.parent)}
        proc = subprocess.run(["git", "-C", str(self.path), *args], capture_output=True, text=True, env=env, check=False)
        if proc.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
        return proc.stdout.strip()

    def commit(self, files: dict[str, str | None], message: str, author: tuple[str, str] = MAINTAINER) -> str:
        for rel, content in files.items():
            full = self.path / rel
            if content is None:
                self.git("rm", "-q", "--", ":(literal)" + rel)
                continue
            full.parent.mkdir(parents=True, exist_ok=True)
            full.write_text(content, encoding="utf-8")
            self.git("add", "--", ":(literal)" + rel)
        self.git("commit", "-q", "--allow-empty", "-m", message, author=author)
        return self.head()

    def commit_bytes(self, files: dict[bytes, bytes], message: str, author: tuple[str, str] = MAINTAINER) -> str:
        """Like commit(), for names that need not be UTF-8 and raw content."""
        for rel, content in files.items():
            full = os.path.join(bytes(self.path), rel)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as fh:
                fh.write(content)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, author=author)
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD")

    def branch(self, name: str, start: str = "main") -> None:
        self.git("checkout", "-q", "-b", name, start)


@lru_cache(maxsize=1)
def _examples() -> dict[str, list[dict]]:
    return {e["name"]: e["examples"] for e in json.loads(EXAMPLES.read_text("utf-8"))}


@lru_cache(maxsize=1)
def _schema_doc() -> dict:
    return json.loads(WEBHOOK_SCHEMA.read_text("utf-8"))


def _validator(schema_name: str):
    import jsonschema

    doc = _schema_doc()
    return jsonschema.Draft202012Validator({"$ref": f"#/components/schemas/{schema_name}", "components": doc["components"]})


def _resolve(schema: dict) -> dict:
    doc = _schema_doc()
    while "$ref" in schema:
        node: dict = doc
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def add_newer_fields(payload: dict, schema_name: str) -> None:
    """Samples recorded years ago lack fields GitHub has since added (e.g. has_discussions); give
    each missing required field the default the schema documents, and fail on anything else."""
    for _ in range(50):
        missing = [e for e in _validator(schema_name).iter_errors(payload) if e.validator == "required"]
        if not missing:
            return
        for err in missing:
            props = _resolve(err.schema).get("properties", {})
            for key in err.validator_value:
                if key in err.instance:
                    continue
                prop = _resolve(props.get(key, {}))
                if "default" in prop:
                    err.instance[key] = prop["default"]
                elif "null" in (prop.get("type") or []) or prop.get("nullable"):
                    err.instance[key] = None
                elif prop.get("type") == "array":
                    err.instance[key] = []
                elif prop.get("enum"):
                    err.instance[key] = prop["enum"][0]
                else:
                    raise AssertionError(f"sample lacks required {key!r} and the schema gives no default")


def validate_webhook(payload: dict, schema_name: str) -> None:
    """Check a payload against GitHub's published webhook schema (OpenAPI 3.1 = JSON Schema 2020-12)."""
    errors = sorted(_validator(schema_name).iter_errors(payload), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        raise AssertionError(f"payload breaks {schema_name} at {'/'.join(map(str, e.path))}: {e.message[:200]}")


def example(event: str, action: str | None = None) -> dict:
    for e in _examples()[event]:
        if action is None or e.get("action") == action:
            return copy.deepcopy(e)
    raise KeyError(f"no {event}/{action} example")


def pull_request_event(base: str, head: str, *, number: int = 7, login: str = "otto",
                       user_id: int = 4242, association: str = "NONE", fork: bool = False) -> dict:
    """A `pull_request` synchronize payload shaped by GitHub's own sample, validated by its schema."""
    e = example("pull_request", "synchronize")
    pr = e["pull_request"]
    e["number"] = pr["number"] = number
    pr["user"] = {**pr["user"], "login": login, "id": user_id}
    pr["author_association"] = association
    pr["base"]["sha"], pr["head"]["sha"] = base, head
    pr["base"]["repo"]["full_name"] = REPOSITORY
    head_repo = pr["head"]["repo"]
    if fork:
        head_repo["full_name"] = f"{login}/Hello-World"
        head_repo["name"] = "Hello-World"
        head_repo["fork"] = True
        head_repo["owner"] = {**head_repo["owner"], "login": login, "id": user_id}
        pr["head"]["label"] = f"{login}:patch-1"
    else:
        head_repo["full_name"] = REPOSITORY
        head_repo["fork"] = False
    add_newer_fields(e, "webhook-pull-request-synchronize")
    validate_webhook(e, "webhook-pull-request-synchronize")
    return e


def push_event(before: str, after: str, ref: str = "refs/heads/main") -> dict:
    e = example("push")
    e.update({"before": before, "after": after, "ref": ref, "created": False})
    add_newer_fields(e, "webhook-push")
    validate_webhook(e, "webhook-push")
    return e


@dataclass
class ActionRun:
    returncode: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str
    sarif: dict | None

    def results(self) -> list[dict]:
        return [r for run in (self.sarif or {}).get("runs", []) for r in run.get("results", [])]

    def rule_ids(self) -> list[str]:
        return sorted(r["ruleId"] for r in self.results())

    def results_for(self, rule_id: str) -> list[dict]:
        return [r for r in self.results() if r["ruleId"] == rule_id]

    def annotations(self) -> list[str]:
        """Workflow commands the runner would act on (outside any stop-commands block)."""
        out, stop = [], None
        for line in self.stdout.splitlines():
            s = line.lstrip()
            if stop is not None:
                if s == f"::{stop}::":
                    stop = None
                continue
            if s.startswith("::stop-commands::"):
                stop = s[len("::stop-commands::"):]
            elif s.startswith("::"):
                out.append(s)
        return out


def action_env(tmp: Path, repo: Path, event_name: str, payload: dict | str | None, inputs: dict[str, str] | None = None,
               extra_env: dict[str, str] | None = None, github_sha: str | None = None) -> dict[str, str]:
    """The environment a runner gives a container action step: GITHUB_* variables and INPUT_<NAME-WITH-HYPHENS>."""
    runner = tmp / "runner"
    runner.mkdir(parents=True, exist_ok=True)
    event_path = runner / "event.json"
    if payload is not None:
        event_path.write_text(payload if isinstance(payload, str) else json.dumps(payload), encoding="utf-8")
    output, summary = runner / "output.txt", runner / "summary.md"
    for f in (output, summary):
        f.write_text("", encoding="utf-8")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(runner),
        "GITHUB_ACTIONS": "true",
        "CI": "true",
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_WORKSPACE": str(repo),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_SHA": github_sha or "",
        "GITHUB_REF": "refs/pull/7/merge" if event_name.startswith("pull_request") else "refs/heads/main",
        "GITHUB_API_URL": "http://127.0.0.1:9",  # nothing listens: any request would fail loudly
        "GITHUB_SERVER_URL": "https://github.com",
        "RUNNER_TEMP": str(runner),
        "INPUT_TOKEN": "",
        "INPUT_UPLOAD-SARIF": "false",
        "INPUT_COMMENT": "false",
        "INPUT_SCAN-SCOPE": "changed",
        "INPUT_FAIL-ON": "",
        "INPUT_SARIF-FILE": str(runner / "results.sarif"),
        "INPUT_CONFIG": "",
        "INPUT_ENGINES": "",
        "INPUT_TRUSTED-USERS": "",
        "INPUT_MODE": "scan",
        "INPUT_PR-NUMBER": "",
    }
    for k, v in (inputs or {}).items():
        env["INPUT_" + k.upper()] = v
    env.update(extra_env or {})
    return env


def collect(env: dict[str, str], returncode: int, stdout: str, stderr: str) -> ActionRun:
    sarif_path = Path(env["INPUT_SARIF-FILE"])
    sarif = json.loads(sarif_path.read_text("utf-8")) if sarif_path.is_file() else None
    return ActionRun(returncode, stdout, stderr, parse_outputs(Path(env["GITHUB_OUTPUT"]).read_text("utf-8")),
                     Path(env["GITHUB_STEP_SUMMARY"]).read_text("utf-8"), sarif)


def run_action(tmp: Path, repo: Path, event_name: str, payload: dict | str | None, inputs: dict[str, str] | None = None,
               extra_env: dict[str, str] | None = None, github_sha: str | None = None) -> ActionRun:
    """Run entrypoint.py like a container action step: GITHUB_* variables and INPUT_<NAME-WITH-HYPHENS>."""
    env = action_env(tmp, repo, event_name, payload, inputs, extra_env, github_sha)
    proc = subprocess.run([sys.executable, str(ROOT / "entrypoint.py")], capture_output=True, text=True,
                          env=env, cwd=str(repo), timeout=300, check=False)
    return collect(env, proc.returncode, proc.stdout, proc.stderr)
