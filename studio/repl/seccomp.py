"""The seccomp filter every REPL sandbox runs under: a classic BPF program, built here byte by
byte so no libseccomp is needed. It refuses (EPERM) the calls that reach other processes or
the kernel's rarer surfaces, which nothing a REPL does needs: ptrace and its kin, new mounts
and namespaces, keyrings, BPF, perf, userfaultfd, io_uring. Only x86-64 has a filter; the
namespaces and limits hold on other architectures all the same.
"""

from __future__ import annotations

import errno
import platform
import struct

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
RET_KILL_PROCESS = 0x80000000
LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
JUMP_IF_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JUMP_IF_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
RETURN = 0x06  # BPF_RET | BPF_K

REFUSED_X86_64 = {
    "ptrace": 101,
    "process_vm_readv": 310,
    "process_vm_writev": 311,
    "kcmp": 312,
    "mount": 165,
    "umount2": 166,
    "pivot_root": 155,
    "setns": 308,
    "unshare": 272,
    "kexec_load": 246,
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    "open_by_handle_at": 304,
    "perf_event_open": 298,
    "bpf": 321,
    "userfaultfd": 323,
    "io_uring_setup": 425,
}


def _op(code: int, k: int, true: int = 0, false: int = 0) -> bytes:
    return struct.pack("<HBBI", code, true, false, k)


def seccomp_program() -> bytes | None:
    """The filter for this machine, or None where there is none (not x86-64)."""
    if platform.machine() != "x86_64":
        return None
    refused = sorted(REFUSED_X86_64.values())
    deny = RET_ERRNO | errno.EPERM
    ops = [
        _op(LOAD_WORD, 4),  # seccomp_data.arch
        _op(JUMP_IF_EQUAL, AUDIT_ARCH_X86_64, true=1),
        _op(RETURN, RET_KILL_PROCESS),  # another ABI (i386): nothing here expects it
        _op(LOAD_WORD, 0),  # seccomp_data.nr
    ]
    # Each test jumps to the final "deny" on a match: past the tests left and the "allow".
    tests = [X32_SYSCALL_BIT, *refused]
    for index, number in enumerate(tests):
        to_deny = len(tests) - index - 1 + 1
        code = JUMP_IF_AT_LEAST if number == X32_SYSCALL_BIT else JUMP_IF_EQUAL
        ops.append(_op(code, number, true=to_deny))
    ops += [_op(RETURN, RET_ALLOW), _op(RETURN, deny)]
    return b"".join(ops)
