"""Hosts named in agent files and scripts: the URL's host, its registrable domain, and the
curated lists a host is matched against (installer vendors, paste and relay services, the API
domains of vendors whose credentials a script may send home). Lists are data in data/hosts/.

Matching is on the host's labels, never on substrings of the URL: a vendor's name in a query
string or a sub-domain of an attacker's domain (`rustup.rs.evil.example`) vouches for nothing.
"""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from .matching import rx
from .packaged import data_text, parse_yaml

_IPV4 = rx(r"^\d{1,3}(?:\.\d{1,3}){3}$")


def _data(name: str) -> str:
    return data_text("hosts", name)


@lru_cache(maxsize=1)
def _suffixes() -> frozenset[str]:
    return frozenset(line.strip().lower() for line in _data("public_suffixes.txt").splitlines()
                     if line.strip() and not line.startswith("#"))


@lru_cache(maxsize=None)
def _lists(name: str) -> tuple[frozenset[str], tuple[str, ...]]:
    raw = parse_yaml(_data(name)) or {}
    return (frozenset(d.lower() for d in raw.get("domains", ())),
            tuple(p.lower().rstrip("/") for p in raw.get("paths", ())))


@lru_cache(maxsize=1)
def credential_vendors() -> dict[str, tuple[str, ...]]:
    """Lower-case credential-name fragment -> the vendor's own registrable domains."""
    raw = parse_yaml(_data("credential_vendors.yml")) or {}
    return {k.lower(): tuple(d.lower() for d in v) for k, v in raw.get("vendors", {}).items()}


def host_of(url: str) -> str:
    """The lower-case host of a URL ('' when there is none); tolerates a missing scheme."""
    url = url.strip()
    if "://" not in url[:12]:
        url = "//" + url
    try:
        return (urlsplit(url).hostname or "").lower().rstrip(".")
    except ValueError:
        return ""


def is_ip(host: str) -> bool:
    return bool(host) and (_IPV4.test(host) or ":" in host)


def registrable_domain(host: str) -> str:
    """The domain a registrant controls: `api.github.com` -> `github.com`, `a.b.co.uk` ->
    `b.co.uk`, `x.github.io` -> `x.github.io`. An IP address is returned as it is."""
    host = host.lower().rstrip(".")
    if not host or is_ip(host):
        return host
    labels = host.split(".")
    suffixes = _suffixes()
    for i in range(1, len(labels)):
        if ".".join(labels[i:]) in suffixes:
            return ".".join(labels[i - 1:])
    return ".".join(labels[-2:])


def host_in(host: str, domains) -> bool:
    """True when host is one of domains or a sub-domain of one (label-wise)."""
    host = host.lower().rstrip(".")
    return any(host == d or host.endswith("." + d) for d in domains)


def _listed(url: str, name: str) -> bool:
    host = host_of(url)
    if not host:
        return False
    domains, paths = _lists(name)
    if host_in(host, domains):
        return True
    rest = url.split("://", 1)[-1].lower()
    return any(rest == p or rest.startswith(p + "/") for p in paths)


def is_vendor_installer(url: str) -> bool:
    """An https URL on a curated installer vendor's domain (plain http is never a vendor's)."""
    return url.strip().lower().startswith("https://") and _listed(url, "installers.yml")


def is_paste_or_relay(url: str) -> bool:
    return _listed(url, "paste.yml")


def is_page_script_host(url: str) -> bool:
    """A host web pages commonly load scripts from (public CDNs, analytics, payments: data/hosts/script_hosts.yml)."""
    return _listed(url, "script_hosts.yml")


def vendor_of_credential(name: str) -> tuple[str, ...]:
    """The vendor domains a credential's name points at (by lower-case fragment), or ()."""
    low = name.lower()
    out: list[str] = []
    for fragment, domains in credential_vendors().items():
        if fragment in low:
            out.extend(domains)
    return tuple(out)


def credential_goes_home(credential_name: str, url: str) -> bool:
    """A vendor's credential sent to that vendor's own domain: ordinary API use. A name listed in
    credential_vendors.yml goes home only to its listed domains; any other is read from the
    name's leading word(s) (vendor_home)."""
    host = host_of(url)
    if not host or is_ip(host):
        return False
    domains = vendor_of_credential(credential_name)
    if domains:
        return host_in(host, domains)
    return vendor_home(credential_name, host) or vendor_initials(credential_name, host)


def _abbreviates(word: str, vendor: str) -> bool:
    """`pd` for pagerduty, `nr` for newrelic: a short word that starts as the vendor's name does and
    whose letters follow one another in it."""
    if not (2 <= len(word) <= 4) or not word.isalpha() or not vendor.isalpha() or len(vendor) < len(word) + 3 or word[0] != vendor[0]:
        return False
    i = 0
    for ch in vendor:
        if i < len(word) and ch == word[i]:
            i += 1
    return i == len(word)


def vendor_initials(credential_name: str, host: str) -> bool:
    """PD_ROUTING_KEY to events.pagerduty.com: a name's leading word abbreviating a vendor of
    credential_vendors.yml, sent to one of that vendor's listed domains. The host decides first
    (only a listed vendor's own domain, which no one else can register), so an abbreviation never
    sends a key to a host merely named like it."""
    host = host.lower().rstrip(".")
    words = _owner_words(credential_name, host)
    return bool(words) and any(_abbreviates(words[0], vendor) and host_in(host, domains)
                               for vendor, domains in credential_vendors().items())


def _owner_words(credential_name: str, host: str) -> list[str]:
    """The words of a credential's name, when its leading word may name an owner and the host is
    a name (an address has no owner to match); [] otherwise."""
    if not host or is_ip(host):
        return []
    words = [w for w in credential_name.lower().replace("-", "_").split("_") if w]
    return words if words and words[0] not in _NOT_VENDOR else []


# Words that name what a credential is, not whose: never a vendor.
_NOT_VENDOR = frozenset({"api", "key", "keys", "token", "secret", "access", "auth", "private", "password", "passwd",
                         "client", "bot", "app", "the", "my", "your", "user", "admin", "service", "account", "default",
                         "prod", "production", "dev", "test", "staging", "local", "server", "webhook", "oauth", "bearer",
                         "session", "master", "root", "base", "url", "host", "endpoint", "id", "new", "old", "ci"})
# A vendor's domain label is often its name plus a product word: lumalabs.ai, linear.app, getsentry.
_VENDOR_SUFFIXES = ("", "labs", "app", "hq", "api", "ai", "dev", "cloud", "io", "hub", "inc")


def vendor_home(credential_name: str, host: str) -> bool:
    """LUMA_API_KEY to api.lumalabs.ai, TELEGRAM_BOT_TOKEN to api.telegram.org: the name's leading
    word (or first two words run together) is the label its holder registered, alone or with a
    product suffix. The whole label must match, so anthropic-billing.com or api-anthropic.net
    stay outside; a brand of brands.yml goes home only to its own domains."""
    host = host.lower().rstrip(".")
    words = _owner_words(credential_name, host)
    if not words:
        return False
    cands = [words[0]] + ([words[0] + words[1]] if len(words) > 1 and words[1] not in _NOT_VENDOR else [])
    if look_alike_brand(host):
        return False
    label = registrable_domain(host).split(".", 1)[0]
    own = brands()
    for cand in cands:
        if len(cand) < 3:
            continue
        if cand in own:
            if host_in(host, own[cand]):
                return True
            continue
        if any(label == cand + suffix for suffix in _VENDOR_SUFFIXES):
            return True
    return False


def entry_names_host(entry_text: str, host: str) -> bool:
    """A keychain or vault entry's own name (`-s acme-cli`, `service acme-cli`) names the owner of
    `host`: its first word is the first word of the host's registrable label (acme-cli ->
    api.acme-cloud.io), and the host is no look-alike of a listed brand nor an address."""
    import re

    host = host.lower().rstrip(".")
    if not host or is_ip(host) or look_alike_brand(host):
        return False
    label = registrable_domain(host).split(".", 1)[0].split("-", 1)[0]
    if len(label) < 3 or label in _NOT_VENDOR:
        return False
    words = {w.lower().split("-", 1)[0].split("_", 1)[0] for w in re.findall(r"[A-Za-z][A-Za-z0-9_-]{2,40}", entry_text[:200])[:12]}
    return label in words


@lru_cache(maxsize=1)
def brands() -> dict[str, tuple[str, ...]]:
    """Brand name (as it appears in hosts) -> the brand's own registrable domains."""
    raw = parse_yaml(_data("brands.yml")) or {}
    return {k.lower(): tuple(d.lower() for d in v) for k, v in raw.get("brands", {}).items()}


@lru_cache(maxsize=1)
def pages_accounts() -> dict[str, frozenset[str]]:
    """Code-host Pages suffix (github.io) -> the brands' own accounts published there."""
    raw = parse_yaml(_data("brands.yml")) or {}
    return {k.lower(): frozenset(a.lower() for a in v) for k, v in (raw.get("pages_accounts") or {}).items()}


def brand_pages_site(host: str) -> bool:
    """`huggingface.github.io`: a listed brand account's own Pages site (the whole account label)."""
    reg = registrable_domain(host)
    label, _, suffix = reg.partition(".")
    return label in pages_accounts().get(suffix, frozenset())


def _near(token: str, brand: str) -> bool:
    if token == brand or (len(brand) >= 6 and token.startswith(brand)):
        return True
    if len(brand) < 6 or abs(len(token) - len(brand)) > 1:
        return False
    from .rune.packages import osa_distance
    return token[0] == brand[0] and osa_distance(token, brand, 1) <= 1


@lru_cache(maxsize=4096)
def look_alike_brand(host: str) -> str:
    """The well-known brand a host imitates ('' when none): the brand's name in the label a
    registrant chose, or one of its domains embedded not at the end. A brand's own domains,
    and sub-domains of someone else's domain that merely name the brand (`github.acme.com`,
    a company's own GitHub Enterprise), are not look-alikes."""
    host = host.lower().rstrip(".")
    if not host or is_ip(host):
        return ""
    if brand_pages_site(host):
        return ""
    reg = registrable_domain(host)
    label = reg.split(".", 1)[0]
    tokens = [label] + [t for t in label.split("-") if t]
    for brand, domains in brands().items():
        if reg in domains or host_in(host, domains):
            continue
        if any(_near(t, brand) for t in tokens):
            return brand
        if any((d + "-") in host or (d + ".") in host for d in domains if not host.endswith("." + d)):
            return brand
    return ""


def is_private_host(host: str) -> bool:
    """Loopback, private network and in-house names: not a stranger's host."""
    return (not host or host in ("localhost", "0.0.0.0", "::1", "host.docker.internal") or host.startswith(("127.", "10.", "192.168.", "169.254."))
            or host.endswith((".localhost", ".local", ".internal", ".lan", ".home.arpa")))


def is_loopback_host(host: str) -> bool:
    """This machine itself: what a service here answers never left the computer."""
    host = host.strip("[]").lower()
    return host in ("localhost", "::1") or host.startswith("127.") or host.endswith(".localhost")


def is_known_service(host: str) -> bool:
    """A host on the own domain of a listed vendor (credential vendors, brands)."""
    if not host or is_ip(host) or look_alike_brand(host):
        return False
    domains = {d for ds in credential_vendors().values() for d in ds} | {d for ds in brands().values() for d in ds}
    return host_in(host, domains)
