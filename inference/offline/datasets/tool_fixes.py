"""Tool-loop tasks whose first cell fails the way real first tries do (a missing import, numbers
read as text, a header row, a wrong date format, a typo, a wrong column name), and whose second
cell is the fix a reader of that error would make."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from inference.offline.datasets.common import pick, sample
from inference.offline.datasets.tool_tasks import ITEMS, PHRASES, Task, _csv, _day, shown


def _fixed(kind_ask: str, first: str, second: str, say: str) -> Task:
    return Task(
        "tool_fix",
        kind_ask,
        (first, second),
        lambda outcomes: say.format(v=shown(outcomes[-1])),
        must_fail_first=True,
    )


def missing_import(rng: Random) -> Task:
    numbers = [rng.randint(10, 500) for _ in range(rng.randint(5, 8))]
    fn, stat = pick(rng, (("median", "median"), ("mean", "mean"), ("pstdev", "population std dev")))
    expr = f"round(statistics.{fn}({numbers}), 3)"
    ask = pick(rng, ("What's the {s} of {n}?", "Give the {s} of {n}."))
    return _fixed(
        ask.format(s=stat, n=numbers),
        expr,
        f"import statistics\n{expr}",
        f"The {stat} is {{v}}.",
    )


def text_numbers(rng: Random) -> Task:
    text, _ = _csv(rng)
    read = f"import csv, io\nrows = list(csv.DictReader(io.StringIO({text!r})))"
    ask = pick(rng, ("Sum the qty column:\n{t}", "{t}\nHow many units are there in total?"))
    return _fixed(
        ask.format(t=text),
        f"{read}\nsum(r['qty'] for r in rows)",
        "sum(int(r['qty']) for r in rows)",
        "There are {v} units in total.",
    )


def header_row(rng: Random) -> Task:
    text, _ = _csv(rng)
    ask = pick(rng, ("{t}\nAdd up the qty values.", "Total of the second column?\n{t}"))
    return _fixed(
        ask.format(t=text),
        f"lines = {text!r}.splitlines()\nsum(int(line.split(',')[1]) for line in lines)",
        "sum(int(line.split(',')[1]) for line in lines[1:])",
        "The qty values add up to {v}.",
    )


def date_format(rng: Random) -> Task:
    y, m, d = _day(rng)
    day = f"{y}-{m:02d}-{d:02d}"
    ask = pick(rng, (f"Parse {day} and tell me its weekday.", f"{day}: which day of the week?"))
    return _fixed(
        ask,
        f"from datetime import datetime\ndatetime.strptime('{day}', '%d/%m/%Y').strftime('%A')",
        f"datetime.strptime('{day}', '%Y-%m-%d').strftime('%A')",
        f"{day} falls on a {{v}}.",
    )


def typo(rng: Random) -> Task:
    prices = [round(rng.uniform(1, 90), 2) for _ in range(rng.randint(3, 6))]
    ask = pick(rng, ("Add these prices: {p}", "What do {p} add up to?"))
    return _fixed(
        ask.format(p=", ".join(map(str, prices))),
        f"total = round(sum({prices}), 2)\ntotl",
        "total",
        "They add up to {v}.",
    )


def column_name(rng: Random) -> Task:
    text, _ = _csv(rng)
    read = f"import csv, io\nrows = list(csv.DictReader(io.StringIO({text!r})))"
    ask = pick(rng, ("Cheapest price in this list?\n{t}", "{t}\nWhat is the lowest price?"))
    return _fixed(
        ask.format(t=text),
        f"{read}\nmin(float(r['Price']) for r in rows)",
        "min(float(r['price']) for r in rows)",
        "The lowest price is {v}.",
    )


def concat(rng: Random) -> Task:
    words = sample(rng, PHRASES, 1)[0].split()
    ask = pick(
        rng,
        (
            "Report how many words are in '{p}' as 'Words: N'.",
            "Label the word count of '{p}' like 'Words: N'.",
        ),
    )
    return _fixed(
        ask.format(p=" ".join(words)),
        f"count = len({' '.join(words)!r}.split())\nprint('Words: ' + count)",
        "print('Words: ' + str(count))",
        "{v}",
    )


def attribute(rng: Random) -> Task:
    items = sample(rng, ITEMS, 4)
    ask = pick(
        rng,
        (
            "Sort these and join them with semicolons: {i}",
            "Give {i} in alphabetical order, separated by ';'.",
        ),
    )
    return _fixed(
        ask.format(i=", ".join(items)),
        f"items = {items!r}\nitems.sort().join(';')",
        "';'.join(sorted(items))",
        "Sorted: {v}",
    )


FIXES: tuple[Callable[[Random], Task], ...] = (
    missing_import,
    text_numbers,
    header_row,
    date_format,
    typo,
    column_name,
    concat,
    attribute,
)
