"""What standard and popular Python calls do, by fully qualified name.

The flow analysis resolves every call to a dotted name ("subprocess.run", "requests.Session.post")
through imports, aliases and getattr, then asks these tables what role the call plays.
"""
from __future__ import annotations

from functools import lru_cache

EXEC_SINKS = frozenset({
    "exec", "eval", "compile", "execfile", "code.InteractiveInterpreter.runsource",
    "code.InteractiveConsole.push", "code.interact", "runpy.run_path", "runpy.run_module",
})
IMPORT_SINKS = frozenset({
    "__import__", "importlib.import_module", "importlib.__import__", "imp.load_source", "imp.load_module",
    "importlib.machinery.SourceFileLoader", "importlib.util.spec_from_file_location",
})
SHELL_ALWAYS = frozenset({  # calls whose first argument is parsed by a shell
    "os.system", "os.popen", "os.popen2", "os.popen3", "subprocess.getoutput", "subprocess.getstatusoutput",
    "commands.getoutput", "commands.getstatusoutput", "asyncio.create_subprocess_shell", "pty.spawn",
})
PROCESS_CALLS = frozenset({
    "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen",
    "asyncio.create_subprocess_exec", "os.posix_spawn", "os.posix_spawnp", "os.startfile",
})
DESERIALIZERS = frozenset({
    "pickle.loads", "pickle.load", "_pickle.loads", "_pickle.load", "cPickle.loads", "cPickle.load",
    "marshal.loads", "marshal.load", "dill.loads", "dill.load", "cloudpickle.loads", "cloudpickle.load",
    "jsonpickle.decode", "yaml.unsafe_load", "yaml.load", "pickle.Unpickler", "shelve.open",
})
DESERIALIZERS_IF_REMOTE = frozenset({"torch.load", "joblib.load", "numpy.load", "pandas.read_pickle"})
# Of those, the loaders that open a URL given as their path (fsspec/urllib under pandas' readers).
DESERIALIZERS_FETCHING = frozenset({"pandas.read_pickle"})
DECODERS = frozenset({
    "base64.b64decode", "base64.b32decode", "base64.b16decode", "base64.a85decode", "base64.b85decode",
    "base64.urlsafe_b64decode", "base64.standard_b64decode", "base64.decodebytes", "base64.decodestring",
    "binascii.unhexlify", "binascii.a2b_base64", "binascii.a2b_hex", "bytes.fromhex", "bytearray.fromhex",
    "codecs.decode", "zlib.decompress", "gzip.decompress", "bz2.decompress", "lzma.decompress",
})
CODEC_NAMES = ("base64", "hex", "rot13", "rot_13", "zlib", "bz2", "uu", "base_64", "hex_codec", "zip")
DOWNLOAD_PREFIXES = (
    "requests.", "httpx.", "urllib.request.urlopen", "urllib.urlopen", "urllib2.urlopen", "urllib3.",
    "aiohttp.", "http.client.", "pycurl.", "wget.download", "urllib.request.urlretrieve",
    "urllib.request.Request", "urllib2.Request",
)
DOWNLOAD_SOCKET = frozenset({"socket.socket.recv", "socket.socket.recvfrom", "socket.socket.recv_into", "socket.socket.makefile"})
NETWORK_PREFIXES = (
    "requests.", "httpx.", "urllib.request.urlopen", "urllib.request.Request", "urllib.urlopen", "urllib2.",
    "urllib3.", "aiohttp.", "http.client.", "pycurl.", "smtplib.", "ftplib.", "websocket.", "websockets.",
    "paramiko.", "telnetlib.", "dns.resolver.", "xmlrpc.client.", "grequests.",
)
NETWORK_EXACT = frozenset({
    "socket.socket.send", "socket.socket.sendall", "socket.socket.sendto", "socket.socket.connect",
    "socket.create_connection", "socket.gethostbyname", "socket.getaddrinfo", "socket.gethostbyname_ex",
})
# Methods that send data whatever object they are called on, when the object's type is unknown.
SENDING_METHODS = frozenset({"post", "put", "patch", "sendall", "sendto", "sendmail", "send_message", "storbinary", "storlines", "upload_file", "urlopen"})
HOST_INFO = frozenset({
    "socket.gethostname", "getpass.getuser", "os.getlogin", "os.uname", "platform.node", "platform.uname",
    "platform.platform", "uuid.getnode", "os.getcwd", "os.listdir", "os.walk", "glob.glob", "os.scandir",
    "pathlib.Path.home", "os.path.expanduser", "psutil.process_iter", "psutil.net_if_addrs", "subprocess.check_output",
    "pathlib.Path.rglob", "pathlib.Path.glob", "pathlib.Path.iterdir", "shutil.make_archive",
})
CAPTURE = frozenset({
    "pynput.keyboard.Listener", "pynput.mouse.Listener", "keyboard.on_press", "keyboard.hook", "keyboard.record",
    "keyboard.read_key", "pyHook.HookManager", "win32api.GetAsyncKeyState", "ctypes.windll.user32.GetAsyncKeyState",
    "pyperclip.paste", "clipboard.paste", "win32clipboard.GetClipboardData", "PIL.ImageGrab.grab", "ImageGrab.grab",
    "pyautogui.screenshot", "mss.mss", "cv2.VideoCapture", "sounddevice.rec", "pyaudio.PyAudio",
    "PIL.ImageGrab.grabclipboard", "tkinter.Tk.clipboard_get",
})
ENV_GETTERS = frozenset({"os.getenv", "os.environ.get", "os.environ.pop", "os.environ.setdefault", "os.getenvb", "os.environ.__getitem__"})
CONSTRUCTOR_ALIASES = {"socket.create_connection": "socket.socket", "socket.socketpair": "socket.socket",
                       "requests.session": "requests.Session", "socket.fromfd": "socket.socket",
                       "ssl.wrap_socket": "socket.socket", "ssl.SSLContext.wrap_socket": "socket.socket"}
SHELL_NAMES = ("sh", "bash", "zsh", "dash", "ksh", "/bin/sh", "/bin/bash", "/bin/zsh", "cmd", "cmd.exe",
               "powershell", "powershell.exe", "pwsh", "/usr/bin/sh", "/usr/bin/bash")
INTERPRETER_NAMES = SHELL_NAMES + ("python", "python3", "node", "perl", "ruby", "php")


@lru_cache(maxsize=8192)  # called for every resolved call; pure in its argument
def normalize(qualname: str) -> str:
    for prefix in ("builtins.", "__builtins__.", "__builtin__."):
        if qualname.startswith(prefix):
            qualname = qualname[len(prefix):]
    return qualname


@lru_cache(maxsize=8192)  # called for every resolved call; pure in its argument
def is_download(q: str) -> bool:
    return q.startswith(DOWNLOAD_PREFIXES) or q in DOWNLOAD_SOCKET


NETWORK_VERBS = frozenset({
    "get", "post", "put", "patch", "delete", "request", "head", "options", "urlopen", "Request", "send", "sendall",
    "sendmail", "send_message", "connect", "stream", "fetch", "storbinary", "storlines", "resolve", "query",
    "open", "urlretrieve", "download", "upload", "perform", "create_connection", "ws_connect", "sendto", "put_file",
})
# Types worth remembering for a variable: what its later method calls mean.
TRACKED_TYPES = frozenset({"socket.socket", "requests.Session", "httpx.Client", "httpx.AsyncClient", "aiohttp.ClientSession",
                           "smtplib.SMTP", "smtplib.SMTP_SSL", "ftplib.FTP", "http.client.HTTPConnection",
                           "http.client.HTTPSConnection", "urllib3.PoolManager", "paramiko.SSHClient", "sqlite3.connect",
                           "pynput.keyboard.Listener", "telnetlib.Telnet"})


@lru_cache(maxsize=8192)  # called for every resolved call; pure in its argument
def is_network(q: str) -> bool:
    if q in NETWORK_EXACT:
        return True
    if q.startswith(NETWORK_PREFIXES):
        return q.rsplit(".", 1)[-1] in NETWORK_VERBS
    return "." in q and q.rsplit(".", 1)[1] in SENDING_METHODS and not q.startswith(("self.", "cls."))


@lru_cache(maxsize=8192)  # called for every resolved call; pure in its argument
def is_shell_call(q: str) -> bool:
    return q in SHELL_ALWAYS or q.startswith(("os.exec", "os.spawn")) or q in PROCESS_CALLS
