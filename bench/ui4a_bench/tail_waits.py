"""How long each staged generation waited between its head and its tail, from the worker's log
(inference/serving/staged_decode.py logs one line a tail): the tail grammar's compile, the end of
its prompt the prefix cache does not hold, and its wait for a place in the running batch.

`python -m bench.ui4a_bench.tail_waits WORKER_LOG OUT_JSON` reads a kept log; a bench run writes
`tail_waits.json` beside its summary itself.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from pathlib import Path
from typing import Any

LINE = re.compile(r"staged decode: the tail \((?P<datasets>[^)]*)\) began (?P<ms>\d+) ms after")


def tail_waits(log_text: str) -> dict[str, Any]:
    """Milliseconds from each head's end to its tail's first token: min, median, p95, max."""
    found = [(m["datasets"], int(m["ms"])) for m in LINE.finditer(log_text)]
    waits = sorted(ms for _, ms in found)
    if not waits:
        return {"tails": 0}
    return {
        "tails": len(waits),
        "tails_declaring_datasets": sum(1 for names, _ in found if names != "no datasets"),
        "ms": {
            "min": waits[0],
            "median": statistics.median(waits),
            "p95": waits[min(len(waits) - 1, round(0.95 * (len(waits) - 1)))],
            "max": waits[-1],
        },
    }


def write_tail_waits(worker_log: Path, out: Path) -> None:
    text = worker_log.read_text(errors="replace") if worker_log.exists() else ""
    out.write_text(json.dumps({"source": worker_log.name, **tail_waits(text)}, indent=1) + "\n")


if __name__ == "__main__":
    write_tail_waits(Path(sys.argv[1]), Path(sys.argv[2]))
