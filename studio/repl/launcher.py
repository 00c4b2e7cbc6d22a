"""Starts one REPL sandbox, detached: `python -I launcher.py <plan.json>` prints the pid of
the bubblewrap process that holds the sandbox, then exits; bubblewrap lives on, a child of
init in a session of its own, so no web or worker process is its parent and none of them
restarting ends it (studio/repl/sandbox.py says why kernels live this way).

Run as root, it first makes a private mount namespace and binds every folder the sandbox needs
onto a fresh tmpfs, then drops to an unprivileged user before running bubblewrap. Bubblewrap,
run unprivileged, resolves its bind sources as that user (a venv under /root would be out of
its reach), and only an unprivileged user is held to RLIMIT_NPROC: the kernel exempts root,
even root mapped into a user namespace. This file imports nothing from the project.
"""

import ctypes
import json
import os
import stat
import sys
from typing import Any

CLONE_NEWNS = 0x00020000
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
STAGE = "/tmp"  # only inside the private mount namespace: a tmpfs over it holds the binds


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _stage_sources(binds: list[list[str]]) -> list[list[str]]:
    """The binds, their sources moved to places an unprivileged bubblewrap can reach."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNS) != 0:
        # Root without CAP_SYS_ADMIN (a container's): bubblewrap gets the sources as they
        # are, and says so plainly should it not reach one.
        print("launcher: no mount namespace to stage binds in; binding in place", flush=True)
        return binds
    _check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "making / private")
    # Opened in the new namespace (a bind's source must be one of its mounts), and before the
    # tmpfs hides /tmp (a session folder may lie there).
    fds = [os.open(source, os.O_PATH | os.O_CLOEXEC) for _, source, _ in binds]
    _check(libc.mount(b"tmpfs", STAGE.encode(), b"tmpfs", 0, b"mode=0755"), "tmpfs")
    staged = []
    for index, ((kind, source, target), fd) in enumerate(zip(binds, fds, strict=True)):
        point = os.path.join(STAGE, str(index))
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            os.mkdir(point)
        else:
            open(point, "w").close()
        magic = f"/proc/self/fd/{fd}".encode()
        _check(libc.mount(magic, point.encode(), None, MS_BIND | MS_REC, None), f"bind {source}")
        os.close(fd)
        staged.append([kind, point, target])
    return staged


def _file_options(plan: dict[str, Any]) -> list[str]:
    """Options naming files bubblewrap gets as open descriptors, opened before any staging."""
    options = []
    if plan.get("seccomp"):
        fd = os.open(plan["seccomp"], os.O_RDONLY)
        os.set_inheritable(fd, True)  # bubblewrap reads the filter from it
        options += ["--seccomp", str(fd)]
    # Bubblewrap writes the host pid of the namespace's init here: killing it ends the sandbox.
    info = os.open(plan["info"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.set_inheritable(info, True)
    return [*options, "--info-fd", str(info)]


def _command(plan: dict[str, Any], files: list[str], binds: list[list[str]]) -> list[str]:
    command = ["bwrap", *plan["options"], *files]
    for kind, source, target in binds:
        command += [kind, source, target]
    return [*command, *plan["after_binds"], *plan["command"]]


def main() -> None:
    with open(sys.argv[1]) as file:
        plan = json.load(file)
    log = os.open(plan["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    read_end, write_end = os.pipe()
    if os.fork():  # the parent reports the pid and leaves; init adopts the sandbox
        os.close(write_end)
        print(os.read(read_end, 32).decode(), flush=True)
        return
    os.close(read_end)
    os.setsid()
    os.dup2(log, 1)
    os.dup2(log, 2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    binds = plan["binds"]
    files = _file_options(plan)
    if os.geteuid() == 0:
        binds = _stage_sources(binds)
        uid, gid = plan["uid"], plan["gid"]
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
    command = _command(plan, files, binds)
    os.write(write_end, str(os.getpid()).encode())
    os.close(write_end)
    os.execvp("bwrap", command)


if __name__ == "__main__":
    main()
