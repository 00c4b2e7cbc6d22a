"""ui4a: the UI4A spec format: JSON Schema, partial parsing, validation, repair and rendering.

Plain Python with no Django in it. A spec is `{"title", "root": page node, "state"}`; nodes are
`{"t": component, ...fields, "c": [children]}`. See the component folders for the catalog.
"""

from ui4a.ground import Grounded, ground_names
from ui4a.limits import DEFAULT_LIMITS, Limits, SpecTooLarge
from ui4a.parse import parse_partial
from ui4a.problems import Problem, ProblemCode
from ui4a.render import render_body, render_document
from ui4a.repair import Repaired, repair
from ui4a.resolve import Resolved, resolve_data
from ui4a.schema import json_schema, json_schema_over
from ui4a.validate import validate

__all__ = [
    "DEFAULT_LIMITS",
    "Grounded",
    "Limits",
    "Problem",
    "ProblemCode",
    "Repaired",
    "Resolved",
    "SpecTooLarge",
    "ground_names",
    "json_schema",
    "json_schema_over",
    "parse_partial",
    "render_body",
    "render_document",
    "repair",
    "resolve_data",
    "validate",
]
