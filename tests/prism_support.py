"""GitHub's REST description served by Stoplight Prism, behind a recording proxy.

- `cut_spec()` keeps only the operations the publisher uses (and the components they reference),
  points servers and example URLs at the mock, drops example `Link` headers, and serves every JSON
  answer as `application/vnd.github+json` too (the Accept header GitHub clients send).
- `PrismMock` starts `prism mock` on 127.0.0.1 on a free port and stops it by its process id.
- `RecordingProxy` sits in front: every request is forwarded to Prism, which validates it against
  the spec (violations come back in `sl-violations`), and recorded. Since the mock keeps no state,
  a test can script answers (`respond()`): a status such as 403/404/422/502 (forwarded to Prism as
  `Prefer: code=N` when the spec defines it, so the error body has GitHub's shape) and/or a body,
  e.g. the comments an earlier run left. Tests then assert on what was SENT.
"""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "node_modules", "@octokit", "openapi", "generated", "api.github.com.json")
PRISM = os.path.join(ROOT, "node_modules", ".bin", "prism")
GHES_PREFIX = "/api/v3"

# Every operation the action may call (publishing, plus the scan's pull request files and commits).
OPERATIONS = {
    "/user": ["get"],
    "/repos/{owner}/{repo}/pulls/{pull_number}/commits": ["get"],
    "/repos/{owner}/{repo}/code-scanning/sarifs": ["post"],
    "/repos/{owner}/{repo}/code-scanning/sarifs/{sarif_id}": ["get"],
    "/repos/{owner}/{repo}/pulls/{pull_number}": ["get"],
    "/repos/{owner}/{repo}/pulls/{pull_number}/files": ["get"],
    "/repos/{owner}/{repo}/contents/{path}": ["get"],
    "/repos/{owner}/{repo}/pulls/{pull_number}/comments": ["get"],
    "/repos/{owner}/{repo}/pulls/comments/{comment_id}": ["patch"],
    "/repos/{owner}/{repo}/pulls/{pull_number}/reviews": ["get", "post"],
    "/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}": ["put"],
    "/repos/{owner}/{repo}/issues/{issue_number}/comments": ["get", "post"],
    "/repos/{owner}/{repo}/issues/comments/{comment_id}": ["patch", "delete"],
}


def available() -> str | None:
    """Why the mock cannot run here, or None."""
    if not os.path.exists(PRISM):
        return "node_modules/.bin/prism missing: run `npm ci` in the repository"
    if not os.path.exists(SPEC):
        return "@octokit/openapi missing: run `npm ci` in the repository"
    return None


@lru_cache(maxsize=1)
def _full_spec() -> dict:
    with open(SPEC, encoding="utf-8") as fh:
        return json.load(fh)


def _refs(node, acc: set[str]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str):
                acc.add(v)
            else:
                _refs(v, acc)
    elif isinstance(node, list):
        for v in node:
            _refs(v, acc)


def _rewrite(node, base_url: str):
    """Example URLs point at the mock; example Link headers go; JSON is also vnd.github+json."""
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == "headers" and isinstance(v, dict):
                v = {h: hv for h, hv in v.items() if h.lower() != "link"}
            out[k] = _rewrite(v, base_url)
        content = out.get("content")
        if isinstance(content, dict) and "application/json" in content and "application/vnd.github+json" not in content:
            content["application/vnd.github+json"] = content["application/json"]
        return out
    if isinstance(node, list):
        return [_rewrite(v, base_url) for v in node]
    if isinstance(node, str) and ("https://api.github.com" in node or "https://github.com" in node):
        return node.replace("https://api.github.com", base_url).replace("https://github.com", base_url)
    return node


def cut_spec(base_url: str, operations: dict[str, list[str]] = OPERATIONS) -> dict:
    spec = _full_spec()
    paths = {}
    for path, methods in operations.items():
        item = spec["paths"][path]
        paths[path] = {m: item[m] for m in methods}
        if "parameters" in item:
            paths[path]["parameters"] = item["parameters"]
    todo: set[str] = set()
    _refs(paths, todo)
    done: set[str] = set()
    components: dict[str, dict] = {}
    while todo:
        ref = todo.pop()
        if ref in done:
            continue
        done.add(ref)
        _, _, section, name = ref.split("/", 3)
        node = spec["components"][section][name]
        components.setdefault(section, {})[name] = node
        _refs(node, todo)
    cut = {"openapi": spec["openapi"], "info": spec["info"], "servers": [{"url": base_url}],
           "paths": paths, "components": components}
    return _rewrite(cut, base_url)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrismMock:
    def __init__(self, spec_path: str, log_path: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._log = open(log_path, "wb")
        self.proc = subprocess.Popen([PRISM, "mock", "-h", "127.0.0.1", "-p", str(self.port), spec_path],
                                     stdout=self._log, stderr=subprocess.STDOUT, cwd=os.path.dirname(spec_path))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"prism exited with {self.proc.returncode}; see {log_path}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("prism did not start within 60 s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._log.close()


@dataclass
class Exchange:
    method: str
    path: str  # without the query
    query: str
    headers: dict[str, str]
    body: object  # decoded JSON, or None
    prism_status: int
    violations: list  # Prism's request/response validation findings
    returned_status: int

    @property
    def request_violations(self) -> list:
        return [v for v in self.violations if v.get("location", [""])[0] == "request"]


@dataclass
class Scripted:
    method: str
    path: re.Pattern
    status: int | None = None
    body: object = None
    headers: dict[str, str] = field(default_factory=dict)
    times: int | None = None  # None: every time
    prefer: str | None = None  # forwarded to Prism as `Prefer:` (e.g. "example=malicious")


class RecordingProxy:
    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.exchanges: list[Exchange] = []
        self.scripts: list[Scripted] = []
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def _handle(self):
                proxy._serve(self)

            do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _handle

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def reset(self) -> None:
        with self._lock:
            self.exchanges.clear()
            self.scripts.clear()

    def respond(self, method: str, path_regex: str, *, status: int | None = None, body: object = None,
                headers: dict[str, str] | None = None, times: int | None = None, prefer: str | None = None) -> None:
        with self._lock:
            self.scripts.append(Scripted(method.upper(), re.compile(path_regex), status, body, headers or {}, times, prefer))

    def _script_for(self, method: str, path: str) -> Scripted | None:
        with self._lock:
            for s in self.scripts:
                if s.method == method and s.path.search(path) and (s.times is None or s.times > 0):
                    if s.times is not None:
                        s.times -= 1
                    return s
        return None

    def _serve(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        path, _, query = h.path.partition("?")
        upstream_path = h.path
        if path.startswith(GHES_PREFIX + "/"):  # GitHub Enterprise Server serves the API under /api/v3
            upstream_path = h.path[len(GHES_PREFIX):]
        script = self._script_for(h.command, path)
        fwd_headers = {k: v for k, v in h.headers.items() if k.lower() not in ("host", "content-length", "connection")}
        if script and script.status and script.body is None:
            fwd_headers["Prefer"] = f"code={script.status}"
        elif script and script.prefer:
            fwd_headers["Prefer"] = script.prefer
        req = urllib.request.Request(self.upstream + upstream_path, data=raw if raw else None, method=h.command, headers=fwd_headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                p_status, p_body, p_headers = resp.status, resp.read(), resp.headers
        except urllib.error.HTTPError as err:
            p_status, p_body, p_headers = err.code, err.read(), err.headers
        violations = json.loads(p_headers.get("sl-violations", "[]") or "[]")
        if "problem+json" in (p_headers.get("Content-Type") or ""):
            # Prism's own error: an invalid request for an operation with no 4xx of its own in the spec.
            problem = json.loads(p_body or b"{}")
            violations += [{**v, "location": ["request", *v.get("location", [])]} for v in problem.get("validation", [])]
            if not problem.get("validation") and p_status >= 400 and not (script and script.status):
                violations.append({"location": ["request"], "message": problem.get("detail") or problem.get("title")})
        status, body, headers = p_status, p_body, {"Content-Type": p_headers.get("Content-Type", "application/json")}
        if script:
            if script.body is not None:
                body = json.dumps(script.body).encode()
                headers = {"Content-Type": "application/json"}
                status = script.status or 200
            elif script.status and p_status != script.status:
                # A status the spec does not define for this operation (e.g. 502): answer it ourselves.
                status, body = script.status, json.dumps({"message": f"scripted {script.status}"}).encode()
            headers.update(script.headers)
        try:
            decoded = json.loads(raw) if raw else None
        except ValueError:
            decoded = raw.decode("utf-8", "replace")
        with self._lock:
            self.exchanges.append(Exchange(h.command, path, query, dict(h.headers.items()), decoded,
                                           p_status, violations, status))
        h.send_response(status)
        for k, v in headers.items():
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        if body:
            h.wfile.write(body)

    def sent(self, method: str | None = None, path_regex: str | None = None) -> list[Exchange]:
        with self._lock:
            return [e for e in self.exchanges if (method is None or e.method == method)
                    and (path_regex is None or re.search(path_regex, e.path))]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class GitHubMock:
    """Prism (validating against the cut spec) behind a recording proxy; `url` is GITHUB_API_URL."""

    def __init__(self, workdir: str) -> None:
        spec_path = os.path.join(workdir, "github-rest-cut.json")
        # The servers/example URLs must name the address clients use: the proxy's.
        self.proxy = RecordingProxy("http://127.0.0.1:1")  # upstream filled in below
        with open(spec_path, "w", encoding="utf-8") as fh:
            json.dump(cut_spec(self.proxy.url), fh)
        self.prism = PrismMock(spec_path, os.path.join(workdir, "prism.log"))
        self.proxy.upstream = self.prism.url
        self.url = self.proxy.url

    def stop(self) -> None:
        self.proxy.stop()
        self.prism.stop()
