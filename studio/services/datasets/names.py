"""Names a spec can use: a dataset's (from its file name, or the designer's) and its columns'
(from the header row), as lower-case identifiers; the header as written stays as a label.

A header is data, not markup or a formula: `<script>` becomes the name `script` and is shown
escaped; a label's leading `=`, `+`, `-` or `@` is stripped, so a header like `=HYPERLINK(...)`
can never turn into a formula when the table is opened in a spreadsheet again."""

from __future__ import annotations

import re
import unicodedata
from pathlib import PurePosixPath, PureWindowsPath

from studio.services.datasets.limits import DatasetRejected

NAME_MAX_CHARS = 63
LABEL_MAX_CHARS = 120
NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,62}")
FORMULA_LEAD = "=+-@"


def identifier(text: str, *, max_chars: int = NAME_MAX_CHARS) -> str:
    """`text` as letters, digits and single underscores, lower case, starting with a letter;
    "" when nothing of it is left (a header of only symbols or non-Latin letters)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    # "revenueUSD" reads as two words, as "Revenue USD" does.
    ascii_text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", ascii_text)
    words = re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")
    if words and not words[0].isalpha():
        words = f"c_{words}"
    return words[:max_chars].rstrip("_")


def column_label(header: str) -> str:
    """The header as the designer wrote it, on one line, without a formula's lead character."""
    label = " ".join(header.split())
    while label and label[0] in FORMULA_LEAD:
        label = label[1:].lstrip()
    return label[:LABEL_MAX_CHARS]


def column_names(headers: list[str]) -> list[tuple[str, str]]:
    """(name, label) per header: names unique within the table ("region", "region_2"), and
    `column_3` for a header with nothing usable in it."""
    taken: set[str] = set()
    named: list[tuple[str, str]] = []
    for index, header in enumerate(headers, start=1):
        label = column_label(header)
        base = identifier(label) or f"column_{index}"
        name = base
        suffix = 2
        while name in taken:
            tail = f"_{suffix}"
            name = base[: NAME_MAX_CHARS - len(tail)] + tail
            suffix += 1
        taken.add(name)
        named.append((name, label or name))
    return named


def dataset_name_from_file(filename: str) -> str:
    """ "Sales 2024 (final).csv" -> "sales_2024_final"; "data" when nothing is left."""
    stem = PurePosixPath(PureWindowsPath(filename).name).name
    if "." in stem:
        stem = stem.rsplit(".", 1)[0]
    return identifier(stem) or "data"


def dataset_name_clean(name: object) -> str:
    """A name the designer typed, checked: it must already be one a spec can use."""
    if not isinstance(name, str) or not name.strip():
        raise DatasetRejected("invalid_name", "Give the dataset a name.", param="name")
    cleaned = name.strip()
    if not NAME_PATTERN.fullmatch(cleaned):
        suggestion = identifier(cleaned)
        hint = f' (for example "{suggestion}")' if suggestion else ""
        raise DatasetRejected(
            "invalid_name",
            "A dataset name is lower-case letters, digits and underscores, starting with a "
            f"letter, at most {NAME_MAX_CHARS} characters{hint}: specs refer to it by name.",
            param="name",
        )
    return cleaned
