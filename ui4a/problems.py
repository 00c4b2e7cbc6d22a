"""The machine-readable problems validation reports (and repair hands back to the model)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

ProblemCode = Literal[
    "wrong_type",  # a value of the wrong JSON type
    "missing_field",  # a required property is absent
    "unknown_field",  # a property the component or action does not have
    "unknown_component",  # "t" names no registered component
    "unknown_action",  # "do" names no action of the vocabulary
    "bad_value",  # right type, but not an allowed value (enum, empty key, malformed id)
    "misplaced",  # a page that is not the root, or a root that is not a page
    "dangling_binding",  # a state key is read or written but not declared in "state"
    "unknown_dataset",  # a table, chart, list or action names a dataset "data" does not have
    "no_target",  # an action targets nothing (no such dialog, tabs, tab, form or list item)
    "duplicate_id",  # two nodes share an id
    "too_deep",  # a container nested deeper than the schema allows
    "too_large",  # too many children or state keys, or a string over its length limit
]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a spec, at a JSON pointer into it (e.g. "/root/c/2/bind")."""

    path: str
    code: ProblemCode
    message: str

    def as_dict(self) -> dict[str, str]:
        return asdict(self)
