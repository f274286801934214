"""Token vocabularies of the languages read without a parser (all patterns compile under RE2).

For each language: calls that run code (EXEC), that spawn processes (SPAWN), that fetch from
the network (FETCH), that decode (DECODE), that send (SEND), that dump the environment
(ENV_DUMP), how a secret environment variable is read (SECRET_ENV, group 1 is its name), how
a variable is assigned (ASSIGN, groups: name, right-hand side) and direct one-statement shapes.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..matching import Regex, rx
from ..models import Severity
from . import common as c
from . import fact_kinds as K


@dataclass(frozen=True)
class Vocabulary:
    exec_: Regex
    spawn: Regex
    fetch: Regex
    decode: Regex
    send: Regex
    env_dump: Regex
    secret_env: Regex
    assign: Regex
    strings: Regex
    direct: tuple[tuple[str, Regex, Severity, str], ...] = field(default_factory=tuple)


_DQ = r'"(?:[^"\\\n]|\\.)*"'
_SQ = r"'(?:[^'\\\n]|\\.)*'"
_BT = r"`(?:[^`\\]|\\.)*`"

JS = Vocabulary(
    exec_=rx(r"(?:\beval\s*\(|\bnew\s+Function\s*\(|\bFunction\s*\(|\bvm\.run(?:InThisContext|InNewContext|InContext)\s*\(|\bnew\s+vm\.Script\s*\(|\bsetTimeout\s*\(\s*(?:[\w.]+\s*\+|`|'|\")|\.then\s*\(\s*(?:eval|Function)\s*\))"),
    spawn=rx(r"(?:\b(?:exec|execSync|spawn|spawnSync|execFile|execFileSync|fork)\s*\(|child_process['\"]?\s*\)\s*\.\s*\w+\s*\(|"
             r"\bnew\s+Deno\.Command\s*\(|\bDeno\.run\s*\(|\bBun\.spawn(?:Sync)?\s*\(|\bBun\.\$\s*`)"),
    fetch=rx(r"(?:\bfetch\s*\(|\baxios(?:\.get)?\s*\(|\bhttps?\.get\s*\(|\brequest\s*\(\s*['\"`]https?:|\bgot\s*\(|\bXMLHttpRequest\b|\.download\s*\()"),
    decode=rx(r"(?:\batob\s*\(|Buffer\.from\s*\([^)]{0,300}['\"](?:base64|hex|base64url)['\"]|String\.fromCharCode\s*\(|\bunescape\s*\(|decodeURIComponent\s*\(\s*['\"`]%|\.toString\s*\(\s*['\"]base64['\"]\s*\)|zlib\.(?:inflate|gunzip)Sync)"),
    send=rx(r"(?:\bfetch\s*\(|\baxios\.(?:post|put|patch|request)\s*\(|\baxios\s*\(|\bhttps?\.request\s*\(|\bnet\.(?:connect|createConnection)\s*\(|\bnew\s+WebSocket\s*\(|\bnavigator\.sendBeacon\s*\(|\.send\s*\(|\bdns\.(?:resolve|lookup)\w*\s*\(|\bgot\.post\s*\(|\bsuperagent\.post\s*\(|\.sendMail\s*\(|\.uploadFrom\s*\(|\bdgram\.createSocket\s*\(|\.resolve(?:Txt|4|6|Any|Cname)\s*\()"),
    env_dump=rx(r"(?:JSON\.stringify\s*\(\s*(?:process|Bun)\.env\s*\)|Object\.(?:entries|keys|values|assign)\s*\(\s*(?:\{\s*\}\s*,\s*)?(?:process|Bun)\.env\b|\.\.\.(?:process|Bun)\.env\b|for\s*\(\s*\w+\s+\w+\s+in\s+(?:process|Bun)\.env|\bDeno\.env\.toObject\s*\(\s*\))"),
    secret_env=rx(r"(?:process|Bun)\.env(?:\.|\[\s*['\"])(\w+)|\bDeno\.env\.get\s*\(\s*['\"](\w+)"),
    assign=rx(r"(?m)(?:\b(?:const|let|var)\s+|^\s*|\bthis\.)([A-Za-z_$][\w$]*)\s*=(?:[^=>\n]|=>)([^;\n]*)"),
    strings=rx(f"{_DQ}|{_SQ}|{_BT}"),
    direct=(
        (K.REMOTE_EXEC, rx(r"\bimport\s*\(\s*['\"`]https?://|\brequire\s*\(\s*['\"`]https?://"), Severity.HIGH, "Module loaded from a URL at run time"),
        (K.REVERSE_SHELL, rx(r"(?s)net\.(?:connect|Socket|createConnection).{0,800}(?:spawn|exec)\s*\(\s*['\"](?:/bin/)?(?:ba)?sh['\"]"), Severity.CRITICAL, "Network socket wired to a shell (reverse shell)"),
    ),
)

POWERSHELL = Vocabulary(
    exec_=rx(r"(?i)(?:\binvoke-expression\b|\biex\b|\[scriptblock\]::create\s*\(|\binvoke-command\s+-scriptblock|\|\s*&\s*\(|\.invoke\s*\(\s*\)|"
             # the run verb looked up by a name built at run time: & (Get-Alias $v) $code, &(gcm i*x) $code
             r"[&.]\s*\(\s*(?:get-alias|gal|get-command|gcm|get-item\s+(?:-path\s+)?alias:|gi\s+alias:)\b[^)\n]{0,80}\)|"
             r"[&.]\s*\(\s*\$executioncontext\.invokecommand\.get\w*\s*\([^)\n]{0,80}\)\s*\)|"
             r"\$executioncontext\.invokecommand\.(?:invokescript|newscriptblock)\s*\(|\.invokescript\s*\()"),
    spawn=rx(r"(?i)(?:\bstart-process\b|\bcmd(?:\.exe)?\s+/c\b|\bpowershell(?:\.exe)?\s+-|\bpwsh\s+-)"),
    fetch=rx(r"(?i)(?:\binvoke-webrequest\b|\biwr\b|\binvoke-restmethod\b|\birm\b|\.downloadstring\s*\(|\.downloadfile\s*\(|\.downloaddata\s*\(|\bstart-bitstransfer\b|net\.webclient|\bcurl(?:\.exe)?\s+http|\bwget\s+http)"),
    decode=rx(r"(?i)(?:frombase64string\s*\(|\[convert\]::frombase64|-enc(?:odedcommand)?\s+[a-z0-9+/=]{16,}|\[system\.text\.encoding\]::\w+\.getstring|io\.compression\.(?:gzip|deflate)stream)"),
    send=rx(r"(?i)(?:\binvoke-webrequest\b|\biwr\b|\binvoke-restmethod\b|\birm\b|\.upload(?:string|file|data)\s*\(|\bsend-mailmessage\b|net\.sockets\.tcpclient|\.getstream\s*\(\s*\)|net\.mail\.smtpclient|\bresolve-dnsname\b|ftpwebrequest|\[system\.net\.dns\]::)"),
    env_dump=rx(r"(?i)(?:get-childitem\s+env:|\bgci\s+env:|\bls\s+env:|\[(?:system\.)?environment\]::getenvironmentvariables\s*\(|dir\s+env:)"),
    secret_env=rx(r"(?i)\$env:(\w+)|\[(?:system\.)?environment\]::getenvironmentvariable\s*\(\s*['\"](\w+)"),
    assign=rx(r"(?m)^\s*\$([A-Za-z_][\w]*)\s*=\s*([^\n;]*)"),
    strings=rx(f"{_DQ}|{_SQ}"),
    direct=(
        (K.DEFENSE_EVASION, rx(r"(?i)(?:set-mppreference\s+[^\n]{0,80}-disable\w*\s+\$?true|add-mppreference\s+-exclusion|amsiutils|amsiinitfailed|clear-eventlog|wevtutil\s+cl|remove-item[^\n]{0,80}(?:consolehost_history|\\logs\\))"), Severity.MEDIUM, "Disables defences or removes logs"),
        (K.PERSISTENCE, rx(r"(?i)(?:currentversion\\run\b|register-scheduledtask|new-scheduledtask|schtasks(?:\.exe)?\s+/create|\\start menu\\programs\\startup)"), Severity.HIGH, "Registers itself to run at start-up"),
        (K.REVERSE_SHELL, rx(r"(?i)net\.sockets\.tcpclient(?s:.{0,800})(?:iex|invoke-expression)"), Severity.CRITICAL, "TCP client feeding received text to Invoke-Expression (reverse shell)"),
    ),
)

_SCRIPTING_STRINGS = rx(f"{_DQ}|{_SQ}")

RUBY = Vocabulary(
    exec_=rx(r"(?:\beval\s*[(\s]|\binstance_eval\b|\bclass_eval\b|\bmodule_eval\b|\bbinding\.eval\b)"),
    spawn=rx(r"(?:\bsystem\s*[(\s]|\bexec\s*[(\s]|\bspawn\s*[(\s]|%x[({\[]|`[^`\n]{1,400}`|IO\.popen\s*\(|Open3\.\w+\s*\(|Kernel\.open\s*\(\s*['\"]\|)"),
    fetch=rx(r"(?:Net::HTTP\.get|Net::HTTP\.start|URI\.open\s*\(|URI\.parse\([^)]{0,300}\)\.read|\bopen\s*\(\s*['\"]https?://|HTTParty\.get|Faraday\.get|RestClient\.get)"),
    decode=rx(r"(?:Base64\.(?:decode64|strict_decode64|urlsafe_decode64)|\.unpack1?\s*\(\s*['\"](?:m|H\*)|Zlib::Inflate|\.pack\s*\(\s*['\"]H\*)"),
    send=rx(r"(?:Net::HTTP\.post|Net::HTTP::Post|post_form|HTTParty\.post|Faraday\.post|RestClient\.post|TCPSocket\.new|UDPSocket|\.puts\s*\(|Net::SMTP|Net::FTP|Resolv(?:::DNS)?\.|\.sendmail\s*\()"),
    env_dump=rx(r"(?:ENV\.to_h|ENV\.to_a|ENV\.each|ENV\.inspect|ENV\.map|ENV\.select)"),
    secret_env=rx(r"ENV\[\s*['\"](\w+)['\"]\s*\]|ENV\.fetch\(\s*['\"](\w+)"),
    assign=rx(r"(?m)^\s*@?([a-z_][\w]*)\s*(?:\+|<<|\|\|)?=\s*([^\n;]*)"),  # `out += `...``, `out <<= x`
    strings=_SCRIPTING_STRINGS,
)

PERL = Vocabulary(
    exec_=rx(r"(?:\beval\s*[({\s]|\bdo\s+['\"$])"),
    spawn=rx(r"(?:\bsystem\s*[(\s]|\bexec\s*[(\s]|\bqx\s*[({\[/]|`[^`\n]{1,400}`|\bopen\s*\(\s*\w+\s*,\s*['\"]\|)"),
    fetch=rx(r"(?:LWP::Simple|\bget\s*\(\s*['\"$]|LWP::UserAgent|HTTP::Tiny|getstore\s*\(|IO::Socket::INET)"),
    decode=rx(r"(?:decode_base64\s*\(|MIME::Base64|pack\s*\(\s*['\"](?:H\*|u)|unpack\s*\(\s*['\"]m)"),
    send=rx(r"(?:->post\s*\(|->request\s*\(|IO::Socket::INET|Net::SMTP|Net::FTP|Net::DNS|->send\s*\(|\bsend\s*\(\s*\$)"),
    env_dump=rx(r"(?:%ENV\b|keys\s+%ENV|each\s+%ENV)"),
    secret_env=rx(r"\$ENV\{\s*['\"]?(\w+)"),
    assign=rx(r"(?m)^\s*(?:my\s+|our\s+)?\$([A-Za-z_]\w*)\s*\.?=\s*([^\n;]*)"),  # `$out .= `...``: adds to what $out carries
    strings=_SCRIPTING_STRINGS,
)

PHP = Vocabulary(
    exec_=rx(r"(?i)(?:\beval\s*\(|\bassert\s*\(|\bcreate_function\s*\(|preg_replace\s*\(\s*['\"].{0,100}/e['\"]|\b(?:include|require)(?:_once)?\b)"),
    spawn=rx(r"(?i)(?:\bsystem\s*\(|\bexec\s*\(|\bshell_exec\s*\(|\bpassthru\s*\(|\bproc_open\s*\(|\bpopen\s*\(|`[^`\n]{1,400}`)"),
    fetch=rx(r"(?i)(?:file_get_contents\s*\(\s*['\"]https?://|curl_exec\s*\(|fopen\s*\(\s*['\"]https?://)"),
    decode=rx(r"(?i)(?:base64_decode\s*\(|gzinflate\s*\(|gzuncompress\s*\(|str_rot13\s*\(|hex2bin\s*\(|convert_uudecode\s*\()"),
    send=rx(r"(?i)(?:curl_setopt(?:_array)?\s*\([^)]{0,300}CURLOPT_POSTFIELDS|fsockopen\s*\(|\bmail\s*\(|stream_socket_client\s*\(|ftp_f?put\s*\(|dns_get_record\s*\(|stream_context_create\s*\()"),
    env_dump=rx(r"(?i)(?:\$_ENV\s*[,);]|getenv\s*\(\s*\)|print_r\s*\(\s*\$_SERVER)"),
    direct=(
        (K.REMOTE_EXEC, rx(r"(?i)\b(?:include|require)(?:_once)?\s*\(?\s*['\"](?:https?|ftp|data|expect)://"), Severity.CRITICAL, "PHP code included from a URL at run time"),
    ),
    secret_env=rx(r"(?i)getenv\s*\(\s*['\"](\w+)|\$_ENV\[\s*['\"](\w+)"),
    assign=rx(r"(?m)^\s*\$([A-Za-z_]\w*)\s*[.+]?=\s*([^\n;]*)"),  # `$report .= ...` adds to what $report carries
    strings=_SCRIPTING_STRINGS,
)

GO = Vocabulary(
    # Go has no eval: code loaded at run time is a plugin or an embedded interpreter.
    exec_=rx(r"(?:\bplugin\.Open\s*\(|\binterp\.New\s*\((?s:.{0,400})\.Eval\s*\()"),
    spawn=rx(r"(?:\bexec\.Command(?:Context)?\s*\(|\bsyscall\.(?:Exec|ForkExec)\s*\(|\bos\.StartProcess\s*\()"),
    fetch=rx(r"(?:\bhttp\.(?:Get|Head)\s*\(|\b\w*[cC]lient\.Get\s*\(|\.Do\s*\(\s*\w*[rR]eq\w*\s*\)|\bhttp\.NewRequest(?:WithContext)?\s*\((?:\s*\w+\s*,)?\s*(?:\"GET\"|http\.MethodGet)|\bnet\.Dial(?:Timeout)?\s*\()"),
    decode=rx(r"(?:\bbase64\.(?:Std|URL|RawStd|RawURL)Encoding\.DecodeString\s*\(|\bhex\.DecodeString\s*\(|\b(?:gzip|zlib|flate)\.NewReader\s*\()"),
    send=rx(r"(?:\bhttp\.Post(?:Form)?\s*\(|\b\w*[cC]lient\.Post(?:Form)?\s*\(|\bhttp\.NewRequest(?:WithContext)?\s*\((?:\s*\w+\s*,)?\s*(?:\"(?:POST|PUT|PATCH)\"|http\.Method(?:Post|Put|Patch))|\bnet\.Dial(?:Timeout|UDP|TCP)?\s*\(|\bsmtp\.SendMail\s*\(|\bnet\.Lookup(?:Host|IP|TXT|CNAME|Addr)\s*\(|\bwebsocket\.Dial\w*\s*\()"),
    env_dump=rx(r"(?:\bos\.Environ\s*\(\s*\)|\bsyscall\.Environ\s*\(\s*\))"),
    secret_env=rx(r"\bos\.(?:Getenv|LookupEnv)\s*\(\s*\"(\w+)\""),
    assign=rx(r"(?m)^\s*(?:var\s+)?([A-Za-z_]\w*)(?:\s*,\s*[A-Za-z_]\w*)*\s*(?:[\w.\[\]*]+\s*)?:?=\s*([^\n;]*)"),
    strings=rx(f"{_DQ}|{_BT}"),
    direct=(
        (K.REVERSE_SHELL, rx(r"(?s)\bnet\.Dial\w*\s*\(.{0,800}\bexec\.Command\s*\(\s*\"(?:/bin/)?(?:ba|z)?sh\".{0,400}\.Std(?:in|out)\s*=\s*\w+"), Severity.CRITICAL, "Network connection wired to a shell's input and output (reverse shell)"),
    ),
)

RUST = Vocabulary(
    # Rust has no eval: code loaded at run time is a dynamic library.
    exec_=rx(r"(?:\blibloading::Library::new\s*\(|\bLibrary::new\s*\(\s*&?format!)"),
    spawn=rx(r"(?:\bCommand::new\s*\()"),
    fetch=rx(r"(?:\breqwest::(?:blocking::)?get\s*\(|\bureq::get\s*\(|\bsurf::get\s*\(|\battohttpc::get\s*\()"),
    decode=rx(r"(?:\bbase64::decode\w*\s*\(|\b(?:STANDARD|URL_SAFE|STANDARD_NO_PAD|URL_SAFE_NO_PAD|BASE64_\w+)\.decode\s*\(|\bhex::decode\s*\(|\b(?:Gz|Zlib|Deflate)Decoder::new\s*\()"),
    # HTTP request builders (a header, a body, a query) and the one-call senders; socket writes come from the names bound to a connection
    send=rx(r"(?:\bureq::(?:post|put|patch)\s*\(|\breqwest::(?:blocking::)?Client::new\s*\(\s*\)\s*\.\s*(?:post|put|patch)\s*\(|\.(?:header|query|form|json|body|basic_auth|bearer_auth|set)\s*\(|\bUdpSocket::bind\s*\((?s:.{0,300})\.send_to\s*\(|\blookup_host\s*\()"),
    env_dump=rx(r"(?:\benv::vars(?:_os)?\s*\(\s*\))"),
    secret_env=rx(r"\benv::var(?:_os)?\s*\(\s*\"(\w+)\""),
    assign=rx(r"(?m)^\s*(?:let\s+(?:mut\s+)?)?([A-Za-z_]\w*)\s*(?::\s*[^=\n]{1,80})?(?:\+)?=\s*([^=\n;][^\n;]*)"),
    strings=rx(_DQ),
)

LUA = Vocabulary(
    exec_=rx(r"\b(?:loadstring|load|dofile|loadfile)\s*\("),
    spawn=rx(r"\b(?:os\.execute|io\.popen)\s*\("),
    fetch=rx(r"(?:\bhttp\.request\s*\(|\bhttps?\.get\s*\(|:HttpGet(?:Async)?\s*\(|\bHttpService:GetAsync\s*\(|\bcurl\.easy\b|\brequest\s*\(\s*['\"]https?://)"),
    decode=rx(r"(?:\bbase64\.decode\s*\(|\bmime\.unb64\s*\(|\bb64dec\w*\s*\(|\bfrom_?hex\s*\()"),
    send=rx(r"(?:\bhttp\.request\s*\{|\bhttp\.request\s*\(\s*['\"][^'\"\n]*['\"]\s*,|:PostAsync\s*\(|:RequestAsync\s*\(|\bsocket\.(?:tcp|udp|connect)\s*\(|:send\s*\(|\bsmtp\.send\s*\()"),
    env_dump=rx(r"\bio\.popen\s*\(\s*['\"](?:env|printenv|set)['\"]"),
    secret_env=rx(r"\bos\.getenv\s*\(\s*['\"](\w+)"),
    assign=rx(r"(?m)^\s*(?:local\s+)?([A-Za-z_]\w*)\s*=\s*([^\n;]*)"),
    strings=_SCRIPTING_STRINGS,
)

R = Vocabulary(
    # source(), sys.source() and eval(parse()) run R code; each also opens a URL given as the file
    exec_=rx(r"(?:\b(?:source|sys\.source|source_url|source_gist|source_python|Rscript)\s*\(|\beval\s*\(\s*(?:base::)?(?:parse|str2lang|str2expression)\s*\()"),
    spawn=rx(r"(?:\bsystem2?\s*\(|\bshell\s*\(|\bprocessx::run\s*\(|\bsys::exec_\w+\s*\()"),
    # R's readers (source, readLines, read.csv, fromJSON) open a URL string themselves: a URL literal is a fetch
    fetch=rx(r"(?:\burl\s*\(|\bdownload\.file\s*\(|\bhttr2?::(?:GET|request)|\bGET\s*\(|\bcurl::curl(?:_fetch_\w+|_download)?\s*\(|\bgetURL\s*\(|['\"](?:https?|ftp)://)"),
    decode=rx(r"(?:base64enc::base64decode|\bbase64decode\s*\(|openssl::base64_decode|jsonlite::base64_dec|\brawToChar\s*\(|\bmemDecompress\s*\()"),
    send=rx(r"(?:\bhttr::(?:POST|PUT|PATCH)\s*\(|\b(?:POST|PUT|PATCH)\s*\(|\breq_(?:body_\w+|perform)\s*\(|\bpostForm\s*\(|\bhandle_setform\s*\(|\bsocketConnection\s*\(|\bmake_socket\s*\(|\bsend\.mail\s*\(|\bsendmail\s*\(|\bsmtp_send\s*\()"),
    env_dump=rx(r"(?:\bSys\.getenv\s*\(\s*\)|as\.list\s*\(\s*Sys\.getenv\s*\(\s*\)\s*\))"),
    secret_env=rx(r"\bSys\.getenv\s*\(\s*['\"](\w+)"),
    assign=rx(r"(?m)^\s*([A-Za-z_.][\w.]*)\s*(?:<<?-|=)\s*([^\n;]*)"),
    strings=_SCRIPTING_STRINGS,
    direct=(
        (K.REMOTE_EXEC, rx(r"(?:\b(?:source|sys\.source)\s*\(\s*(?:file\s*=\s*)?['\"](?:https?|ftp)://|\b(?:devtools::)?source_(?:url|gist)\s*\(|\beval\s*\(\s*parse\s*\(\s*(?:text\s*=\s*)?(?:readLines\s*\(\s*)?(?:url\s*\(\s*)?['\"]https?://)"),
         Severity.HIGH, "R code sourced from a URL at run time"),
    ),
)

PYTHON_FALLBACK = Vocabulary(
    exec_=rx(r"(?:\bexec\s*\(|\beval\s*\(|\bcompile\s*\(|__import__\s*\(|\bmarshal\.loads\s*\(|\bpickle\.loads\s*\()"),
    spawn=rx(r"(?:\bos\.system\s*\(|\bos\.popen\s*\(|\bsubprocess\.\w+\s*\(|\bpty\.spawn\s*\()"),
    fetch=rx(r"(?:\burlopen\s*\(|\brequests\.get\s*\(|\bhttpx\.get\s*\(|\burllib\.request|\.recv\s*\()"),
    decode=rx(r"(?:b64decode\s*\(|b32decode\s*\(|unhexlify\s*\(|\.fromhex\s*\(|zlib\.decompress\s*\(|codecs\.decode\s*\(|a2b_base64\s*\()"),
    send=rx(r"(?:\brequests\.(?:post|put|patch)\s*\(|\bhttpx\.(?:post|put)\s*\(|\burlopen\s*\(|\.sendall?\s*\(|\.sendto\s*\(|smtplib|ftplib|\.storbinary\s*\(|\.sendmail\s*\(|\.send_message\s*\(|gethostbyname\s*\(|dns\.resolver)"),
    env_dump=rx(r"(?:dict\s*\(\s*os\.environ\s*\)|os\.environ\.copy\s*\(\s*\)|json\.dumps\s*\(\s*(?:dict\s*\()?os\.environ|os\.environ\.items\s*\(\s*\))"),
    secret_env=rx(r"os\.(?:environ(?:\.get\s*\(|\[)|getenv\s*\()\s*['\"](\w+)"),
    assign=rx(r"(?m)^\s*([A-Za-z_]\w*)\s*=\s*([^\n]*)"),
    strings=_SCRIPTING_STRINGS,
)

VOCABULARIES: dict[str, Vocabulary] = {
    "javascript": JS, "typescript": JS, "powershell": POWERSHELL, "ruby": RUBY, "perl": PERL, "php": PHP,
    "go": GO, "rust": RUST, "lua": LUA, "r": R, "python": PYTHON_FALLBACK,
}
