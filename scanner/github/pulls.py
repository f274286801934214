"""A pull request's conversation through PyGithub: its files, reviews, review comments and issue
comments, the token's own login, and the pull request itself (publish mode checks its head).

PyGithub pages through the lists (100 a page, bounded here) and retries with its `GithubRetry`:
5xx answers, dropped connections and rate limits (primary: until `X-RateLimit-Reset`; secondary:
`Retry-After` or its own wait), and waits no longer than the publisher's time budget
(`max_rate_limit_wait`). Its throttle keeps writes apart as GitHub asks. Two things are ours:
- the retry's sleep goes to the context's clock (`PublishContext.sleep`), so a test can count the
  waits and the Action keeps one time budget for every channel;
- a request that creates something (a review, a comment) is never retried blindly: GitHub may have
  acted before its answer failed, so `create_*` asks `if_unsure` (did our review/comment appear?)
  before sending again. PyGithub's retry therefore covers GET, PUT, PATCH and DELETE only.
Objects are read from the answers' raw JSON (no lazy completion fetches), and edits go to URLs
built from the configured API URL, never to a URL an answer names: the token stays on that host.

Every failure is raised as api.APIError, so the channels keep one error type (the code scanning
upload stays on api.GitHubAPI: PyGithub has no call for `POST /code-scanning/sarifs` nor for its
processing status).
"""
from __future__ import annotations

import time
from typing import Any, Callable
from urllib.parse import urlsplit

import requests

from .. import TOOL_NAME, __version__
from .api import APIError

PER_PAGE = 100
MAX_ITEMS = 3000  # items read from one list (30 pages)
MAX_CREATE_ATTEMPTS = 3
SECONDARY_RATE_WAIT = 60.0  # GitHub asks for at least a minute after a secondary rate limit without a hint
IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE"})


def _retry_class():
    from github import GithubRetry

    class ClockedRetry(GithubRetry):
        """GithubRetry whose waits go to an injected sleep (PyGithub otherwise calls time.sleep)."""

        def __init__(self, *, sleeper: Callable[[float], None] = time.sleep, **kw: Any) -> None:
            self.sleeper = sleeper
            super().__init__(**kw)

        def new(self, **kw: Any):
            kw["sleeper"] = self.sleeper
            return super().new(**kw)

        def sleep(self, response=None) -> None:  # urllib3 calls this between attempts
            wait = self.get_retry_after(response) if response is not None else None
            self.sleeper(float(wait if wait is not None else self.get_backoff_time()))

    return ClockedRetry


def _message(exc: Exception) -> str:
    data = getattr(exc, "data", None)
    if isinstance(data, dict):
        parts = [str(data.get("message") or "")]
        for err in data.get("errors") or []:
            parts.append(str(err.get("message") or err.get("code") or err)[:200] if isinstance(err, dict) else str(err)[:200])
        return "; ".join(p for p in parts if p)[:600]
    return str(data or exc)[:300].strip()


class Pulls:
    """One repository's pull request conversation, through PyGithub."""

    def __init__(self, api_url: str, token: str | None, repository: str, *, budget_seconds: float = 120.0,
                 sleep: Callable[[float], None] = time.sleep, max_attempts: int = 6) -> None:
        from github import Auth, Github

        self.api_url = api_url.rstrip("/")
        parts = urlsplit(self.api_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise APIError(0, "GET", self.api_url, f"cannot send to {self.api_url}: not an http(s) URL")
        self.repository = repository
        self._sleep = sleep
        retry = _retry_class()(sleeper=sleep, total=max_attempts - 1, backoff_factor=1.0, backoff_max=30.0,
                               allowed_methods=IDEMPOTENT, raise_on_status=False,
                               max_rate_limit_wait=budget_seconds, secondary_rate_wait=SECONDARY_RATE_WAIT)
        real_clock = sleep is time.sleep  # PyGithub's throttle sleeps in real time: only on the real clock
        self.gh = Github(base_url=self.api_url, auth=Auth.Token(token) if token else None, per_page=PER_PAGE,
                         timeout=int(min(60, max(budget_seconds, 1))), retry=retry,
                         seconds_between_requests=0.25 if real_clock else None,
                         seconds_between_writes=1.0 if real_clock else None,
                         user_agent=f"{TOOL_NAME}/{__version__}", lazy=True)
        self.repo = self.gh.get_repo(repository)  # lazy (Github(lazy=True)): no request until a call
        self._requester = self.repo._requester

    # -- calls -------------------------------------------------------------------------------------

    def _call(self, method: str, path: str, fn: Callable[[], Any]) -> Any:
        from github import GithubException

        try:
            return fn()
        except GithubException as exc:
            raise APIError(exc.status or 0, method, path, _message(exc)) from None
        except requests.exceptions.RetryError as exc:
            raise APIError(0, method, path, f"gave up after retrying: {type(exc).__name__}") from None
        except (requests.ConnectionError, requests.Timeout) as exc:
            raise APIError(0, method, path, f"connection failed ({type(exc).__name__})") from None
        except requests.RequestException as exc:
            raise APIError(0, method, path, f"cannot send to {self.api_url}: {type(exc).__name__}") from None

    def _list(self, path: str, listing: Callable[[], Any]) -> list[dict]:
        def read() -> list[dict]:
            out: list[dict] = []
            for item in listing():
                out.append(item._rawData)  # the list's own answer: no per-item completion request
                if len(out) >= MAX_ITEMS:
                    break
            return out
        return self._call("GET", path, read)

    def _pull(self, pr: int):
        return self.repo.get_pull(pr)  # lazy: no request until a list or a write

    def _issue(self, pr: int):
        # Repository.get_issue, lazily: a pull request's conversation is its issue's, and the lazy
        # PullRequest would fetch itself to learn its `issue_url` (a URL from an answer).
        return self.repo.get_issue(pr)

    def _object(self, cls, url: str, **attributes: Any):
        """A PyGithub object addressed by a URL built here (never one from an answer)."""
        from github.GithubObject import CompletableGithubObject

        if issubclass(cls, CompletableGithubObject):
            return cls(self._requester, {}, {"url": url, **attributes}, completed=True)
        return cls(self._requester, {}, {"url": url, **attributes})

    def login(self) -> str:
        """GET /user: the token's login ("" when the token cannot tell: the workflow token)."""
        user = self._call("GET", "/user", self._user_raw)
        login = user.get("login") if isinstance(user, dict) else None
        return str(login) if login else ""

    def _user_raw(self) -> dict:
        # The call behind Github.get_user() (AuthenticatedUser), made through PyGithub's requester so
        # the answer stays raw: a missing field would otherwise send a completion request.
        _, data = self._requester.requestJsonAndCheck("GET", "/user")
        return data

    def pull(self, pr: int) -> dict:
        # The call behind Repository.get_pull(), its answer kept raw (the lazy object would complete itself).
        return self._call("GET", f"/repos/{self.repository}/pulls/{pr}",
                          lambda: self._requester.requestJsonAndCheck("GET", self._pull(pr).url)[1])

    def files(self, pr: int) -> list[dict]:
        return self._list(f"/repos/{self.repository}/pulls/{pr}/files", lambda: self._pull(pr).get_files())

    def review_comments(self, pr: int) -> list[dict]:
        return self._list(f"/repos/{self.repository}/pulls/{pr}/comments", lambda: self._pull(pr).get_review_comments())

    def reviews(self, pr: int) -> list[dict]:
        return self._list(f"/repos/{self.repository}/pulls/{pr}/reviews", lambda: self._pull(pr).get_reviews())

    def issue_comments(self, pr: int) -> list[dict]:
        return self._list(f"/repos/{self.repository}/issues/{pr}/comments", lambda: self._issue(pr).get_comments())

    def _create(self, method_path: str, send: Callable[[], Any], if_unsure: Callable[[], dict | None]) -> dict:
        """Send a create. A rate limit refused it: wait and send again. A 5xx or no answer may come
        after GitHub acted: look for what it would have created (`if_unsure`) before sending again."""
        last: APIError | None = None
        unsure = False
        wait = 0.0
        for _ in range(MAX_CREATE_ATTEMPTS):
            if last is not None:
                if unsure:
                    found = if_unsure()
                    if found is not None:
                        return found
                self._sleep(wait)
            try:
                return self._call("POST", method_path, lambda: send()._rawData)
            except APIError as exc:
                if exc.status in (403, 429) and exc.rate_limited:
                    last, wait = exc, SECONDARY_RATE_WAIT  # refused, so never created: no look needed
                    continue
                if exc.status != 0 and exc.status < 500:
                    raise
                last, unsure, wait = exc, True, min(2.0 * (wait or 1.0), 30.0)
        assert last is not None
        raise last

    def create_review(self, pr: int, payload: dict, if_unsure: Callable[[], dict | None]) -> dict:
        def send():
            from github.Commit import Commit

            commit = payload.get("commit_id")
            return self._pull(pr).create_review(
                commit=self._object(Commit, f"{self.repo.url}/commits/{commit}", sha=commit) if commit else _unset(),
                body=payload["body"], event=payload["event"], comments=payload["comments"])
        return self._create(f"/repos/{self.repository}/pulls/{pr}/reviews", send, if_unsure)

    def create_issue_comment(self, pr: int, body: str, if_unsure: Callable[[], dict | None]) -> dict:
        return self._create(f"/repos/{self.repository}/issues/{pr}/comments",
                            lambda: self._issue(pr).create_comment(body), if_unsure)

    def edit_review(self, pr: int, review_id: int, body: str) -> None:
        from github.PullRequestReview import PullRequestReview

        review = self._object(PullRequestReview, f"{self.repo.url}/pulls/{pr}/reviews/{review_id}", id=review_id,
                              pull_request_url=f"{self.repo.url}/pulls/{pr}")
        self._call("PUT", f"/repos/{self.repository}/pulls/{pr}/reviews/{review_id}", lambda: review.edit(body))

    def edit_review_comment(self, comment_id: int, body: str) -> None:
        from github.PullRequestComment import PullRequestComment

        comment = self._object(PullRequestComment, f"{self.repo.url}/pulls/comments/{comment_id}", id=comment_id)
        self._call("PATCH", f"/repos/{self.repository}/pulls/comments/{comment_id}", lambda: comment.edit(body))

    def edit_issue_comment(self, comment_id: int, body: str) -> None:
        from github.IssueComment import IssueComment

        comment = self._object(IssueComment, f"{self.repo.url}/issues/comments/{comment_id}", id=comment_id)
        self._call("PATCH", f"/repos/{self.repository}/issues/comments/{comment_id}", lambda: comment.edit(body))

    def delete_issue_comment(self, comment_id: int) -> None:
        from github.IssueComment import IssueComment

        comment = self._object(IssueComment, f"{self.repo.url}/issues/comments/{comment_id}", id=comment_id)
        self._call("DELETE", f"/repos/{self.repository}/issues/comments/{comment_id}", comment.delete)


def _unset():
    from github.GithubObject import NotSet

    return NotSet
