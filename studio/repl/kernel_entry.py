"""The first Python to run inside a REPL sandbox: it lowers the resource limits, then becomes
the Jupyter kernel. Run as `python -I -c <this file's text> <limits as JSON>`, so the sandbox
needs no copy of the project's source.

The limits are set here, inside the user namespace bubblewrap made, and not by the launcher:
the kernel counts RLIMIT_NPROC per user and user namespace, so a limit set before the namespace
existed would also count every other session's processes (all run as the same host user).
"""

import json
import os
import resource
import sys

LIMITS = {
    "cpu_seconds": resource.RLIMIT_CPU,
    "memory_bytes": resource.RLIMIT_AS,
    "processes": resource.RLIMIT_NPROC,
    "open_files": resource.RLIMIT_NOFILE,
    "file_bytes": resource.RLIMIT_FSIZE,
}


def main() -> None:
    plan = json.loads(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for name, which in LIMITS.items():
        value = int(plan[name])
        resource.setrlimit(which, (value, value))
    # What ipykernel_launcher does, plus the host's modules on sys.path: `-I` ignores
    # PYTHONPATH, and the kernel is a new process, so this is the only way in.
    boot = (
        "import sys; sys.path.append(sys.argv.pop(1)); "
        "from ipykernel import kernelapp; kernelapp.launch_new_instance()"
    )
    argv = [sys.executable, "-I", "-c", boot, plan["library"], "-f", plan["connection_file"]]
    # No history database in the home folder: nothing there the user did not write.
    argv += ["--HistoryManager.enabled=False"]
    os.execv(sys.executable, argv)


if __name__ == "__main__":
    main()
