"""The Action's whole flow, and the only place (with entrypoint.py) that touches its environment.

event -> configuration from the BASE commit -> targets from git -> engines -> provenance ->
policy -> SARIF file, log, annotations, job summary, outputs -> publishing. The SARIF file and
summary are written before anything is published, so a publishing failure loses nothing, and
the exit code depends only on the findings: 0 below fail-on, 1 at or above it, 2 for a
misconfiguration (one line, never a stack trace).
"""
from __future__ import annotations

import dataclasses
import os
import secrets
import sys
import time
from typing import Callable, Mapping, TextIO

from .. import gitutil
from ..config import DEFAULT_PATH as CONFIG_PATH, with_judge_key, with_virustotal_key
from ..config import ConfigError, Config
from ..engines import provenance_findings, run_engines
from ..engines.integrity_findings import ChangeContext
from ..errors import UsageError
from ..git_targets import Scope, build_scope
from ..github.change import config_from_commit
from ..github.event import Event, load_event, read_payload
from ..models import ScanResult
from ..policy import Verdict, apply, decide
from .. import inert
from ..report import annotations, sarif, summary, text
from ..rules import RuleFixtureError
from .guard import captured_warnings, scrub, warnings_note, write_command
from .inputs import Inputs, parse_inputs
from .outputs import write_outputs as _write_outputs


def write_outputs(values: Mapping[str, str], env: Mapping[str, str]) -> None:
    _write_outputs({k: scrub(str(v)) for k, v in values.items()}, env)


def append_summary(env: Mapping[str, str], text: str) -> None:
    summary.append(env.get("GITHUB_STEP_SUMMARY"), scrub(text))


@dataclasses.dataclass
class RunState:
    """What a scan has produced so far: a crash still writes the SARIF it has."""
    result: ScanResult | None = None
    doc: dict | None = None
    sarif_path: str | None = None
    sarif_written: bool = False


def workspace(env: Mapping[str, str]) -> str:
    root = env.get("GITHUB_WORKSPACE") or os.getcwd()
    if not os.path.isdir(root):
        raise UsageError(f"GITHUB_WORKSPACE {root} is not a folder; run actions/checkout before this action")
    if not gitutil.is_repository(root):
        raise UsageError(f"{root} is not a git checkout; run actions/checkout (with `fetch-depth: 0`) before this action")
    return gitutil.top_level(root)


@dataclasses.dataclass
class BaseFiles:
    """How the base commit's files are read: from git (the default), or through the contents API
    at that commit when a shallow checkout's base could not be fetched."""
    note: str | None = None
    api: Callable[[str], bytes | None] | None = None
    read: dict[str, bytes | None] = dataclasses.field(default_factory=dict)

    def reader(self) -> Callable[[str], bytes | None] | None:
        if self.api is None:
            return None

        def read(path: str) -> bytes | None:
            if path not in self.read:
                self.read[path] = self.api(path)
            return self.read[path]
        return read


def ensure_base(repo: str, event: Event, inputs: Inputs, env: Mapping[str, str]) -> BaseFiles:
    """A pull request's verdict is decided by its base branch tip (`pull_request.base.sha`): make sure
    that commit is in the clone (a shallow checkout lacks it: fetch it, depth 1), or else read its
    files through the contents API at that commit. Raises when neither works: defaults would let
    the pull request pass the base policy by."""
    sha = event.base_sha
    if not event.is_pull_request or not sha or gitutil.commit_exists(repo, sha):
        return BaseFiles()
    server = env.get("GITHUB_SERVER_URL") or "https://github.com"
    why = gitutil.fetch_commit(repo, sha, server, inputs.token)
    if why is None:
        return BaseFiles(f"the base commit {sha[:12]} was not in the clone (shallow checkout) and was fetched")
    if inputs.token:
        from ..github import rest

        gh = rest.client(env, inputs.token)

        def api(path: str) -> bytes | None:
            try:
                return rest.file_at(gh, event.repository, path, sha)
            except Exception as exc:  # any API failure: the base cannot be read
                raise UsageError(f"the base commit {sha[:12]} could not be fetched ({why}) and {path} could not be "
                                 f"read through the contents API ({type(exc).__name__}); its configuration and "
                                 f"trust store decide the verdict: set `fetch-depth: 0` on actions/checkout") from None
        return BaseFiles(f"the base commit {sha[:12]} could not be fetched ({why}); its configuration and trust store "
                         f"were read through the contents API", api)
    raise UsageError(f"the base commit {sha[:12]} is not in the clone and could not be fetched ({why}); its "
                     f"configuration, suppressions and trust store decide the verdict, so nothing was judged: "
                     f"set `fetch-depth: 0` on actions/checkout")


def ensure_head(repo: str, event: Event, inputs: Inputs, env: Mapping[str, str]) -> str | None:
    """pull_request_target checks out the base branch: the pull request's head commit is fetched
    (objects only, never checked out or run) so its files can be read from git."""
    if event.name != "pull_request_target" or gitutil.commit_exists(repo, event.head_sha):
        return None
    why = gitutil.fetch_commit(repo, event.head_sha, env.get("GITHUB_SERVER_URL") or "https://github.com", inputs.token)
    if why is None:
        return f"the pull request's head {event.head_sha[:12]} was fetched (objects only; nothing was checked out)"
    return None  # read_change says what to do


def effective_config(repo: str, event: Event, inputs: Inputs, base: BaseFiles | None = None) -> tuple[Config, str]:
    """Configuration from the base branch tip (a pull request cannot switch its own scan off)."""
    if event.is_pull_request:
        rev = event.base_sha  # ensure_base() made sure it is here; never the pull request's own copy
    elif event.base_sha and gitutil.commit_exists(repo, event.base_sha):
        rev = event.base_sha
    else:
        rev = event.head_sha if gitutil.commit_exists(repo, event.head_sha) else None
    read = base.reader() if base is not None else None
    path, floors = inputs.config, []
    if event.name == "pull_request" and rev and path and path.removeprefix("./") != CONFIG_PATH \
            and (read(CONFIG_PATH) if read else gitutil.read_blob(repo, rev, CONFIG_PATH)) is not None:
        # The workflow is the pull request's copy: it may not point the scan at another (say, a
        # sample's) configuration while the base has its own at the default path.
        floors.append(f"the `config` input ({path}) was ignored: the base's {CONFIG_PATH} decides on pull_request")
        path = None
    config, where = config_from_commit(repo, rev, path, path is not None, read)
    changes, more = input_changes(config, inputs, floor=event.name == "pull_request")
    floors += more
    if floors:
        where += "; " + "; ".join(floors)
    return dataclasses.replace(config, **changes), where


_CISCO_STRENGTH = {"off": 0, "auto": 1, "on": 2}


def input_changes(config: Config, inputs: Inputs, floor: bool) -> tuple[dict, list[str]]:
    """What the workflow's inputs change in the base configuration.

    On `pull_request` the workflow file is the pull request's own copy, so its inputs may only make
    the scan stricter: fail-on never rises above the base's, the base's engines always run, and a
    base `trusted-users` list is the whole list. Elsewhere (pull_request_target, push, dispatch)
    the workflow is the repository's and its inputs apply as given."""
    notes: list[str] = []
    changes: dict = {}
    if inputs.trusted_users:
        if floor and config.trusted_users:
            notes.append("the `trusted-users` input was ignored: the base configuration's list decides on pull_request")
        else:
            changes["trusted_users"] = tuple(dict.fromkeys(config.trusted_users + inputs.trusted_users))
    if inputs.fail_on_given:
        weaker = inputs.fail_on is None or (config.fail_on is not None and inputs.fail_on > config.fail_on)
        if floor and weaker:
            notes.append(f"the `fail-on` input ({inputs.fail_on.label if inputs.fail_on else 'never'}) was ignored: "
                         f"it would weaken the base configuration's {config.fail_on.label if config.fail_on else 'never'}")
        else:
            changes["fail_on"] = inputs.fail_on
    if inputs.engines is not None:
        engines, mode = inputs.engines, inputs.cisco_mode
        if floor:
            dropped = [e for e in config.engines if e not in engines]
            engines = tuple(dict.fromkeys(config.engines + engines))
            if "cisco" in config.engines and _CISCO_STRENGTH.get(config.cisco_mode, 0) > _CISCO_STRENGTH.get(mode or "off", 0):
                mode = config.cisco_mode
            if dropped:
                notes.append(f"the `engines` input cannot drop the base configuration's {', '.join(dropped)} on pull_request")
        changes["engines"] = engines
        changes["cisco_mode"] = mode
    for name in ("judge", "virustotal"):  # opt-in engines: an input may switch one on, never off on pull_request
        wanted = getattr(inputs, name)
        settings = getattr(config, name)
        if wanted is None or wanted == settings.enabled:
            continue
        if not wanted and floor:
            notes.append(f"the `{name}` input cannot switch off the base configuration's {name} on pull_request")
            continue
        changes[name] = dataclasses.replace(settings, enabled=wanted)
    return changes, notes


def change_context(event: Event, scope: Scope, base_files: dict[str, bytes | None] | None = None) -> ChangeContext | None:
    """Baselines come from the base branch tip, so a pull request cannot approve its own edit, and a
    branch cut before the trust store existed is still held to it; only files the change touches are
    compared (the tip may have moved on)."""
    if event.is_pull_request and event.base_sha:
        touched = frozenset(p for c in scope.changes for p in (c.path, c.old_path) if p)
        return ChangeContext(event.base_sha, scope.head, changed=touched, history=scope.history, base_files=base_files)
    if scope.base and scope.history:
        return ChangeContext(scope.base, scope.head)
    return None


def pull_files_fetcher(env: Mapping[str, str], token: str | None):
    """The REST fallback for shallow clones: GET /repos/{owner}/{repo}/pulls/{n}/files (PyGithub)."""
    if not token:
        return None
    from ..github import rest

    def fetch(repository: str, number: int) -> list[dict]:
        return rest.pull_files(rest.client(env, token), repository, number)
    return fetch


def commit_logins(env: Mapping[str, str], token: str | None, event: Event) -> tuple[dict[str, str] | None, str | None]:
    """GitHub logins of the pull request's commit authors (GET .../pulls/{n}/commits), when a token allows.

    Lets a trusted author's commits count as theirs whatever email they were made with. A failure is
    a note, not an error: provenance then judges by commit emails alone.
    """
    if not token or not event.is_pull_request:
        return None, None
    from ..github import rest

    try:
        return rest.commit_logins(rest.client(env, token), event.repository, event.pr_number), None
    except Exception as exc:  # any API failure: fall back to emails, and say so
        return None, f"commit authors' GitHub logins could not be fetched ({type(exc).__name__}); commit emails were used alone"


def resolve_path(root: str, path: str) -> str:
    return path if os.path.isabs(path) else os.path.join(root, path)


def write_file(path: str, body: str) -> None:
    """Write the SARIF log without following links: the checkout is the pull request's, and a link
    it plants at the SARIF path must not redirect our write to $GITHUB_OUTPUT or anywhere else."""
    full = os.path.abspath(path)
    parent = os.path.dirname(full)
    try:
        os.makedirs(parent, exist_ok=True)
        if os.path.realpath(parent) != parent:
            raise UsageError(f"sarif-file {path}: a folder on its path is a symbolic link; choose a path outside the checkout's links")
        fd = os.open(full, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(scrub(body))
    except OSError as exc:
        why = "it is a symbolic link" if os.path.islink(full) else exc.strerror
        raise UsageError(f"sarif-file {path}: cannot write ({why})") from None


def emit_log(result: ScanResult, verdict: Verdict, out: TextIO) -> annotations.Annotations:
    """The text report with workflow commands switched off around it, then the annotations."""
    token = secrets.token_hex(16)
    write_command(out, f"::stop-commands::{token}")
    out.write(scrub(text.render(result, verdict, color=False)))
    write_command(out, f"::{token}::")
    notes = annotations.build(result.findings)
    for line in notes.lines:
        write_command(out, line)
    out.flush()
    return notes


def scope_line(event: Event, scope: Scope, inputs: Inputs, config_where: str) -> str:
    what = f"pull request #{event.pr_number}" if event.is_pull_request else f"{event.name} of {event.head_sha[:12]}"
    changed = f"{len(scope.changes)} changed file(s), " if scope.base else ""
    return (f"Scanned {what} ({inputs.scan_scope} scope, {changed}{len(scope.targets.targets)} agent file(s) "
            f"read from {scope.head[:12]} via {scope.source}); {config_where}.")


def make_context(pub, **values):
    """A PublishContext from the fields this version of publishing knows (the contract grows)."""
    known = {f.name for f in dataclasses.fields(pub.PublishContext)}
    return pub.PublishContext(**{k: v for k, v in values.items() if k in known})


def publish_results(doc: dict, result: ScanResult, event: Event, scope: Scope | None, inputs: Inputs,
                    env: Mapping[str, str], repo: str) -> list:
    try:
        from ..github import publish as pub
    except ImportError as exc:  # publishing is optional; its absence is said, never silent
        return [("publish", "skipped", f"publishing is not available in this build ({exc})")]
    api_url, server_url = pub.PublishContext.urls_from_env(dict(env))
    ctx = make_context(
        pub, token=inputs.token, repository=event.repository, head_sha=event.head_sha,
        # pull_request_target runs on the base tip (GITHUB_SHA); its results belong to the head commit
        # and refs/pull/N/head. pull_request: the merge commit GITHUB_SHA and refs/pull/N/merge.
        commit_sha=event.head_sha if event.name == "pull_request_target" else (event.commit_sha or event.head_sha),
        ref=event.ref, api_url=api_url, server_url=server_url, pr_number=event.pr_number,
        checkout_uri="file://" + repo, changed_lines=scope.changed_lines if scope and scope.base else None,
        head_is_fork=event.fork, workflow=env.get("GITHUB_WORKFLOW", ""),
        run_url=(f"{server_url}/{env['GITHUB_REPOSITORY']}/actions/runs/{env['GITHUB_RUN_ID']}"
                 if env.get("GITHUB_REPOSITORY") and env.get("GITHUB_RUN_ID") else ""),
    )
    try:
        return pub.publish(doc, result, ctx, upload=inputs.upload_sarif, comment=inputs.comment and event.is_pull_request)
    except Exception as exc:  # the contract says publish never raises; if it does, the scan still stands
        return [pub.PublishOutcome("publish", "failed", f"publishing crashed: {type(exc).__name__}: {exc}")]


def outcome_fields(outcomes: list) -> tuple[str, str]:
    """(markdown section, one-line output value) for publishing outcomes of either shape."""
    if not outcomes:
        return "", "none"
    try:
        from ..github.publish import outcomes_markdown

        md = outcomes_markdown([o for o in outcomes if not isinstance(o, tuple)])
    except ImportError:
        md = ""
    tuples = [o for o in outcomes if isinstance(o, tuple)]
    if tuples:
        md += "".join(f"\n**Publishing {t[1]}:** {inert.markdown(t[2], 300)}\n" for t in tuples)
    value = ",".join(f"{getattr(o, 'channel', None) or o[0]}={getattr(o, 'status', None) or o[1]}" for o in outcomes)
    return md, value


def run_scan(env: Mapping[str, str], inputs: Inputs, out: TextIO, state: RunState | None = None) -> int:
    state = state if state is not None else RunState()
    started = time.perf_counter()
    repo = workspace(env)
    state.sarif_path = resolve_path(repo, inputs.sarif_file)
    event = load_event(env)
    base = ensure_base(repo, event, inputs, env)
    head_note = ensure_head(repo, event, inputs, env)
    config, config_where = effective_config(repo, event, inputs, base)
    # Keys for the opt-in engines come from the step's environment, never from the repository.
    if config.judge.enabled:
        config = dataclasses.replace(config, judge=with_judge_key(config.judge, env))
    if config.virustotal.enabled:
        config = dataclasses.replace(config, virustotal=with_virustotal_key(config.virustotal, env))
    base_files = None
    if base.api is not None:
        base.reader()(config.trust_store)  # read now: a failure is an error before anything is judged
        base_files = base.read
    scope = build_scope(repo, event, config, inputs.scan_scope, pull_files_fetcher(env, inputs.token))
    scope.notes.extend(n for n in (base.note, head_note) if n)
    change = change_context(event, scope, base_files)
    with captured_warnings() as caught:
        result = run_engines(scope.targets, config, change)
    state.result = result
    note = warnings_note(caught)
    if note:
        result.notes.append(note)
    result.findings.extend(scope.findings)
    result.notes.extend(scope.notes)
    logins, login_note = commit_logins(env, inputs.token, event) if scope.history else (None, None)
    if login_note:
        result.notes.append(login_note)
    prov = provenance_findings.assess(repo, event, scope, config, inputs.config, logins)
    result.findings.extend(prov.findings)
    result.notes.extend(prov.notes)
    result = apply(result, config)
    verdict = decide(result, config.fail_on, config.fail_on_new_only)
    doc = state.doc = sarif.document(result)
    sarif_path = state.sarif_path
    write_file(sarif_path, sarif.dumps(doc))
    state.sarif_written = True
    notes = emit_log(result, verdict, out)
    view = summary.ProvenanceView(prov.verdict, tuple(prov.reasons), tuple(prov.notes))
    append_summary(env, summary.render(
        result, verdict, view, scope_line=scope_line(event, scope, inputs, config_where),
        omitted_annotations=notes.omitted))
    active = result.active_findings()
    write_outputs({
        "findings": str(len(active)),
        "new-findings": str(sum(1 for f in active if f.new)),
        "highest-severity": verdict.highest.label if verdict.highest is not None else "none",
        "sarif-file": sarif_path,
        "external-contributor": "true" if prov.external else "false",
        "provenance": prov.verdict,
        "verdict": verdict.label,
    }, env)
    outcomes: list = []
    if inputs.upload_sarif or inputs.comment:
        outcomes = publish_results(doc, result, event, scope, inputs, env, repo)
    md, value = outcome_fields(outcomes)
    append_summary(env, md + f"\n<sub>Scan took {time.perf_counter() - started:.2f} s.</sub>\n")
    write_outputs({"published": value}, env)
    return 1 if verdict.failed else 0


def run_publish(env: Mapping[str, str], inputs: Inputs, out: TextIO) -> int:
    """`mode: publish`: publish an earlier run's SARIF artifact; never reads the pull request's code."""
    from ..github import publish as pub

    api_url, server_url = pub.PublishContext.urls_from_env(dict(env))
    repository = env.get("GITHUB_REPOSITORY", "")
    if not repository:
        raise UsageError("GITHUB_REPOSITORY is not set; run the action as a step of a GitHub Actions job")
    sarif_path = resolve_path(env.get("GITHUB_WORKSPACE") or os.getcwd(), inputs.sarif_file)
    if not os.path.isfile(sarif_path):
        raise UsageError(f"sarif-file {sarif_path}: no such file; download the scan job's artifact before this step")
    commit, ref = env.get("GITHUB_SHA", ""), env.get("GITHUB_REF", "")
    head_sha = None
    if env.get("GITHUB_EVENT_NAME") == "workflow_run":
        # The analysed commit is the triggering run's head, not this (default-branch) run's commit;
        # the ref is left to publishing, which derives refs/pull/N/head once the PR checks out.
        run = read_payload(env.get("GITHUB_EVENT_PATH")).get("workflow_run")
        head_sha = run.get("head_sha") if isinstance(run, dict) and isinstance(run.get("head_sha"), str) else None
        if not head_sha:
            raise UsageError("the workflow_run payload has no head_sha; run mode: publish on an unmodified workflow_run event")
        if not inputs.pr_number:
            # Never derived from head_branch: a fork's branch named `main` would target refs/heads/main.
            raise UsageError("mode: publish on workflow_run needs `pr-number` (the artifact's pull request); it is "
                             "checked against the run's head commit before anything is published")
        commit, ref = head_sha, ""  # publishing sets refs/pull/N/head once the pull request checks out
    ctx = make_context(
        pub, token=inputs.token, repository=repository, commit_sha=commit, head_sha=head_sha,
        ref=ref, api_url=api_url, server_url=server_url, pr_number=inputs.pr_number,
    )
    outcomes = pub.run_publish_mode(sarif_path, inputs.pr_number, ctx, upload=inputs.upload_sarif, comment=inputs.comment)
    md, value = outcome_fields(outcomes)
    append_summary(env, "## Instruction Guard: publish\n\n" + md)
    write_outputs({"published": value, "sarif-file": sarif_path}, env)
    for o in outcomes:
        out.write(f"{o.channel}: {o.status}: {inert.visible(o.detail, 300)}\n")
    return 0


def error_line(message: str) -> str:
    return f"::error title=Instruction Guard::{inert.workflow_command_data(message)}"


def one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return scrub(text.splitlines()[0] if text else type(exc).__name__)


def main(env: Mapping[str, str] | None = None, out: TextIO | None = None) -> int:
    env = os.environ if env is None else env
    out = sys.stdout if out is None else out
    state = RunState()
    try:
        with captured_warnings() as caught:
            inputs = parse_inputs(env)
            if inputs.mode == "publish":
                return run_publish(env, inputs, out)
            return run_scan(env, inputs, out, state)
    except (UsageError, ConfigError, gitutil.GitError) as exc:
        message = one_line(exc)
        write_command(out, error_line(message))
        report_error(env, message)
        print(f"instruction-guard: error: {inert.visible(message, 600)}", file=sys.stderr)
        return 2
    except RuleFixtureError as exc:
        report_error(env, "internal error: the rule catalog failed its own fixtures; nothing was scanned")
        print(f"instruction-guard: internal error: {inert.visible(one_line(exc), 600)}", file=sys.stderr)
        return 3
    except Exception as exc:  # noqa: BLE001 - every crash becomes a report, never a bare traceback
        message = f"internal error ({type(exc).__name__}: {one_line(exc)}); the scan did not finish, so it cannot pass"
        write_crash_sarif(state, message)
        write_command(out, error_line(message))
        report_error(env, message)
        print(f"instruction-guard: error: {inert.visible(message, 600)}", file=sys.stderr)
        return 2
    finally:
        note = warnings_note(caught) if "caught" in locals() else None
        if note:
            print(f"instruction-guard: {inert.visible(note, 1000)}", file=sys.stderr)


def write_crash_sarif(state: RunState, message: str) -> None:
    """The SARIF it has: the findings so far (or none), marked as a failed run with the reason."""
    if state.sarif_path is None or state.sarif_written:
        return
    doc = None
    if state.result is not None:
        try:
            doc = sarif.document(state.result)
        except Exception:  # noqa: BLE001 - the crash may be in the SARIF writer itself
            doc = None
    if doc is None:
        try:
            doc = sarif.document(ScanResult())
        except Exception:  # noqa: BLE001
            doc = {"version": "2.1.0", "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
                   "runs": [{"tool": {"driver": {"name": "instruction-guard"}}, "results": []}]}
    for run in doc.get("runs", [])[:1]:
        run["invocations"] = [{"executionSuccessful": False, "toolExecutionNotifications": [
            {"level": "error", "message": {"text": inert.visible(message, 600)}}]}]
    try:
        write_file(state.sarif_path, sarif.dumps(doc) if hasattr(sarif, "dumps") else __import__("json").dumps(doc))
    except Exception:  # noqa: BLE001 - nothing more can be saved; the error is still reported
        pass


def report_error(env: Mapping[str, str], message: str) -> None:
    """An error is a visible outcome too: the summary says it and `verdict` is `error`."""
    try:
        append_summary(env, f"## Instruction Guard: error\n\n{inert.markdown(message, 600)}\n")
        write_outputs({"verdict": "error"}, env)
    except OSError:
        pass  # the error itself is already on stderr and in the annotation
