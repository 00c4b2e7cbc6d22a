"""A version's rows at rest (zlib-compressed JSON of lists) and in memory.

Versions never change, so their decoded rows are cached per process by version id, within a
budget of cells (least recently used first out): a 100,000-row table is decompressed once,
not on every render. Tables hand out rows as dicts made on demand from the shared lists, so a
render that reads every row costs no copy of the table."""

from __future__ import annotations

import json
import threading
import uuid
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import overload

from studio.stored_tables.cells import Cell

CACHE_MAX_CELLS = 4_000_000
COMPRESSION_LEVEL = 6


def rows_encode(rows: Sequence[Sequence[Cell]]) -> bytes:
    text = json.dumps(rows, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return zlib.compress(text.encode("utf-8"), COMPRESSION_LEVEL)


def rows_decode(blob: bytes | memoryview) -> list[list[Cell]]:
    rows: list[list[Cell]] = json.loads(zlib.decompress(bytes(blob)).decode("utf-8"))
    return rows


class StoredRows(Sequence[dict[str, Cell]]):
    """Rows as `{column name: cell}` dicts (what `ui4a.tables.Table.rows` holds), made as
    they are read from one shared list of lists. A slice is a plain list of dicts.

    `rows` may be a loader, called on first use: a render pays only for the datasets its
    spec reads. With `count` given, len() needs no load."""

    def __init__(
        self,
        names: Sequence[str],
        rows: Sequence[Sequence[Cell]] | Callable[[], Sequence[Sequence[Cell]]],
        *,
        count: int | None = None,
    ) -> None:
        self._names = tuple(names)
        self._loaded = None if callable(rows) else rows
        self._load = rows if callable(rows) else None
        self._count = count

    @property
    def _rows(self) -> Sequence[Sequence[Cell]]:
        if self._loaded is None:
            assert self._load is not None
            self._loaded = self._load()
        return self._loaded

    def __len__(self) -> int:
        return self._count if self._count is not None else len(self._rows)

    @overload
    def __getitem__(self, index: int) -> dict[str, Cell]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Cell]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Cell] | list[dict[str, Cell]]:
        if isinstance(index, slice):
            return [dict(zip(self._names, row, strict=True)) for row in self._rows[index]]
        return dict(zip(self._names, self._rows[index], strict=True))

    def __iter__(self) -> Iterator[dict[str, Cell]]:
        names = self._names
        for row in self._rows:
            yield dict(zip(names, row, strict=True))


class RowsCache:
    """Decoded rows by version id, least recently used out once over `max_cells`."""

    def __init__(self, max_cells: int = CACHE_MAX_CELLS) -> None:
        self.max_cells = max_cells
        self._entries: OrderedDict[uuid.UUID, tuple[list[list[Cell]], int]] = OrderedDict()
        self._cells = 0
        self._lock = threading.Lock()

    def get(
        self, version_id: uuid.UUID, load: Callable[[], bytes | memoryview]
    ) -> list[list[Cell]]:
        with self._lock:
            entry = self._entries.get(version_id)
            if entry is not None:
                self._entries.move_to_end(version_id)
                return entry[0]
        rows = rows_decode(load())  # outside the lock: other tables stay readable meanwhile
        cells = sum(len(row) for row in rows)
        with self._lock:
            if version_id not in self._entries and cells <= self.max_cells:
                self._entries[version_id] = (rows, cells)
                self._cells += cells
                while self._cells > self.max_cells:
                    _, (_, dropped) = self._entries.popitem(last=False)
                    self._cells -= dropped
        return rows

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._cells = 0


ROWS_CACHE = RowsCache()
