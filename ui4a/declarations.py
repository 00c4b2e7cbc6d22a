"""Staged decoding, on the spec's side: the head first, then a tail that declares what it names.

The ui expert writes a spec's root tree before its `state` and `data` (ui4a/schema.py streams
the layout first), so one grammar over the whole spec cannot know, while `data` is decoded,
which datasets the tree has named: an expert that names `"data":"rooms"` in a table and then
declares no `rooms` writes an invalid view. Decoded in two stages, it cannot: the head
(title, theme, root) is decoded under `head_schema`, then the tail under a grammar built from
what the head names (`tail_schemas`), in which every named dataset is a required property of
`data`. The engine runs the two stages (inference/serving/staged_decode.py).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ui4a import registry
from ui4a.catalog import MAX_DATASETS
from ui4a.fields import NAME_PATTERN, DatasetSlot, kind_of
from ui4a.tree import pointer, walk

Schema = dict[str, Any]
# Rows one dataset's inline records may have in the tail. Where the ui expert stops on its own it
# writes 2 to 7 (the dev set); where it does not, it repeats one row until the token limit cuts
# the spec off. A designer's larger tables come from uploads, as queries.
TAIL_ROWS = 12
HEAD = ("title", "theme", "root")
TAIL = ("state", "data")


def is_staged_schema(schema: Schema) -> bool:
    """Whether `schema` is a whole UI4A spec's (ui4a.json_schema), which decodes in stages."""
    properties = schema.get("properties")
    return isinstance(properties, dict) and list(properties) == [*HEAD, *TAIL]


def head_schema(schema: Schema) -> Schema:
    """The spec schema `schema` cut after the root: the first stage ends where the tail would
    begin, with the spec's closing brace."""
    head = copy.deepcopy(schema)
    head["properties"] = {k: v for k, v in schema["properties"].items() if k in HEAD}
    return head


def dataset_slots(spec: object) -> Iterator[DatasetSlot]:
    """Every place the spec's tree names a dataset (a table's, list's or chart's `data`, an
    append's `path`), in document order: the holding object, its key and a JSON pointer."""
    for ref in walk(spec):
        component = registry.get(ref.node.get("t"))
        if component is not None:
            for field in component.fields:
                yield from kind_of(field).dataset_slots(field, ref.node, pointer(ref.path))


def named_datasets(head: object) -> list[str]:
    """The datasets the head's tree names, in document order, each once, at most MAX_DATASETS
    (what `data` may hold)."""
    names: list[str] = []
    for holder, key, _ in dataset_slots(head):
        name = holder.get(key)
        if isinstance(name, str) and NAME_PATTERN.fullmatch(name) and name not in names:
            names.append(name)
    return names[:MAX_DATASETS]


@dataclass(frozen=True)
class TailSchemas:
    """What may follow the head: `state` (optional), then `data`, required when it must
    declare `datasets`; each a JSON schema for the property's value."""

    state: Schema
    data: Schema
    datasets: tuple[str, ...]

    @property
    def data_required(self) -> bool:
        return bool(self.datasets)


def tail_schemas(schema: Schema, head: object) -> TailSchemas:
    """The tail of `schema` (a whole spec's) for a decoded `head`: its `data` declares each
    dataset the head names, and nothing else, as the spec schema allows a dataset to be."""
    properties = schema["properties"]
    data = copy.deepcopy(properties["data"])
    data["additionalProperties"] = _rows_capped(data["additionalProperties"])
    datasets = tuple(named_datasets(head))
    if datasets:
        entry = data.pop("additionalProperties")
        data.pop("maxProperties", None)
        data["properties"] = {name: copy.deepcopy(entry) for name in datasets}
        data["required"] = list(datasets)
        data["additionalProperties"] = False
    return TailSchemas(copy.deepcopy(properties["state"]), data, datasets)


def _rows_capped(entry: Schema) -> Schema:
    """A dataset entry's schema (records, or records or a query) with at most TAIL_ROWS records."""
    for option in entry.get("anyOf", [entry]):
        if option.get("type") == "array":
            option["maxItems"] = min(option["maxItems"], TAIL_ROWS)
    return entry
