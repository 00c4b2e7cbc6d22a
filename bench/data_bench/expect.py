"""The numbers a right answer shows, computed from the file bytes with the csv and json modules
and our own bucketing: nothing here goes through the spec library's query code."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from datetime import date, timedelta
from typing import Any


def read_rows(name: str, data: bytes) -> list[dict[str, str]]:
    text = data.decode()
    if name.endswith(".json"):
        return [{k: str(v) for k, v in row.items()} for row in json.loads(text)]
    delimiter = "\t" if name.endswith(".tsv") else ","
    return list(csv.DictReader(io.StringIO(text), delimiter=delimiter))


def bucket(value: str, unit: str) -> str:
    day = date.fromisoformat(value[:10])
    if unit == "day":
        return day.isoformat()
    if unit == "week":
        return (day - timedelta(days=day.weekday())).isoformat()
    if unit == "month":
        return f"{day.year:04d}-{day.month:02d}"
    return f"{day.year:04d}"


def series(rows: list[dict[str, str]], chart: dict[str, Any]) -> dict[str, float]:
    """label -> value for a chart expectation: group, agg (sum|mean|count|min|max), of, limit."""
    column, _, unit = chart["group"].partition(":")
    groups: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        label = bucket(row[column], unit) if unit else row[column]
        groups[label].append(float(row[chart["of"]]) if "of" in chart else 1.0)
    out = {label: _aggregate(chart["agg"], values) for label, values in groups.items()}
    if "limit" in chart:
        top = sorted(out.items(), key=lambda kv: -kv[1])[: chart["limit"]]
        out = dict(top)
    return out


def _aggregate(how: str, values: list[float]) -> float:
    if how == "count":
        return len(values)
    if how == "mean":
        return sum(values) / len(values)
    if how == "sum":
        return sum(values)
    return min(values) if how == "min" else max(values)


def latest(rows: list[dict[str, str]], table: dict[str, Any]) -> list[str]:
    """The newest `latest` values of the `by` column, newest first."""
    return sorted((row[table["by"]] for row in rows), reverse=True)[: table["latest"]]
