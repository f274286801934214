"""What the shell readers share: the tree-sitter-bash parser, a tree walk, the download tools,
and the commands that print a credential (`gh auth token`, `git credential fill`, ...).
shell.flow, shell.shapes and command_grader import it rather than each other."""
from __future__ import annotations

from functools import lru_cache

from ... import hosts as H
from ...matching import rx
from .. import sink_table as T

FETCHERS = T.names("shell", "fetchers")  # the sink table's download commands

# Credential sources (strong: reading one is reading a secret).
_CRED_COMMAND = rx(
    r"(?i)(?:\bgit\s+credential(?:-\w+)?\s+(?:fill|get)\b|\bgh\s+auth\s+token\b|\bgh\s+auth\s+status\s+(?:-t|--show-token)\b"
    r"|\bsecurity\s+(?:find-generic-password|find-internet-password|dump-keychain)\b|\bsecret-tool\s+lookup\b"
    r"|\baws\s+configure\s+(?:export-credentials|get\s+\S*(?:secret|token|key))|\baws\s+sts\s+get-session-token\b|\baws\s+ecr\s+get-login-password\b"
    r"|\bgcloud\s+(?:auth\s+)?(?:application-default\s+)?print-(?:access|identity)-token\b|\baz\s+account\s+get-access-token\b"
    r"|\bkubectl\s+config\s+view\b[^\n|]*--raw|\bop\s+(?:read|item\s+get)\b|\bvault\s+(?:kv\s+get|read)\b|\bpass\s+show\b|\bkeyring\s+get\b"
    r"|\bnpm\s+token\s+(?:list|ls)\b|\bcmdkey\s+/list\b|\bdocker-credential-\w+\s+get\b|/proc/self/environ"
    # the cloud instance's own role credentials, handed out by its metadata service
    r"|\b169\.254\.169\.254/(?:latest/meta-data/iam/security-credentials|metadata/identity/oauth2/token)\b"
    r"|\bmetadata(?:\.google\.internal)?/computeMetadata/v1/instance/service-accounts/[^\s/]+/(?:token|identity)\b"
    r"|\b100\.100\.100\.200/latest/meta-data/ram/security-credentials\b|\b169\.254\.170\.2/"
    r"|\bgpg2?\s+(?:[^\n|]*\s)?--export-secret-(?:keys|subkeys)\b)"
)

_CRED_COMMAND_VENDOR = (("gh ", "gh_token"), ("aws ", "aws"), ("gcloud ", "google"), ("az ", "azure"),
                        ("npm token", "npm_token"), ("docker-credential", ""), ("git credential", ""),
                        # an instance's role credentials used against its own cloud's API
                        ("169.254.169.254/latest/", "aws"), ("169.254.170.2/", "aws"), ("/computemetadata/", "google"),
                        ("169.254.169.254/metadata/identity", "azure"))


def credential_command_goes_home(text: str, url: str) -> bool:
    """`curl -H "Authorization: token $(gh auth token)" https://api.github.com`: a CLI's own token sent to its vendor."""
    low = text.lower()
    vendors = [v for k, v in _CRED_COMMAND_VENDOR if k in low]
    return bool(vendors) and all(v and H.credential_goes_home(v, url) for v in vendors)


@lru_cache(maxsize=1)
def _parser():
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bash.language()))


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)
