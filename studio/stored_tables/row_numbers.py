"""Which row of the source file a stored row came from, so a message about a cell names the
row the designer sees in their spreadsheet even when blank rows were skipped on the way in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RowNumbering:
    first: int  # the source's number for the first stored row (2 under a header row)
    # (index of a stored row, source rows skipped just before it), by index.
    gaps: tuple[tuple[int, int], ...] = field(default=())

    def number(self, index: int) -> int:
        number = self.first + index
        for at, skipped in self.gaps:
            if at > index:
                break
            number += skipped
        return number

    def numbers(self, count: int) -> list[int]:
        return [self.number(i) for i in range(count)]

    def gaps_json(self) -> list[list[int]]:
        return [[at, skipped] for at, skipped in self.gaps]

    @classmethod
    def from_stored(cls, first: int, gaps: Any) -> RowNumbering:
        return cls(first, tuple((int(at), int(skipped)) for at, skipped in gaps or ()))
