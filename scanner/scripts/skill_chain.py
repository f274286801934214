"""Collect, encode and send split across the Python files of one skill folder (IG743).

A skill can keep every file innocent-looking on its own: collector.py reads ~/.aws/credentials,
encoder.py base64-encodes "a payload", reporter.py posts "a report" to a fixed address, and
analyze.py merely calls the three in turn. Each file's single-file analysis sees one harmless
step. Here the files of one folder are read together (bounded: the script caps, links never
followed, nothing imported or run): every module is summarised by what its functions and
methods do (collect secrets, encode, send to a hard-coded address), and a module that imports
its siblings is traced so that a value returned by a collecting call which reaches a sending
call - directly or through an encoder - is reported once in every file that forms the chain.
"""
from __future__ import annotations

import ast
import os
import posixpath
import stat
from functools import lru_cache

from ..models import Confidence, Severity
from ..textio import Decoded, read_file
from . import common as c
from . import fact_kinds as K
from . import sink_table as T
from .python.consts import dotted_name
from .python.walk import children, walk

MAX_FILES = 40
MAX_BYTES = 256 * 1024
COLLECT, ENCODE, SEND = "collect", "encode", "send"
ENCODERS = ("b64encode", "urlsafe_b64encode", "b32encode", "b85encode", "hexlify", "compress", "encrypt")
SEND_ATTRS = frozenset({"post", "put", "patch", "urlopen", "sendall", "sendto", "send"})
NET_BASES = ("requests", "httpx", "urllib", "session", "client", "sock", "socket", "http", "aiohttp", "conn")
ENV_VIEWS = frozenset({"items", "keys", "values", "copy"})


def chain_facts(doc) -> list[c.Fact]:
    if "import" not in doc.text and "class " not in doc.text:
        return []
    stem = posixpath.basename(doc.path)[:-3] if doc.path.endswith(".py") else posixpath.basename(doc.path)
    where = (getattr(doc, "context", None) or {}).get("skill_dir")
    folder = posixpath.dirname(doc.path)
    listing = _listing(where[0], folder) if where else ()
    texts = dict(_linked_texts(where[0], folder, listing)) if len(listing) >= 2 else {}
    if texts and stem in texts:
        pass  # the folder's files as read from disk: one computation per folder, shared by every file in it
    elif _one_file_candidate(doc.text):
        texts = {stem: doc.text}  # collect, encode and send split across classes of one file
    else:
        return []
    found = _chains(tuple(sorted(texts.items())))  # same tuple for every file of a folder: computed once
    return list(found.get(stem, ()))


def _one_file_candidate(text: str) -> bool:
    return text.count("class ") >= 2 and "://" in text and any(k in text for k in _SECRET_HINTS)


# Text that must be present for a module to collect secrets the way _summary recognises it.
_SECRET_HINTS = T.ordered("credentials", "chain_hints")


def _listing(root: str, folder: str) -> tuple[tuple[str, int, int], ...]:
    try:
        st = os.lstat(os.path.join(root, folder) if folder else root)
    except OSError:
        return ()
    if not stat.S_ISDIR(st.st_mode):
        return ()
    # One listing per folder and scan: every file of a folder asks, and the folder's own change
    # time moves when a file is added, removed or renamed in it.
    return _listing_cached(root, folder, st.st_mtime_ns, st.st_ctime_ns)


@lru_cache(maxsize=256)
def _listing_cached(root: str, folder: str, _mtime: int, _ctime: int) -> tuple[tuple[str, int, int], ...]:
    out = []
    try:
        with os.scandir(os.path.join(root, folder) if folder else root) as it:
            for e in it:
                if len(out) >= MAX_FILES:
                    break
                if e.name.endswith(".py") and e.is_file(follow_symlinks=False):
                    st = e.stat(follow_symlinks=False)
                    if st.st_size <= MAX_BYTES:
                        out.append((e.name, st.st_size, st.st_mtime_ns))
    except OSError:
        return ()
    return tuple(sorted(out))


# A folder's files are scanned one after another (a chunk keeps a skill's files together), so a
# few folders' texts are enough to share them; 64 kept some 230 source texts alive in every
# process to the end of the scan. What is cached depends only on the folder's listing (names,
# sizes, change times), so the size changes no finding.
FOLDERS_KEPT = 4


@lru_cache(maxsize=FOLDERS_KEPT)
def _sibling_texts_cached(root: str, folder: str, listing: tuple) -> tuple[tuple[str, str], ...]:
    out = []
    for name, _, _ in listing:
        loaded = read_file(root, posixpath.join(folder, name) if folder else name, MAX_BYTES)
        if isinstance(loaded, Decoded):
            out.append((name[:-3], loaded.text))
    return tuple(out)


@lru_cache(maxsize=FOLDERS_KEPT)
def _linked_texts(root: str, folder: str, listing: tuple) -> tuple[tuple[str, str], ...]:
    texts = _sibling_texts_cached(root, folder, listing)
    stems = {s for s, _ in texts}
    # Only a folder where some file imports a sibling can hold a split chain: skip parsing the rest.
    if not any(_imports_of(s, t, stems) for s, t in texts):
        return ()
    return texts


def _imports_of(stem: str, text: str, stems) -> set[str]:
    """Sibling modules a file imports, read from its import lines (str.find over the text, no regex)."""
    names: set[str] = set()
    i = text.find("import")
    while i >= 0 and len(names) < 200:
        line_start = text.rfind("\n", 0, i) + 1
        line_end = text.find("\n", i)
        line = text[line_start:line_end if line_end >= 0 else len(text)].strip()
        words = line.replace(",", " , ").split()
        if words[:1] == ["from"] and len(words) >= 3 and words[2] == "import":
            names.add(words[1].lstrip("."))
        elif words[:1] == ["import"]:
            names.update(w.split(".")[0] for w in words[1:] if w not in (",", "as") and w.isidentifier())
        i = text.find("import", line_end) if line_end >= 0 else -1
    return {o for o in names if o != stem and (stems is None or o in stems)}


def _may_collect(text: str) -> bool:
    return any(k in text for k in _SECRET_HINTS)


def _has_address(text: str) -> bool:
    """A hard-coded address: a URL literal, or one decoded from constants at run time (base64 or hex pieces)."""
    return "://" in text or any(d in text for d in _ADDRESS_DECODERS)


_ADDRESS_DECODERS = ("b64decode", "b32decode", "b85decode", "a85decode", "decodebytes", "fromhex", "unhexlify")


def _may_send(text: str) -> bool:
    return _has_address(text) and any(k in text for k in (".post(", ".put(", ".patch(", "urlopen(", ".send(", ".sendall(", ".sendto("))


@lru_cache(maxsize=FOLDERS_KEPT)
def _chains(files: tuple[tuple[str, str], ...]) -> dict[str, tuple[c.Fact, ...]]:
    texts = dict(files)
    imported = {s: _imports_of(s, t, texts) for s, t in texts.items()}
    coords = [s for s in texts if imported[s] or len(texts) == 1]
    # A chain needs something that reads secrets and something that sends: cheap text tests decide
    # which coordinators are worth parsing, and only they and the modules they import are parsed.
    coords = [s for s in coords if any(_may_collect(texts[m]) for m in imported[s] | {s})
              and any(_may_send(texts[m]) for m in imported[s] | {s})]
    if not coords:
        return {}
    trees: dict[str, ast.Module] = {}
    for s in sorted(set(coords).union(*(imported[x] for x in coords))):
        if s not in coords and not (_may_collect(texts[s]) or _may_send(texts[s]) or any(e in texts[s] for e in ENCODERS)):
            continue  # an imported module with no secret, network or encoder names has no role to play
        try:
            trees[s] = ast.parse(texts[s])
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            continue
    summaries = {s: _summary(tree, _has_address(texts[s])) for s, tree in trees.items()}
    stems = set(trees)
    out: dict[str, list[c.Fact]] = {}
    for coord in coords:
        tree = trees.get(coord)
        roles = [r for m in imported[coord] | {coord} if m in summaries for r in summaries[m]["roles"].values()]
        if tree is None or not any(COLLECT in r for r in roles) or not any(SEND in r for r in roles):
            continue
        for send_call, source, encoders, sink in _trace(tree, coord, stems - {coord}, summaries):
            if source[0] == sink[0] == coord and (source[1].split(".")[0] == sink[1].split(".")[0] or "." not in source[1] or "." not in sink[1]):
                continue  # one function or class: python.flow's own credential-to-network analysis covers it
            files = sorted({coord, source[0], sink[0], *(e[0] for e in encoders)})
            props = {"analysis": "python-ast-skill", "chain": [f"{m}.py:{q}" for m, q in [source, *encoders, sink]], "files": files}
            via = f" through {', '.join(f'{m}.{q}' for m, q in encoders)}" if encoders else ""
            out.setdefault(coord, []).append(_fact(texts[coord], send_call, Severity.HIGH, Confidence.MEDIUM,
                f"Credentials read by {source[1]} ({source[0]}.py) reach {sink[1]} ({sink[0]}.py), which sends them "
                f"to a hard-coded address{via}: collect, encode and send are split across the skill's code", props))
            for role, (m, q) in [("collects", source)] + [("encodes", e) for e in encoders] + [("sends", sink)]:
                if m == coord:
                    continue
                node = summaries[m]["defs"].get(q)
                if node is None:
                    continue
                out.setdefault(m, []).append(_fact(texts[m], node, Severity.MEDIUM, Confidence.MEDIUM,
                    f"{q} {role} the credentials that {coord}.py gathers and sends off the machine "
                    f"(one link of an exfiltration chain split across the skill's files)", props))
    return {p: tuple(_dedupe(fs)) for p, fs in out.items()}


def _dedupe(facts: list[c.Fact]) -> list[c.Fact]:
    seen, out = set(), []
    for f in facts:
        if f.start not in seen:
            seen.add(f.start)
            out.append(f)
    return out


def _fact(text: str, node: ast.AST, sev: Severity, conf: Confidence, message: str, props: dict) -> c.Fact:
    start = _offset(text, node.lineno, node.col_offset)
    end = start + 1
    if isinstance(node, ast.Call):
        end = _offset(text, node.end_lineno or node.lineno, node.end_col_offset or 0)
    else:
        line_end = text.find("\n", start)
        end = line_end if line_end > start else start + 1
    return c.Fact(K.SPLIT_CHAIN, start, max(end, start + 1), message, sev, conf, dict(props))


def _offset(text: str, lineno: int, col: int) -> int:
    pos = 0
    for _ in range(lineno - 1):
        nxt = text.find("\n", pos)
        if nxt < 0:
            return len(text)
        pos = nxt + 1
    line_end = text.find("\n", pos)
    line = text[pos:line_end if line_end >= 0 else len(text)]
    return pos + len(line.encode("utf-8", "surrogatepass")[:col].decode("utf-8", "replace"))


# -- one module: what each function and method does -----------------------------------------
def _summary(tree: ast.Module, has_url: bool) -> dict:
    defs: dict[str, ast.AST] = {}
    owner: dict[str, str] = {}
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs[st.name] = st
        elif isinstance(st, ast.ClassDef):
            for m in st.body:
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defs[f"{st.name}.{m.name}"] = m
                    owner[f"{st.name}.{m.name}"] = st.name
    classes = {q.split(".")[0] for q in owner.values()}
    roles: dict[str, set[str]] = {}
    edges: dict[str, set[str]] = {}
    for q, fn in defs.items():
        r: set[str] = set()
        e: set[str] = set()
        cls = owner.get(q)
        for n in walk(fn):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and c.is_strong_credential_path(n.value):
                r.add(COLLECT)
            elif isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Attribute):
                    base = dotted_name(f.value)
                    if f.attr in ENV_VIEWS and base == "os.environ":
                        r.add(COLLECT)
                    elif f.attr.endswith(ENCODERS):
                        r.add(ENCODE)
                    elif f.attr in SEND_ATTRS and has_url and base.lower().startswith(NET_BASES):
                        r.add(SEND)
                    if isinstance(f.value, ast.Name) and (f.value.id in ("self", "cls") and cls or f.value.id in classes):
                        e.add(f"{cls if f.value.id in ('self', 'cls') else f.value.id}.{f.attr}")
                elif isinstance(f, ast.Name):
                    if f.id == "dict" and n.args and dotted_name(n.args[0]) == "os.environ":
                        r.add(COLLECT)
                    elif f.id.endswith(ENCODERS):
                        r.add(ENCODE)
                    elif f.id == "urlopen" and has_url:
                        r.add(SEND)
                    e.add(f.id)
        roles[q], edges[q] = r, e
    for _ in range(3):
        for q, e in edges.items():
            for callee in e:
                roles[q] |= roles.get(callee, set())
    return {"defs": defs, "roles": roles, "classes": classes}




# -- the coordinating module: does a collected value reach a sending call? --------------------
def _trace(tree: ast.Module, own: str, siblings: set[str], summaries: dict):
    imports: dict[str, tuple[str, str]] = {}  # local name -> (module, name in it); name "" for the module itself
    for st in tree.body:
        if isinstance(st, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            imports[st.name] = (own, st.name)
    for n in walk(tree):
        if isinstance(n, ast.ImportFrom) and n.module and n.module.lstrip(".") in siblings and n.level <= 1:
            for a in n.names:
                imports[a.asname or a.name] = (n.module.lstrip("."), a.name)
        elif isinstance(n, ast.Import):
            for a in n.names:
                if a.name in siblings:
                    imports[a.asname or a.name] = (a.name, "")
    if not imports:
        return
    scopes = [(tree.body, "its top-level code")] + [(fn.body, fn.name) for fn in walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for body, name in scopes:
        yield from _trace_scope(body, imports, summaries, (own, name))


def _collects_here(value: ast.AST) -> bool:
    """The statement itself gathers secrets: os.environ's items/keys/values/copy, dict(os.environ), a credential path."""
    for n in walk(value):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and c.is_strong_credential_path(n.value):
            return True
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and f.attr in ENV_VIEWS and dotted_name(f.value) == "os.environ":
                return True
            if isinstance(f, ast.Name) and f.id == "dict" and n.args and dotted_name(n.args[0]) == "os.environ":
                return True
    return False


_FILLS = frozenset({"update", "append", "extend", "setdefault", "add", "insert", "__setitem__"})


def _trace_scope(body: list[ast.stmt], imports: dict, summaries: dict, here: tuple[str, str] = ("", "")):
    inst: dict[str, tuple[str, str]] = {}
    taint: dict[str, tuple[tuple[str, str], list]] = {}  # name -> (collect source, encoders so far)
    stmts = sorted((n for st in body for n in _own_nodes(st) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return, ast.AugAssign))),
                   key=lambda n: (n.lineno, n.col_offset))

    def resolve(call: ast.Call) -> tuple[str, str] | None:
        f = call.func
        if isinstance(f, ast.Name) and f.id in imports:
            return imports[f.id]
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            b = f.value.id
            if b in inst:
                return inst[b][0], f"{inst[b][1]}.{f.attr}"
            if b in imports:
                m, name = imports[b]
                return (m, f"{name}.{f.attr}") if name else (m, f.attr)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Call):
            cls = named(f.value.func)  # Reporter().send(x), mod.Reporter().send(x)
            return (cls[0], f"{cls[1]}.{f.attr}") if cls is not None and cls[1] else None
        if isinstance(f, ast.Attribute):
            cls = named(f.value)  # mod.Class.method(x)
            return (cls[0], f"{cls[1]}.{f.attr}") if cls is not None and cls[1] else None
        return None

    def named(expr: ast.AST) -> tuple[str, str] | None:
        """`Class` or `module.Class` as (module, Class)."""
        if isinstance(expr, ast.Name) and expr.id in imports:
            return imports[expr.id]
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id in imports:
            m, name = imports[expr.value.id]
            return (m, expr.attr) if not name else None
        return None

    def roles(target: tuple[str, str] | None) -> set[str]:
        if target is None or target[0] not in summaries:
            return set()
        return summaries[target[0]]["roles"].get(target[1], set())

    for st in stmts[:500]:
        value = st.value if not isinstance(st, ast.Expr) else st.value
        if value is None:
            continue
        carried = None
        for n in walk(value):
            if isinstance(n, ast.Name) and n.id in taint and carried is None:
                carried = taint[n.id]
            elif isinstance(n, ast.Call):
                tgt = resolve(n)
                if tgt is not None and COLLECT in roles(tgt) and carried is None:
                    carried = (tgt, [])
        if carried is None and here[0] and _collects_here(value):
            carried = ((here[0], here[1]), [])  # {k: v for k, v in os.environ.items() if ...} gathered in this scope
        if carried is not None:
            for n in walk(value):
                if isinstance(n, ast.Call):
                    tgt = resolve(n)
                    r = roles(tgt)
                    if tgt is None or not _args_carry(n, taint, resolve, roles):
                        continue
                    if SEND in r:
                        yield n, carried[0], carried[1], tgt
                        carried = None
                        break
                    if ENCODE in r and tgt not in carried[1]:
                        carried = (carried[0], carried[1] + [tgt])
        targets = st.targets if isinstance(st, ast.Assign) else ([st.target] if isinstance(st, (ast.AnnAssign, ast.AugAssign)) else [])
        if isinstance(st, ast.Expr) and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr in _FILLS and isinstance(value.func.value, ast.Name):
            targets = [value.func.value]  # values.update(collected): the container now holds it
        for t in targets:
            root = t.value if isinstance(t, ast.Subscript) else t
            if isinstance(root, ast.Name):
                cls = named(value.func) if isinstance(value, ast.Call) else None
                if cls is not None and cls[1] in summaries.get(cls[0], {}).get("classes", ()):
                    inst[root.id] = cls
                if carried is not None:
                    taint[root.id] = carried


def _args_carry(call: ast.Call, taint: dict, resolve, roles) -> bool:
    for a in list(call.args) + [k.value for k in call.keywords]:
        for n in walk(a):
            if isinstance(n, ast.Name) and n.id in taint:
                return True
            if isinstance(n, ast.Call) and n is not call and COLLECT in roles(resolve(n)):
                return True
    return False


def _own_nodes(st: ast.stmt):
    """Statements of one scope: nested function and class bodies are scopes of their own."""
    stack = [st]
    while stack:
        n = stack.pop()
        yield n
        for ch in children(n):
            if not isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                stack.append(ch)
