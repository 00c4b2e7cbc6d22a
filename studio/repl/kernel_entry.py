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

# What ipykernel_launcher does, plus the host's modules on sys.path (`-I` ignores PYTHONPATH,
# and the kernel is a new process, so this is the only way in), and less memory per cell.
# IPython 9 keeps every cell's printed text, and the text of its result and traceback, for the
# kernel's whole life (for `%history -o`): a session that printed 100 MB and then 100 MB again
# held both, until a later cell failed with a MemoryError. Here printed text is never kept, and
# the rest is forgotten when its cell ends. `Out` and `_` keep the results, as in any IPython.
BOOT = """
import sys
sys.path.append(sys.argv.pop(1))
import zmq
from ipykernel.kernelapp import IPKernelApp

class Unkept(dict):
    def __missing__(self, key):
        return []

app = IPKernelApp.instance()
app.initialize()
# Welcome every subscriber that joins, also while another is joined (each cell's client is
# new, and waits for its welcome before it sends the cell): on the iopub thread, which owns
# the socket.
verbose = lambda: app.iopub_socket.setsockopt(zmq.XPUB_VERBOSE, 1)
app.iopub_thread.io_loop.add_callback(verbose)
history = app.shell.history_manager
history.outputs = Unkept()

def forget(result):
    history.output_hist_reprs.clear()
    history.exceptions.clear()

app.shell.events.register("post_run_cell", forget)
app.start()
"""


def main() -> None:
    plan = json.loads(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for name, which in LIMITS.items():
        value = int(plan[name])
        resource.setrlimit(which, (value, value))
    argv = [sys.executable, "-I", "-c", BOOT, plan["library"], "-f", plan["connection_file"]]
    # No history database in the home folder: nothing there the user did not write.
    argv += ["--HistoryManager.enabled=False"]
    os.execv(sys.executable, argv)


if __name__ == "__main__":
    main()
