"""One integrity check of a working tree: store, classification, signatures, untrusted files.

Shared by `instruction-guard verify` and the integrity engine so both say the same thing.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..config import Config
from .classify import FileStatus, classify
from .store import SIG_SUFFIX, TrustStore, load, read_bytes


@dataclass
class IntegrityReport:
    store_path: str
    store: TrustStore | None
    statuses: list[FileStatus] = field(default_factory=list)
    signatures: list = field(default_factory=list)  # signing.SignatureCheck

    @property
    def mismatches(self) -> list[FileStatus]:
        return [s for s in self.statuses if s.mismatch]

    @property
    def failed(self) -> bool:
        return bool(self.mismatches) or any(c.failed for c in self.signatures)


def agent_files(root: str, config: Config) -> list[str]:
    """Agent files the catalog finds in the tree, less this tool's own configuration and store.

    One walk of the tree (under the walk's own bounds on huge skill folders) and the catalog;
    links are listed as themselves.
    """
    from ..agent_map import Catalog, skill_roots
    from ..targets import walk_tree

    catalog = Catalog(config.include, config.exclude)
    files, dir_links = walk_tree(root)
    roots = skill_roots(files)
    found = []
    for path in files + dir_links:
        kind = catalog.classify(path, roots)
        if kind is not None and kind != "guard" and path != config.trust_store and not path.endswith(SIG_SUFFIX):
            found.append(path)
    return sorted(found)


def signed_paths(root: str, config: Config, store: TrustStore) -> list[str]:
    """The store itself, and every trusted file that carries a detached signature."""
    paths = [config.trust_store]
    paths += [p for p in sorted(store.entries) if os.path.isfile(os.path.join(root, p + SIG_SUFFIX))]
    return paths


def check_signatures(root: str, config: Config, store: TrustStore) -> list:
    """SignatureChecks of the signed files; cryptography is loaded only when signing is in use."""
    paths = signed_paths(root, config, store)
    if not config.public_keys and not any(os.path.isfile(os.path.join(root, p + SIG_SUFFIX)) for p in paths):
        return []
    from . import signing

    keys = signing.public_keys(config.public_keys)
    checks = []
    for path in paths:
        data = read_bytes(root, path)
        if data is None:
            continue
        sig = read_bytes(root, path + SIG_SUFFIX)
        check = signing.verify_bytes(path, data, sig, keys)
        if check.outcome == signing.UNSIGNED and not keys:
            continue  # signing is optional: nothing configured, nothing signed
        checks.append(check)
    return checks


def check_tree(root: str, config: Config, paths: list[str] | None = None,
               include_untrusted: bool = True) -> IntegrityReport:
    store = load(root, config.trust_store)
    report = IntegrityReport(config.trust_store, store)
    if store is None:
        return report
    untrusted = [p for p in agent_files(root, config) if p not in store.entries] if include_untrusted and paths is None else []
    report.statuses = classify(root, store, paths, untrusted)
    report.signatures = check_signatures(root, config, store)
    return report
