"""How many records a tail's datasets may hold in the tokens its generation has left.

The tail writes the state and the data after the head, under the token limit the whole
generation shares. A long head left a tail too few tokens for the rows it went on to write: it
was cut at the limit mid-record, and the spec, closed by its grammar, ended "length" (search-02,
bench/RESULTS.md, 2026-12-07, where a head that went on to a listed item wrote 724 of 1,024
tokens). So the tail's grammar admits only as many records as fit (`ui4a.declarations.
tail_schemas`), reckoned from what the head uses: each state key and each value of a record
costs about TOKENS_PER_VALUE tokens (a dev-set record of seven keys took 67). The reckoning is
cautious; on the dev set it caps no tail that ends within the limit.
"""

from __future__ import annotations

from ui4a.declarations import TAIL_ROWS, named_datasets, row_keys
from ui4a.validate import state_references

# About what a `"key":value,` of the state or of a record costs, in tokens, at most.
TOKENS_PER_VALUE = 10
# A record's braces and comma.
TOKENS_PER_RECORD = 2
# The tail's own keys, braces and closing.
TAIL_OVERHEAD = 16
# A dataset whose records' keys the head does not fix is reckoned to have this many.
OPEN_RECORD_KEYS = 4


def records_that_fit(tokens_left: int, head: object) -> int:
    """How many records each of the head's datasets may hold, so that the tail's state and data
    fit in `tokens_left`: at least one, at most TAIL_ROWS."""
    datasets = named_datasets(head)
    if not datasets:
        return TAIL_ROWS
    keyed = row_keys(head)
    state_keys = len({ref.key for ref in state_references(head)})
    values = sum(len(keyed.get(name) or ()) or OPEN_RECORD_KEYS for name in datasets)
    record = values * TOKENS_PER_VALUE + TOKENS_PER_RECORD * len(datasets)
    spare = tokens_left - TAIL_OVERHEAD - state_keys * TOKENS_PER_VALUE
    return max(1, min(TAIL_ROWS, spare // record))
