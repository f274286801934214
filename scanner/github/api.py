"""The code scanning upload's REST client, on raw requests: PyGithub has no call for
`POST /repos/{owner}/{repo}/code-scanning/sarifs` nor for `GET .../code-scanning/sarifs/{id}`
(its processing status), so only those two requests are sent from here. Everything on the pull
request (files, reviews, review comments, issue comments) goes through PyGithub
(scanner/github/pulls.py), which raises this module's APIError so the channels keep one error type.

Bounded retries, rate-limit back-off, GHES-aware base URL: 5xx answers, dropped connections and
rate limits (429, or 403 with a rate-limit body, `Retry-After` or an exhausted
`x-ratelimit-remaining`) are retried with back-off inside a total time budget; every other 4xx is
final and raised at once as `APIError`. A request that creates something may have taken effect
even though its answer was a 5xx or never came: such a call passes `if_unsure`, which looks for
what the request would have created before it is sent again.

The token only ever goes to the configured API URL: pagination counts pages instead of
following `Link` headers, and requests drops the Authorization header on cross-host redirects.
"""
from __future__ import annotations

import random
import time
from typing import Any, Callable

import requests

from .. import TOOL_NAME, __version__

API_VERSION = "2022-11-28"
MAX_BACKOFF = 30.0
PER_PAGE = 100


class APIError(Exception):
    """GitHub answered with an error, or did not answer within the budget (status 0)."""

    def __init__(self, status: int, method: str, path: str, message: str, documentation_url: str = "",
                 retried: int = 0) -> None:
        self.status = status
        self.method = method
        self.path = path
        self.message = message
        self.documentation_url = documentation_url
        self.retried = retried
        where = f"{method} {path}"
        super().__init__(f"{where}: {status or 'no answer'} {message}".strip())

    @property
    def rate_limited(self) -> bool:
        return "rate limit" in self.message.lower()


def _error_message(resp: requests.Response) -> tuple[str, str]:
    try:
        body = resp.json()
    except ValueError:
        return (resp.text or resp.reason or "")[:300].strip(), ""
    if not isinstance(body, dict):
        return str(body)[:300], ""
    parts = [str(body.get("message") or resp.reason or "")]
    for err in body.get("errors") or []:
        if isinstance(err, dict):
            parts.append(str(err.get("message") or err.get("code") or err)[:200])
        else:
            parts.append(str(err)[:200])
    return "; ".join(p for p in parts if p)[:600], str(body.get("documentation_url") or "")


def _is_rate_limited(resp: requests.Response) -> bool:
    if resp.status_code == 429:
        return True
    if resp.status_code != 403:
        return False
    if "retry-after" in resp.headers or resp.headers.get("x-ratelimit-remaining") == "0":
        return True
    return "rate limit" in (resp.text or "")[:2000].lower()


class GitHubAPI:
    def __init__(self, api_url: str, token: str | None, *, budget_seconds: float = 120.0, max_attempts: int = 6,
                 sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.api_url = api_url.rstrip("/")
        self.budget_seconds = budget_seconds
        self.max_attempts = max_attempts
        self._sleep = sleep
        self._clock = clock
        self._wall = wall_clock
        self._deadline = clock() + budget_seconds
        self.session = requests.Session()
        self.session.headers.update({
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": API_VERSION,
            "User-Agent": f"{TOOL_NAME}/{__version__}",
        })
        if token:
            self.session.headers["Authorization"] = f"Bearer {token}"
        self.requests_made = 0

    def remaining(self) -> float:
        return max(self._deadline - self._clock(), 0.0)

    def _wait_for(self, resp: requests.Response | None, attempt: int) -> float:
        if resp is not None:
            after = resp.headers.get("retry-after", "").strip()
            if after.isdigit():
                return float(after)
            reset = resp.headers.get("x-ratelimit-reset", "").strip()
            if resp.headers.get("x-ratelimit-remaining") == "0" and reset.isdigit():
                return max(float(reset) - self._wall(), 0.0) + 1.0
            if resp.status_code in (403, 429):
                # Secondary rate limit without a hint: GitHub asks for at least a minute.
                return 60.0
        return min(2.0 ** attempt, MAX_BACKOFF) + random.uniform(0, 0.5)

    def request(self, method: str, path: str, *, json: Any = None, params: dict | None = None,
                if_unsure: Callable[[], Any] | None = None) -> Any:
        """Send one request (with retries); return the decoded JSON body, or None when empty.

        `if_unsure`, for requests that must not take effect twice: called before resending a
        request whose earlier attempt may have reached GitHub; what it returns (not None) is
        taken as this request's answer instead of sending it again."""
        url = path if path.startswith(self.api_url + "/") else f"{self.api_url}/{path.lstrip('/')}"
        attempt = 0
        last = "no answer"
        unsure = False  # an earlier attempt may have taken effect
        while True:
            attempt += 1
            left = self.remaining()
            if left <= 0:
                raise APIError(0, method, path, f"gave up after {attempt - 1} attempt(s) within "
                               f"{self.budget_seconds:.0f} s: {last}", retried=attempt - 1)
            if unsure and if_unsure is not None:
                found = if_unsure()
                if found is not None:
                    return found
            resp = None
            try:
                self.requests_made += 1
                resp = self.session.request(method, url, json=json, params=params,
                                            timeout=(min(10.0, left), min(60.0, left)), allow_redirects=True)
            except (requests.ConnectionError, requests.Timeout) as exc:
                last = f"connection failed ({type(exc).__name__})"
                # Only a refused connection proves the request never left; a reset or a read
                # timeout may come after GitHub acted on it.
                unsure |= not isinstance(exc, requests.ConnectTimeout)
            except requests.RequestException as exc:  # a malformed GITHUB_API_URL: retrying cannot help
                raise APIError(0, method, path, f"cannot send to {self.api_url}: {type(exc).__name__}") from None
            else:
                if resp.status_code < 400:
                    if resp.status_code == 204 or not resp.content:
                        return None
                    try:
                        return resp.json()
                    except ValueError:
                        raise APIError(resp.status_code, method, path, "answer is not JSON") from None
                message, doc_url = _error_message(resp)
                retryable = resp.status_code >= 500 or _is_rate_limited(resp)
                if not retryable:
                    raise APIError(resp.status_code, method, path, message, doc_url, retried=attempt - 1)
                last = f"{resp.status_code} {message}"
                unsure |= resp.status_code >= 500  # a rate limit refused it; a 5xx may be after the fact
            if attempt >= self.max_attempts:
                raise APIError(resp.status_code if resp is not None else 0, method, path,
                               f"gave up after {attempt} attempt(s): {last}", retried=attempt - 1)
            wait = self._wait_for(resp, attempt)
            if wait > self.remaining():
                raise APIError(resp.status_code if resp is not None else 0, method, path,
                               f"{last}; retrying would need {wait:.0f} s, beyond the time budget",
                               retried=attempt - 1)
            self._sleep(wait)

    def paginate(self, path: str, params: dict | None = None, max_pages: int = 30) -> list:
        """All items of a list endpoint, page by page (bounded)."""
        items: list = []
        for page in range(1, max_pages + 1):
            batch = self.request("GET", path, params={**(params or {}), "per_page": PER_PAGE, "page": page})
            if not isinstance(batch, list):
                break
            items.extend(batch)
            if len(batch) < PER_PAGE:
                break
        return items
