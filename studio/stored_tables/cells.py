"""One cell's text (or a spreadsheet's or JSON's typed value) read as a number, a date or a
boolean, the way a designer's files write them. A parser answers None for "not one of these";
finite numbers only, so "1e400" and "NaN" are never a number."""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Sequence
from typing import Literal

RawCell = str | int | float | bool | dt.date | dt.datetime | dt.time | dt.timedelta | None
Cell = str | int | float | bool | None  # as stored and as ui4a.tables.Table holds it
DateOrder = Literal["mdy", "dmy"]

# Typed columns (number, date, boolean) read these as a missing cell; text keeps them as text
# ("NA" may well be North America in a region column).
MISSING_MARKS = frozenset(
    {"", "na", "n/a", "#n/a", "null", "none", "nan", "-"}
    # A spreadsheet formula's error is a value it could not compute.
    | {"#div/0!", "#value!", "#ref!", "#name?", "#num!", "#null!"}
)
NUMBER_MAX_CHARS = 40  # beyond this a "number" is an id or garbage, and int() gets slow

_NUMBER = re.compile(
    r"(?P<sign>[+-]?)[$€£¥]?(?P<int>\d{1,3}(?:,\d{3})+|\d*)(?P<frac>\.\d*)?(?P<exp>[eE][+-]?\d+)?"
)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ISO_DATETIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
)
_SLASHED = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})")
_YMD_SLASHED = re.compile(r"(\d{4})[/.](\d{1,2})[/.](\d{1,2})")
_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
            ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
            ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for name in names
}  # fmt: skip
_MONTH_DAY_YEAR = re.compile(r"([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})")
_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?,?\s+(\d{4})")
_TRUE = frozenset({"true", "yes"})
_FALSE = frozenset({"false", "no"})


_MARK_MAX_CHARS = max(len(mark) for mark in MISSING_MARKS)


def is_missing(value: RawCell) -> bool:
    if value is None:
        return True
    if not isinstance(value, str):
        return False
    if len(value) > _MARK_MAX_CHARS and not value[0].isspace() and not value[-1].isspace():
        return False  # the usual cell, decided without copying it
    return value.strip().lower() in MISSING_MARKS


def as_text(value: RawCell) -> str | None:
    """A cell as text: what a text or category column stores."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.datetime):
        return _iso_datetime(value)
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def parse_number(value: RawCell, *, codes_are_text: bool = True) -> int | float | None:
    """`codes_are_text`: "00123" is a code (a zip, an id), not 123; off once the designer
    has said the column is a number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text or len(text) > NUMBER_MAX_CHARS:
        return None
    match = _NUMBER.fullmatch(text)
    if not match or not (match["int"] or (match["frac"] or "").strip(".")):
        return None
    digits = match["int"].replace(",", "")
    if codes_are_text and len(digits) > 1 and digits[0] == "0":
        return None
    if not match["frac"] and not match["exp"]:
        return int(match["sign"] + digits)
    number = float(match["sign"] + (digits or "0") + (match["frac"] or "") + (match["exp"] or ""))
    return number if math.isfinite(number) else None


def parse_boolean(value: RawCell) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    return None


def _iso_datetime(value: dt.datetime) -> str:
    if value.time() == dt.time(0, 0):
        return value.date().isoformat()
    return value.replace(tzinfo=None, microsecond=0).isoformat()


def _date(year: int, month: int, day: int) -> str | None:
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def slashed_parts(value: RawCell) -> tuple[int, int] | None:
    """The first two numbers of a "03/02/2025"-style date, for deciding day or month first."""
    if isinstance(value, str) and (match := _SLASHED.fullmatch(value.strip())):
        return int(match[1]), int(match[2])
    return None


def date_order(values: Sequence[RawCell]) -> DateOrder:
    """Day first when some date's first part cannot be a month (31/01/2025), month first when
    some second part cannot (01/31/2025); month first when every date reads either way."""
    for value in values:
        if not isinstance(value, str) or value[:4].isdigit():
            continue  # ISO, or not text: says nothing about the order
        parts = slashed_parts(value)
        if parts and parts[0] > 12:
            return "dmy"
        if parts and parts[1] > 12:
            return "mdy"
    return "mdy"


def parse_date(value: RawCell, order: DateOrder = "mdy") -> str | None:
    """ISO "YYYY-MM-DD" (or "YYYY-MM-DDTHH:MM:SS" when it has a time of day)."""
    if isinstance(value, dt.datetime):
        return _iso_datetime(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if not isinstance(value, str):
        return None
    text = value.strip()
    if len(text) > 40:
        return None
    if _ISO_DATE.fullmatch(text):
        try:
            return dt.date.fromisoformat(text).isoformat()
        except ValueError:
            return None
    if _ISO_DATETIME.fullmatch(text):
        try:
            return _iso_datetime(dt.datetime.fromisoformat(text.replace("Z", "+00:00")))
        except ValueError:
            return None
    if match := _SLASHED.fullmatch(text):
        first, second, year = int(match[1]), int(match[2]), int(match[3])
        return _date(year, first, second) if order == "mdy" else _date(year, second, first)
    if match := _YMD_SLASHED.fullmatch(text):
        return _date(int(match[1]), int(match[2]), int(match[3]))
    lower = text.lower()
    if (match := _MONTH_DAY_YEAR.fullmatch(lower)) and match[1] in _MONTHS:
        return _date(int(match[3]), _MONTHS[match[1]], int(match[2]))
    if (match := _DAY_MONTH_YEAR.fullmatch(lower)) and match[2] in _MONTHS:
        return _date(int(match[3]), _MONTHS[match[2]], int(match[1]))
    return None
