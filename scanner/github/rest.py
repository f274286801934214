"""The Action's own reads from GitHub's REST API, through PyGithub.

The scan needs two lists when git cannot give them: a pull request's files (a shallow checkout)
and its commits' GitHub logins (provenance). PyGithub pages through them (following `Link`
headers only to the configured API host) and retries rate limits and 5xx answers with its
`GithubRetry`. Publishing's pull request calls go through PyGithub too (scanner/github/pulls.py);
only the code scanning upload keeps raw requests (scanner/github/api.py): PyGithub has no call for it.
"""
from __future__ import annotations

from typing import Mapping

REST_FILE_LIMIT = 3000  # GitHub lists at most 3,000 files of a pull request
PER_PAGE = 100


def client(env: Mapping[str, str], token: str, timeout: int = 30):
    from github import Auth, Github, GithubRetry

    api_url = (env.get("GITHUB_API_URL") or "https://api.github.com").rstrip("/")
    return Github(base_url=api_url, auth=Auth.Token(token), per_page=PER_PAGE, timeout=timeout,
                  retry=GithubRetry(total=3, backoff_factor=0.5), seconds_between_requests=None,
                  seconds_between_writes=None, user_agent="instruction-guard", lazy=True)


def pull_files(gh, repository: str, number: int) -> list[dict]:
    """GET /repos/{owner}/{repo}/pulls/{n}/files, as the dicts change.py reads (bounded at GitHub's cap)."""
    out: list[dict] = []
    for f in gh.get_repo(repository, lazy=True).get_pull(number).get_files():
        out.append({"filename": f.filename, "status": f.status, "previous_filename": f.previous_filename,
                    "patch": f.patch})
        if len(out) >= REST_FILE_LIMIT:
            break
    return out


def commit_logins(gh, repository: str, number: int, limit: int = 300) -> dict[str, str]:
    """Commit sha -> the GitHub login GitHub matched its author to (GET .../pulls/{n}/commits)."""
    logins: dict[str, str] = {}
    for i, c in enumerate(gh.get_repo(repository, lazy=True).get_pull(number).get_commits()):
        if i >= limit:
            break
        # Only fields of the list's own answer: `raw_data` or a missing field would fetch each commit.
        author = c.author  # None when GitHub matched no account to the commit's email
        login = author.login if author is not None else None
        if isinstance(login, str) and isinstance(c.sha, str):
            logins[c.sha] = login
    return logins


def file_at(gh, repository: str, path: str, ref: str) -> bytes | None:
    """A file's bytes at commit `ref` (GET /repos/{owner}/{repo}/contents/{path}?ref=), None when
    absent; any other failure raises."""
    from github import UnknownObjectException

    try:
        content = gh.get_repo(repository, lazy=True).get_contents(path, ref=ref)
    except UnknownObjectException:
        return None
    if isinstance(content, list):  # a folder at that path: no file
        return None
    return content.decoded_content
