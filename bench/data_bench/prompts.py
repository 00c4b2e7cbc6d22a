"""The bench's prompts (prompts.jsonl): which files a project holds, the ask, and the numbers a
right answer shows (`expect.py` computes them)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.data_bench.files import FILES

PROMPTS = Path(__file__).with_name("prompts.jsonl")
AGGS = ("sum", "mean", "count", "min", "max")


@dataclass(frozen=True)
class DataPrompt:
    id: str
    files: tuple[str, ...]
    prompt: str
    expects: tuple[dict[str, Any], ...]

    @property
    def asked_file(self) -> str:
        """The file the expectations are computed from: the one whose columns they name."""
        for name in self.files:
            header = FILES[name]().split(b"\n", 1)[0].decode()
            if all(_column_of(e) in header for e in self.expects):
                return name
        raise ValueError(f"{self.id}: no file has the columns its expectations name")


def _column_of(item: dict[str, Any]) -> str:
    if "chart" in item:
        return str(item["chart"]["group"]).partition(":")[0]
    return str(item["table"]["by"])


def _checked(item: dict[str, Any], where: str) -> dict[str, Any]:
    if "chart" in item:
        chart = item["chart"]
        if chart.get("agg") not in AGGS or ("of" not in chart) != (chart["agg"] == "count"):
            raise ValueError(f"{where}: a chart needs an agg of {AGGS}, and `of` unless count")
    elif not {"latest", "by"} <= set(item.get("table", {})):
        raise ValueError(f"{where}: a table expectation needs `latest` and `by`")
    return item


def load(path: Path = PROMPTS) -> list[DataPrompt]:
    out = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        row = json.loads(line)
        where = f"{path.name} line {number}"
        unknown = set(row["files"]) - FILES.keys()
        if unknown:
            raise ValueError(f"{where}: unknown files {sorted(unknown)}")
        expects = tuple(_checked(e, where) for e in row["expects"])
        out.append(DataPrompt(row["id"], tuple(row["files"]), row["prompt"], expects))
    return out
