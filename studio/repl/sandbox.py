"""One REPL sandbox: a Jupyter kernel under bubblewrap, started detached, found again by files.

Where kernels run: on the web host, each as a detached process tree of its own (a session
leader adopted by init), started by whichever process first needs it and reachable by any
process through the session's folder (studio/repl/sessions.py). No web or worker process is
their parent, so a Daphne restart or a worker crash leaves every session running, and a
kernel needs no broker round trip per cell: its client is a few Unix sockets away. The price
is that sessions live on one host, beside its `var/` (several web hosts would need a kernel
host of their own).

Kernels speak ZeroMQ over Unix sockets (`transport="ipc"`): the sandbox has no network
namespace to share, so loopback TCP cannot reach it. The socket files live in the session's
`run/` folder, bound into the sandbox at /run/kernel; the kernel reads a connection file
with the in-sandbox paths, clients one with the host paths.

Inside: a read-only /usr and Python (the venv and its base interpreter), the modules the host
gives every kernel (read-only, at /opt/macaron), a private writable home (the session's
`home/`), a small tmpfs /tmp, fresh /proc and /dev, and nothing else of the host: no network,
no other pids, no `var/`, database, Redis socket, secret key or other sessions. It runs as an
unprivileged user (launcher.py), with resource limits (kernel_entry.py) and a seccomp filter
(seccomp.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from studio.repl.seccomp import seccomp_program

HOME = "/home/repl"
RUN = "/run/kernel"
# Modules the host gives every kernel (the global tools' `macaron_tools`), read-only, on its
# sys.path after the standard library and the venv's packages.
LIBRARY = "/opt/macaron"
MODULE_FILE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,99}\.py$")
SOCKET_PREFIX = "k"
PORTS = {"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5}
MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes; the port suffix needs a few
LAUNCHER = Path(__file__).with_name("launcher.py")
KERNEL_ENTRY = Path(__file__).with_name("kernel_entry.py")


class SandboxUnavailable(RuntimeError):
    """This host cannot run a sandbox (no bubblewrap, no namespaces): nothing runs without one."""


@dataclass(frozen=True)
class Limits:
    cpu_seconds: int
    memory_bytes: int
    processes: int
    open_files: int
    file_bytes: int
    tmp_bytes: int


@dataclass(frozen=True)
class Identity:
    """The unprivileged host user a sandbox runs as when the caller is root."""

    uid: int
    gid: int


def sandbox_start(
    folder: Path,
    *,
    marker: str,
    limits: Limits,
    identity: Identity,
    modules: Mapping[str, str] | None = None,
) -> int:
    """Start a sandboxed kernel for the session folder; the pid of its bubblewrap process.

    `marker` (the session id) is put on bubblewrap's command line, so a pid read back later
    is checked to still be this sandbox before anything signals it. `modules` ({file name:
    source}) are written to the session's `library/`, which the kernel sees read-only at
    LIBRARY and can import from: a snapshot, so later changes reach a kernel when it
    (re)starts."""
    if shutil.which("bwrap") is None:
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed, and REPL sessions never run unsandboxed; "
            "scripts/setup.sh installs it."
        )
    run, home = folder / "run", folder / "home"
    sockets = str(run / SOCKET_PREFIX)
    if len(sockets) + 3 > MAX_SOCKET_PATH:
        raise SandboxUnavailable(f"The REPL folder's path is too long for Unix sockets: {run}")
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(mode=0o700)
    home.mkdir(mode=0o700, exist_ok=True)
    _write_library(folder / "library", modules or {})
    if os.geteuid() == 0:
        for path in (run, home):
            os.chown(path, identity.uid, identity.gid)
    key = secrets.token_hex(32)
    _write_json(folder / "connection.json", _connection(sockets, key), mode=0o600)
    inside = run / "kernel.json"
    _write_json(inside, _connection(f"{RUN}/{SOCKET_PREFIX}", key), mode=0o600)
    if os.geteuid() == 0:
        os.chown(inside, identity.uid, identity.gid)
    # Its own user database, so that getpass and `~` work: the host's stays out.
    uid, gid = (identity.uid, identity.gid) if os.geteuid() == 0 else (os.getuid(), os.getgid())
    (folder / "passwd").write_text(f"repl:x:{uid}:{gid}:REPL session:{HOME}:/usr/sbin/nologin\n")
    (folder / "group").write_text(f"repl:x:{gid}:\n")
    program = seccomp_program()
    if program is not None:
        (folder / "seccomp.bpf").write_bytes(program)
    plan = {
        "log": str(folder / "kernel.log"),
        "info": str(folder / "bwrap-info.json"),
        "seccomp": str(folder / "seccomp.bpf") if program is not None else "",
        "uid": identity.uid,
        "gid": identity.gid,
        "options": _options(marker, limits),
        "binds": _binds(folder, run, home),
        # Bubblewrap's own root (a tmpfs, where /etc, /run and the mount points are) is
        # writable until this: the only writable places left are home and /tmp.
        "after_binds": ["--remount-ro", "/"],
        "command": _command(limits),
    }
    _write_json(folder / "plan.json", plan, mode=0o600)
    launched = subprocess.run(
        [sys.executable, "-I", str(LAUNCHER), str(folder / "plan.json")],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env=_launcher_environment(),
    )
    pid = launched.stdout.strip()
    if launched.returncode != 0 or not pid.isdigit():
        raise SandboxUnavailable(f"The REPL sandbox did not start: {_tail(folder, launched)}")
    return int(pid)


def _launcher_environment() -> dict[str, str]:
    """This process's environment less the dynamic loader's: vLLM's CPU platform puts torch's
    libgomp in LD_PRELOAD of any process that imports it, and bubblewrap, loaded with it, would
    complain into the kernel's log that the sandbox cannot see that file (its environment is
    cleared inside anyway)."""
    return {name: value for name, value in os.environ.items() if not name.startswith("LD_")}


def sandbox_failure(folder: Path) -> str:
    """What bubblewrap (or the kernel) last said, for a sandbox that died."""
    try:
        with (folder / "kernel.log").open("rb") as log:
            log.seek(max(0, log.seek(0, os.SEEK_END) - 4096))
            text = log.read().decode(errors="replace")
    except OSError:
        return ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def sandbox_seal(folder: Path) -> None:
    """Once the kernel has bound its sockets, and before any code of the session's runs: take
    the sockets' folder from the sandbox's user. Clients (root here) connect to the paths in
    it, so code that could swap a socket for a symlink could aim them at any socket on the
    host. Run unprivileged there is no other user to hand it to, and this does nothing."""
    if os.geteuid() == 0:
        run = folder / "run"
        os.chown(run, 0, 0)
        os.chmod(run, 0o711)


def sandbox_alive(pid: int, *, marker: str) -> bool:
    return _is_sandbox(pid, marker)


def sandbox_stop(pid: int, folder: Path, *, marker: str) -> None:
    """Kill the sandbox: its namespace's init (which takes every process in it along) and the
    bubblewrap above it. Pids that are no longer this sandbox's are left alone."""
    pids = [pid, *_namespace_init(folder)]
    for each in pids:
        if _is_sandbox(each, marker):
            with contextlib.suppress(ProcessLookupError):
                os.kill(each, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while any(_is_sandbox(each, marker) for each in pids) and time.monotonic() < deadline:
        time.sleep(0.02)


def _namespace_init(folder: Path) -> list[int]:
    try:
        info = json.loads((folder / "bwrap-info.json").read_text())
    except (OSError, ValueError):
        return []
    child = info.get("child-pid") if isinstance(info, dict) else None
    return [child] if isinstance(child, int) else []


def _is_sandbox(pid: int, marker: str) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X") and f"MACARON_REPL_SESSION\0{marker}\0".encode() in cmdline


def _connection(socket_prefix: str, key: str) -> dict[str, object]:
    return {
        "transport": "ipc",
        "ip": socket_prefix,
        "key": key,
        "signature_scheme": "hmac-sha256",
        "kernel_name": "python3",
        **PORTS,
    }


def _options(marker: str, limits: Limits) -> list[str]:
    options = ["--unshare-all", "--unshare-user", "--disable-userns", "--new-session"]
    options += ["--hostname", "repl", "--clearenv"]
    for name, value in {
        "HOME": HOME,
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "MALLOC_ARENA_MAX": "2",  # every thread's arena is address space under RLIMIT_AS
        "PYTHONDONTWRITEBYTECODE": "1",
        "IPYTHONDIR": "/tmp/.ipython",  # IPython's profile folder: the home is the user's
        "MACARON_REPL_SESSION": marker,
    }.items():
        options += ["--setenv", name, value]
    options += ["--proc", "/proc", "--dev", "/dev"]
    options += ["--size", str(limits.tmp_bytes), "--tmpfs", "/tmp"]
    for link in ("bin", "lib", "lib64", "sbin"):
        if os.path.islink(f"/{link}"):
            options += ["--symlink", os.readlink(f"/{link}"), f"/{link}"]
    return [*options, "--chdir", HOME]


def _binds(folder: Path, run: Path, home: Path) -> list[list[str]]:
    """[kind, host source, sandbox target] for every folder (and file) the sandbox sees."""
    venv = Path(sys.prefix).resolve()
    base = Path(sys.base_prefix).resolve()
    binds = [["--ro-bind", "/usr", "/usr"]]
    for python in {venv, base}:
        if not python.is_relative_to("/usr"):
            binds.append(["--ro-bind", str(python), str(python)])
    for path in ("/etc/ld.so.cache", "/etc/localtime"):
        if os.path.exists(path):
            binds.append(["--ro-bind", os.path.realpath(path), path])
    for name in ("passwd", "group"):
        binds.append(["--ro-bind", str(folder / name), f"/etc/{name}"])
    binds.append(["--ro-bind", str(folder / "library"), LIBRARY])
    binds += [["--bind", str(run), RUN], ["--bind", str(home), HOME]]
    return binds


def _command(limits: Limits) -> list[str]:
    python = str(Path(sys.prefix).resolve() / "bin" / "python")
    plan = {**asdict(limits), "connection_file": f"{RUN}/kernel.json", "library": LIBRARY}
    return [python, "-I", "-c", KERNEL_ENTRY.read_text(), json.dumps(plan)]


def _write_library(library: Path, modules: Mapping[str, str]) -> None:
    """Owned by whoever starts sandboxes (root, not the sandbox's user) and bound read-only:
    a session can read its modules, not change them for its next restart."""
    shutil.rmtree(library, ignore_errors=True)
    library.mkdir(mode=0o755)
    for name, source in modules.items():
        if not MODULE_FILE.match(name):
            raise ValueError(f"not a module file name: {name[:100]!r}")
        path = library / name
        path.write_text(source)
        path.chmod(0o644)


def _write_json(path: Path, value: object, *, mode: int) -> None:
    path.unlink(missing_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(descriptor, "w") as file:
        json.dump(value, file)


def _tail(folder: Path, launched: subprocess.CompletedProcess[str]) -> str:
    said = (launched.stderr or "").strip().splitlines()
    return (said[-1] if said else "") or sandbox_failure(folder) or "no reason given"
