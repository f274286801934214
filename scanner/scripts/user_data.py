"""What a script does to the user's own data (IG740-IG742): locking a file behind a password and
deleting the original, deleting documents, mail, calendars or contacts by pattern, and
harvesting location, mailbox addresses or the address book.

Shared by the Python pass (python.behaviour's syntax-tree walk), the shell pass (shell.flow's
tree-sitter commands) and a language-neutral text pass for API names that mean the same thing
in any language. Every check is a substring gate followed by RE2 or an `ast` walk: linear.
"""
from __future__ import annotations

import ast

from ..matching import rx
from ..models import Confidence, Severity
from . import common as c
from . import fact_kinds as K
from .python.walk import walk


# File-name patterns that select the user's own documents, mail, calendars and contacts (not
# build output, logs or caches, which cleanup scripts delete every day).
PERSONAL_PATTERN = rx(
    r"(?i)(?:\.(?:ics|ical|icalendar|icbu|vcf|vcard|eml|emlx|mbox|msg|pst|ost|docx?|xlsx?|pptx?|odt|ods|odp|pages|numbers|keynote)\b|"
    r"calendar|contacts?\b|meeting|appointment|inbox|mailbox|\bevents?\b|(?:^|[*/_.-])events?[*_.-])"
)

LOCATION_API = rx(
    r"(?m)(?:\bCLLocationManager\b|\bCoreLocationCLI\b|(?:winsdk|winrt)\.windows\.devices\.geolocation|"
    r"Windows\.Devices\.Geolocation\.Geolocator|\bGeoCoordinateWatcher\b|\btermux-location\b|^\s*(?:import|from)\s+CoreLocation\b)"
)
MAIL_ENUM = rx(
    r"(?i)(?:users\.messages\.list\b|users\(\)\s*\.\s*messages\(\)\s*\.\s*list\b|imap[\w.]*\.search\([^)\n]{0,60}\bALL\b|"
    r"\.search\(\s*None\s*,\s*['\"](?:ALL|\(ALL\))|\bmailbox\.mbox\(|Library/Mail/|Messages/chat\.db)"
)
EMAIL_REGEX_LITERAL = rx(r"(?:\]\+@\[|\]\+@\\w|\\w\+@|\[\^@\\s\]\+@|\\S\+@\\S)")
CONTACTS_ENUM = rx(
    r"(?:\bCNContactStore\b|\benumerateContactsWithFetchRequest\b|people\.connections\.list\b|people\(\)\s*\.\s*connections\(\)\s*\.\s*list\b|"
    r"AddressBook-v\d+\.abcddb|\btermux-contact-list\b|\bABAddressBookCopyArrayOfAllPeople\b)"
)
_TEXT_GATES = ("CLLocation", "CoreLocation", "Geolocat", "GeoCoordinate", "termux-", "messages.list", "messages()", "imap", "IMAP",
               "mbox", "Library/Mail", "chat.db", "CNContact", "enumerateContacts", "connections.list", "connections()", "AddressBook")
_LOCK_WORDS = ("encrypt", "Encrypt", "password", "Password", "PASSWORD", "zip", "Fernet", "AES", "gpg", "7z")


def text_shapes(doc) -> list[c.Fact]:
    """API names that mean the same harvest in any language (also inside heredocs and strings run later)."""
    text = doc.text
    if not any(g in text for g in _TEXT_GATES):  # substring tests: cheaper here than one RE2 pass
        return []
    out: list[c.Fact] = []
    props = {"analysis": "text"}
    m = next(iter(doc.finditer(LOCATION_API, normalized=False)), None)
    if m is not None:
        out.append(c.Fact(K.PERSONAL_HARVEST, m.start, m.end, "Reads the device's precise location (GPS / location services)",
                          Severity.MEDIUM, Confidence.MEDIUM, {**props, "data": "location"}))
    m = next(iter(doc.finditer(MAIL_ENUM, normalized=False)), None)
    if m is not None and "@" in text and next(iter(doc.finditer(EMAIL_REGEX_LITERAL, normalized=False)), None) is not None:
        out.append(c.Fact(K.PERSONAL_HARVEST, m.start, m.end, "Walks the user's mailbox and extracts every e-mail address (address harvesting)",
                          Severity.MEDIUM, Confidence.MEDIUM, {**props, "data": "mail addresses"}))
    m = next(iter(doc.finditer(CONTACTS_ENUM, normalized=False)), None)
    if m is not None:
        out.append(c.Fact(K.PERSONAL_HARVEST, m.start, m.end, "Reads the user's whole address book", Severity.MEDIUM, Confidence.LOW,
                          {**props, "data": "contacts"}))
    return out


# -- Python ------------------------------------------------------------------------------
LOCK_SUFFIXES = ("setpassword", "setencryption", "AESZipFile", "encryptFile", "encrypt_file", "Fernet", "AES.new", "AESGCM",
                 "ChaCha20Poly1305", "encrypt")
LOCK_TOOLS = {"zip": ("-P", "-e", "--password", "--encrypt"), "7z": ("-p",), "7za": ("-p",), "gpg": ("-c", "--symmetric", "-e", "--encrypt"),
              "openssl": ("enc",), "ccrypt": ("",), "age": ("-p", "-r", "--passphrase", "--recipient")}
FEED_ATTRS = frozenset({"write", "encryptFile", "encrypt_file", "encrypt", "read_bytes", "read_text", "open", "copyfileobj"})
DELETE_QUALS = frozenset({"os.remove", "os.unlink", "shutil.rmtree", "send2trash.send2trash", "send2trash"})
GLOB_ATTRS = frozenset({"glob", "rglob", "iglob"})


def python_shapes(b) -> None:
    """Run on python.behaviour.Behaviour: ransom-lock and pattern deletion of personal files."""
    text = b.text
    if not ("unlink" in text or "remove" in text or "rmtree" in text or "send2trash" in text):
        return
    if any(w in text for w in _LOCK_WORDS):
        _ransom_lock(b)
    if "glob" in text or "listdir" in text or "scandir" in text or "walk" in text:
        _pattern_deletion(b)


def _scopes(b):
    """(function or None, its own calls) for every function and for the module body."""
    inner = set()
    for fn in b.defs:
        calls = b.fn_calls.get(id(fn), [])
        inner.update(id(x) for x in calls)
        yield fn, calls
    yield None, [x for x in b.calls if id(x) not in inner]


def _name_of(node: ast.AST) -> str:
    """`x`, `self.x` or `x.name` as the name of the file it stands for."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id if node.value.id != "self" else "self." + node.attr
    return ""


def _is_lock(b, call: ast.Call) -> bool:
    q = b.q(call)
    if q.endswith(LOCK_SUFFIXES):
        return True
    return bool(call.args) and _argv_locks(call.args[0])


def _argv_locks(node: ast.AST) -> bool:
    """["zip", "-P", pw, out, src] handed to subprocess: an encrypting archiver with a password."""
    if not isinstance(node, (ast.List, ast.Tuple)) or not node.elts:
        return False
    words = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if not words:
        return False
    flags = LOCK_TOOLS.get(words[0].rsplit("/", 1)[-1])
    return flags is not None and (flags == ("",) or any(w in flags or (flags == ("-p",) and w.startswith("-p")) for w in words[1:]))


def _helpers(b):
    """Local functions that lock a file, and local functions that delete their own parameter (by position)."""
    lockers, deleters = set(), {}
    for fn in b.defs:
        calls = b.fn_calls.get(id(fn), [])
        if any(_is_lock(b, x) for x in calls):
            lockers.add(fn.name)
        params = [a.arg for a in fn.args.args]
        for x in calls:
            target = _deleted(b, x, {})
            if target in params:
                deleters[fn.name] = params.index(target)
                break
    return lockers, deleters


def _ransom_lock(b) -> None:
    lockers, deleters = _helpers(b)
    for fn, calls in _scopes(b):
        locks = [x for x in calls if _is_lock(b, x) or (isinstance(x.func, ast.Name) and x.func.id in lockers)]
        if not locks:
            continue
        fed: set[str] = set()
        outputs: set[str] = set()
        for x in calls:
            f = x.func
            attr = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
            q = b.q(x)
            if attr in ("ZipFile", "AESZipFile") or q.endswith(("ZipFile", "AESZipFile")):
                outputs.update(_name_of(a) for a in x.args[:1])
                continue
            if attr == "open" and len(x.args) >= 2 and isinstance(x.args[1], ast.Constant) and "w" in str(x.args[1].value):
                outputs.update(_name_of(a) for a in x.args[:1])
                continue
            if attr in FEED_ATTRS or x in locks:
                fed.update(_name_of(a) for a in x.args)
                if attr in ("read_bytes", "read_text", "open") and isinstance(f, ast.Attribute):
                    fed.add(_name_of(f.value))
            if x in locks and x.args and isinstance(x.args[0], (ast.List, ast.Tuple)):
                fed.update(_name_of(e) for e in x.args[0].elts[1:])
        fed -= outputs | {""}
        for x in calls:
            target = _deleted(b, x, deleters)
            if target and target in fed:
                b.emit(K.RANSOM_LOCK, x, f"Encrypts or password-locks {target!r} and then deletes the original (ransomware shape)",
                       Severity.MEDIUM, Confidence.MEDIUM, file=target)
                break


def _deleted(b, call: ast.Call, deleters: dict | None = None) -> str:
    q = b.q(call)
    f = call.func
    if deleters and isinstance(f, ast.Name) and f.id in deleters and len(call.args) > deleters[f.id]:
        return _name_of(call.args[deleters[f.id]])  # wipe(path) where wipe() removes its parameter
    if q in DELETE_QUALS and call.args:
        return _name_of(call.args[0])
    if isinstance(f, ast.Attribute) and f.attr in ("unlink", "rmtree") and not call.args:
        return _name_of(f.value)
    return ""


def _pattern_deletion(b) -> None:
    assigned: dict[str, list[ast.AST]] | None = None
    _, deleters = _helpers(b)
    local_defs = {fn.name: fn for fn in b.defs}
    for loop in b.loops:
        if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.target, ast.Name):
            continue
        var = loop.target.id
        deletes = [x for x in _calls_in(loop.body) if _deleted(b, x, deleters) == var]
        if not deletes:
            continue
        if assigned is None:  # built once, and only for a file that deletes inside a loop
            assigned = {}
            for st in walk(b.tree):
                if isinstance(st, ast.Assign):
                    for t in st.targets:
                        if isinstance(t, ast.Name):
                            assigned.setdefault(t.id, []).append(st.value)
        sources = [loop.iter] + [v for n in pr_names(loop.iter) for v in assigned.get(n, ())]
        # `for f in targets():` where targets() globs: the helper's body names the pattern.
        sources += [local_defs[n] for src in list(sources) for n in pr_names(src) if n in local_defs]
        patterns = [s for src in sources for s in _glob_patterns(b, src)]
        patterns += [s for s in _filter_strings(loop.body) if PERSONAL_PATTERN.test(s)]
        hit = next((p for p in patterns if PERSONAL_PATTERN.test(p)), None)
        if hit is not None:
            b.emit(K.DATA_WIPE, deletes[0], f"Deletes every file matching {hit!r}: the user's documents, mail, calendar or contacts",
                   Severity.MEDIUM, Confidence.MEDIUM, pattern=hit[:80])


def pr_names(node: ast.AST) -> list[str]:
    return [n.id for n in walk(node) if isinstance(n, ast.Name)][:20]


def _calls_in(body: list[ast.stmt]) -> list[ast.Call]:
    return [n for st in body for n in walk(st) if isinstance(n, ast.Call)][:200]


def _glob_patterns(b, node: ast.AST) -> list[str]:
    out = []
    for n in walk(node):
        if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str):
            f = n.func
            if (isinstance(f, ast.Attribute) and f.attr in GLOB_ATTRS) or (isinstance(f, ast.Name) and f.id in GLOB_ATTRS):
                out.append(n.args[0].value)
    return out


def _filter_strings(body: list[ast.stmt]) -> list[str]:
    """Literals a loop body tests names against (`if f.endswith(('.ics', '.vcf')):`)."""
    out = []
    for st in body:
        if isinstance(st, ast.If):
            out += [n.value for n in walk(st.test) if isinstance(n, ast.Constant) and isinstance(n.value, str)][:20]
    return out


# -- shell ---------------------------------------------------------------------------------
ARCHIVE_DELETE_FLAGS = {"zip": ("-m", "--move"), "7z": ("-sdel",), "7za": ("-sdel",)}


def shell_shapes(flow) -> None:
    """Run on shell.flow.ShellFlow after its commands are collected."""
    locked: dict[str, object] = {}  # file word (raw and value) -> the locking command
    for n in flow._commands:
        prog, args, vals = flow.command_parts(n)
        if prog in LOCK_TOOLS and _shell_locks(prog, vals):
            files = [(a, v) for a, v in zip(args, vals) if not v.startswith("-")]
            for a, v in files:
                locked[a.text.decode("utf-8", "replace")] = n
                locked[v] = n
            if any(v in ARCHIVE_DELETE_FLAGS.get(prog, ()) for v in vals):
                flow.emit(K.RANSOM_LOCK, n, f"{prog} password-locks files and removes the originals (ransomware shape)",
                          Severity.MEDIUM, Confidence.MEDIUM)
        elif prog in ("rm", "shred", "unlink", "srm") and locked:
            for a, v in zip(args, vals):
                if v.startswith("-"):
                    continue
                if a.text.decode("utf-8", "replace") in locked or v in locked:
                    flow.emit(K.RANSOM_LOCK, n, f"Deletes {v[:60]!r} after encrypting or password-locking it (ransomware shape)",
                              Severity.MEDIUM, Confidence.MEDIUM)
                    break
        if prog == "find" and any(v in ("-delete",) for v in vals) or (prog == "find" and "-exec" in vals and
                                                                         any(v in ("rm", "shred", "/bin/rm") for v in vals)):
            names = [vals[i + 1] for i, v in enumerate(vals[:-1]) if v in ("-name", "-iname", "-path", "-ipath", "-regex")]
            hit = next((p for p in names if PERSONAL_PATTERN.test(p)), None)
            if hit is not None:
                flow.emit(K.DATA_WIPE, n, f"Deletes every file matching {hit!r}: the user's documents, mail, calendar or contacts",
                          Severity.MEDIUM, Confidence.MEDIUM)
        elif prog in ("rm", "shred", "srm"):
            hit = next((v for v in vals if "*" in v and PERSONAL_PATTERN.test(v)), None)
            if hit is not None:
                flow.emit(K.DATA_WIPE, n, f"Deletes every file matching {hit!r}: the user's documents, mail, calendar or contacts",
                          Severity.MEDIUM, Confidence.MEDIUM)


def _shell_locks(prog: str, vals: list[str]) -> bool:
    flags = LOCK_TOOLS[prog]
    if flags == ("",):
        return True
    if prog == "openssl":
        return "enc" in vals and "-d" not in vals
    if prog in ("7z", "7za"):
        return any(v.startswith("-p") and v != "-p" or v == "-p" for v in vals) and "a" in vals
    return any(v in flags for v in vals)
