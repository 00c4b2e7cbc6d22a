"""How many records a tail may hold in the tokens left (inference/serving/tail_budget.py): as
many as the reckoning fits, never none, never more than the tail's own cap."""

from __future__ import annotations

from inference.serving.tail_budget import records_that_fit
from ui4a.declarations import TAIL_ROWS

# Seven state keys and a table of seven columns, as the dev set's search-02 head had.
COLS = ["flight", "departure_date", "passengers", "return_date", "price", "duration", "pass"]
HEAD = {
    "root": {
        "t": "page",
        "c": [
            *({"t": "input", "label": k, "bind": k} for k in COLS),
            {"t": "table", "data": "flights", "cols": COLS},
        ],
    }
}


def test_a_short_budget_fits_fewer_records() -> None:
    # 300 tokens: 16 for the tail, 70 for the state, then 72 a record.
    assert records_that_fit(300, HEAD) == 2
    assert records_that_fit(600, HEAD) == 7


def test_never_none_and_never_more_than_the_cap() -> None:
    assert records_that_fit(0, HEAD) == 1
    assert records_that_fit(100_000, HEAD) == TAIL_ROWS
    assert records_that_fit(10, {"root": {"t": "page", "c": []}}) == TAIL_ROWS
