"""Automatic expert choice when a request names none.

PLACEHOLDER: a tiny keyword scorer, transparent by construction (it returns its scores), that
only tells interface requests (`ui`) from everything else (`chat`). The real router (a measured
classifier over all experts, with a labelled dev set) replaces it; callers depend only on
`route()` and `Routing`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SCORER = "keyword-placeholder"

UI_WORDS = frozenset(
    {
        "ui",
        "interface",
        "screen",
        "page",
        "form",
        "dashboard",
        "layout",
        "widget",
        "button",
        "buttons",
        "checkbox",
        "input",
        "inputs",
        "modal",
        "dialog",
        "navbar",
        "sidebar",
        "menu",
        "card",
        "cards",
        "table",
        "signup",
        "sign-up",
        "login",
        "settings",
        "wizard",
        "landing",
        "mockup",
        "wireframe",
        "view",
    }
)
CHAT_WORDS = frozenset(
    {
        "what",
        "why",
        "how",
        "who",
        "when",
        "explain",
        "tell",
        "define",
        "meaning",
        "difference",
    }
)
# Even a message with no cue at all leans to chat, the general-purpose expert.
CHAT_PRIOR = 0.5


@dataclass(frozen=True)
class Routing:
    expert: str
    mode: str  # "explicit" or "auto"
    scores: dict[str, float] | None = None
    scorer: str | None = None

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"expert": self.expert, "mode": self.mode}
        if self.scores is not None:
            data.update(scores=self.scores, scorer=self.scorer)
        return data


def explicit(expert: str) -> Routing:
    return Routing(expert=expert, mode="explicit")


def route(text: str) -> Routing:
    """Score `ui` against `chat` by keyword hits (a question counts for chat); ties go to chat."""
    words = re.findall(r"[a-z][a-z-]*", text.lower())
    ui = float(sum(word in UI_WORDS for word in words))
    chat = CHAT_PRIOR + sum(word in CHAT_WORDS for word in words)
    if text.rstrip().endswith("?"):  # asking about an interface is not asking for one
        chat += 1
    total = ui + chat
    scores = {"ui": round(ui / total, 3), "chat": round(chat / total, 3)}
    expert = "ui" if scores["ui"] > scores["chat"] else "chat"
    return Routing(expert=expert, mode="auto", scores=scores, scorer=SCORER)
