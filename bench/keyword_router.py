"""The keyword placeholder the router replaced (ui vs chat only): the benchmark's reference."""

from __future__ import annotations

import re

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


def route(text: str) -> str:
    """Score `ui` against `chat` by keyword hits (a question counts for chat); ties go to chat."""
    words = re.findall(r"[a-z][a-z-]*", text.lower())
    ui = float(sum(word in UI_WORDS for word in words))
    chat = CHAT_PRIOR + sum(word in CHAT_WORDS for word in words)
    if text.rstrip().endswith("?"):  # asking about an interface is not asking for one
        chat += 1
    total = ui + chat
    scores = {"ui": round(ui / total, 3), "chat": round(chat / total, 3)}
    expert = "ui" if scores["ui"] > scores["chat"] else "chat"
    return expert
