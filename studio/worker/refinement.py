"""What a refinement revises, and how its answer becomes the stored spec.

A refinement shows the ui expert the base version's spec (or, targeted, the selected element cut
out as a small spec by `ui4a.subtree`) as the expert's own earlier answer. A targeted answer is
spliced back into the base spec, so everything outside the element is kept byte for byte; the
preview while it streams is the whole view with the partial element in place.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import ui4a
from studio.models import Generation, Version
from studio.rendered_views import FinalView
from ui4a import subtree


@dataclass(frozen=True)
class Basis:
    version: Version
    target: str  # the selected element's pointer; "" for the whole spec
    spec: dict[str, Any]  # what the expert revises: the whole spec, or the element's small spec
    first_prompt: str  # what made the base version, as the conversation's first turn

    @property
    def kind(self) -> str:
        return Version.Kind.TARGETED if self.target else Version.Kind.REFINED


def basis_of(generation: Generation) -> Basis | None:
    """The refinement a generation asks for; None for a fresh one. Raises SubtreeError when the
    selected element is not in the base version."""
    version = generation.base_version
    if version is None:
        return None
    made_by = version.generation
    first_prompt = made_by.prompt if made_by is not None else version.label
    spec = subtree.extract(version.spec, generation.target) if generation.target else version.spec
    return Basis(version, generation.target, spec, first_prompt)


def preview_spec(basis: Basis, revised: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the preview shows of a partial answer: a targeted one inside the whole view."""
    if not basis.target:
        return revised
    return subtree.splice_partial(basis.version.spec, basis.target, revised)


def final_of(basis: Basis, final: FinalView) -> FinalView:
    """The stored result of a finished refinement. A targeted one is spliced into the base spec
    and repaired as a whole; a problem the base did not have fails it, with no spec kept."""
    if not basis.target or final.spec is None:
        return final
    try:
        spliced = subtree.splice(basis.version.spec, basis.target, final.spec)
        repaired = ui4a.repair(spliced)
        had = Counter((p.code, p.message) for p in ui4a.repair(basis.version.spec).problems)
    except (subtree.SubtreeError, ui4a.SpecTooLarge) as exc:
        return FinalView(None, error=f"The revised element could not be put back: {exc}")
    new = []
    for problem in repaired.problems:
        key = (problem.code, problem.message)
        if had[key]:
            had[key] -= 1
        else:
            new.append(problem)
    if new:
        listed = "; ".join(f"{p.path}: {p.message}" for p in new[:5])
        more = f" (and {len(new) - 5} more)" if len(new) > 5 else ""
        return FinalView(
            None,
            problems=[p.as_dict() for p in new],
            error=f"The revised element does not fit the rest of the view: {listed}{more}. "
            "Nothing was changed; try another wording.",
        )
    return FinalView(
        repaired.spec,
        problems=[p.as_dict() for p in repaired.problems],
        fixes=[*final.fixes, *repaired.fixes],
        error=final.error,
    )
