"""Optional Ed25519 signatures of the trust store (or any approved file), with `cryptography`.

`sign FILE --key KEY` writes a detached signature next to the file, `FILE.sig`: a small JSON
record with the algorithm, the signing key's fingerprint, the signed file's sha256 and the
signature. Public keys are listed in configuration (`integrity.public-keys: {name: key}`), as
an OpenSSH `ssh-ed25519 ...` line, a PEM public key, or 32 raw bytes in base64.

Nothing here ever prints or returns private-key material: errors name the key file, never its
content, and keys are identified by the fingerprint of their public half.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..errors import UsageError
from .store import SIG_SUFFIX

ALGORITHM = "ed25519"
MAX_SIG_BYTES = 64 * 1024

GOOD = "good"
BAD = "bad"  # the file changed since it was signed, or the signature is forged
UNKNOWN_KEY = "unknown-key"  # signed by a key the configuration does not list
NO_KEYS = "no-public-keys"  # a signature exists but no public key is configured to check it
UNSIGNED = "unsigned"  # keys are configured but the file carries no signature
MALFORMED = "malformed"


class SigningError(UsageError):
    """A key or signature could not be used; the message never contains key material."""


@dataclass(frozen=True)
class SignatureCheck:
    path: str
    outcome: str
    detail: str
    key_name: str | None = None
    fingerprint: str | None = None

    @property
    def failed(self) -> bool:
        return self.outcome in (BAD, UNKNOWN_KEY, MALFORMED)


def _raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def fingerprint(key: Ed25519PublicKey) -> str:
    return "SHA256:" + hashlib.sha256(_raw_public(key)).hexdigest()[:32]


def public_line(key: Ed25519PublicKey) -> str:
    """The OpenSSH one-line form of a public key, for `integrity.public-keys` in configuration."""
    return key.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode()


def load_private_key(path: str, passphrase: bytes | None = None) -> Ed25519PrivateKey:
    try:
        with open(path, "rb") as fh:
            data = fh.read(64 * 1024)
    except OSError as exc:
        raise SigningError(f"{path}: cannot read the key ({exc.strerror})") from None
    loaders = (serialization.load_pem_private_key, serialization.load_ssh_private_key)
    for loader in loaders:
        try:
            key = loader(data, password=passphrase)
        except TypeError:
            raise SigningError(f"{path}: the key is encrypted; give its passphrase with --passphrase-env VAR") from None
        except (ValueError, UnsupportedAlgorithm):
            continue
        if not isinstance(key, Ed25519PrivateKey):
            raise SigningError(f"{path}: not an Ed25519 private key")
        return key
    raise SigningError(f"{path}: not a readable Ed25519 private key (PEM PKCS#8 or OpenSSH), or wrong passphrase")


def parse_public_key(text: str, name: str = "key") -> Ed25519PublicKey:
    text = text.strip()
    try:
        if text.startswith("ssh-ed25519 "):
            key = serialization.load_ssh_public_key(text.encode())
        elif text.startswith("-----BEGIN"):
            key = serialization.load_pem_public_key(text.encode())
        else:
            raw = base64.b64decode(text, validate=True)
            if len(raw) != 32:
                raise ValueError("not 32 bytes")
            key = Ed25519PublicKey.from_public_bytes(raw)
    except (ValueError, binascii.Error, UnsupportedAlgorithm):
        raise SigningError(f"integrity.public-keys.{name}: not an Ed25519 public key (ssh-ed25519 line, PEM, or base64 of 32 bytes)") from None
    if not isinstance(key, Ed25519PublicKey):
        raise SigningError(f"integrity.public-keys.{name}: not an Ed25519 key")
    return key


def public_keys(configured: dict[str, str]) -> dict[str, Ed25519PublicKey]:
    return {name: parse_public_key(text, name) for name, text in sorted(configured.items())}


def _message(data: bytes) -> bytes:
    # Sign a domain-separated digest, so a signature over a trust store cannot be replayed as
    # a signature over some other protocol's message.
    return b"instruction-guard-signature-v1\0" + hashlib.sha256(data).digest()


def sign_bytes(data: bytes, key: Ed25519PrivateKey) -> str:
    """The detached signature record (JSON text with a trailing newline) for these bytes."""
    record = {
        "algorithm": ALGORITHM,
        "key": fingerprint(key.public_key()),
        "sha256": hashlib.sha256(data).hexdigest(),
        "signature": base64.b64encode(key.sign(_message(data))).decode(),
        "version": 1,
    }
    return json.dumps(record, indent=2, sort_keys=True) + "\n"


def verify_bytes(path: str, data: bytes, sig_text: bytes | None, keys: dict[str, Ed25519PublicKey]) -> SignatureCheck:
    if sig_text is None:
        if keys:
            return SignatureCheck(path, UNSIGNED, f"public keys are configured but {path}{SIG_SUFFIX} is missing")
        return SignatureCheck(path, UNSIGNED, "not signed")
    try:
        record = json.loads(sig_text[:MAX_SIG_BYTES].decode("utf-8"))
        sig = base64.b64decode(record["signature"], validate=True)
        claimed = str(record.get("key", ""))
        if record.get("algorithm") != ALGORITHM:
            raise ValueError("algorithm")
    except (ValueError, KeyError, TypeError, binascii.Error, UnicodeDecodeError):
        return SignatureCheck(path, MALFORMED, f"{path}{SIG_SUFFIX} is not an instruction-guard Ed25519 signature record")
    if not keys:
        return SignatureCheck(path, NO_KEYS, "signed, but no public key is configured (integrity.public-keys) to check it",
                              fingerprint=claimed or None)
    message = _message(data)
    ordered = sorted(keys.items(), key=lambda kv: fingerprint(kv[1]) != claimed)
    for name, key in ordered:
        try:
            key.verify(sig, message)
        except InvalidSignature:
            continue
        return SignatureCheck(path, GOOD, f"signature verifies with key {name!r}", name, fingerprint(key))
    if any(fingerprint(k) == claimed for k in keys.values()):
        return SignatureCheck(path, BAD, "the signature no longer verifies: the file changed after it was signed",
                              fingerprint=claimed)
    return SignatureCheck(path, UNKNOWN_KEY, "signed by a key that is not in integrity.public-keys "
                          f"({claimed or 'unnamed key'}); the signature does not verify with any configured key",
                          fingerprint=claimed or None)


def generate_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def private_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
