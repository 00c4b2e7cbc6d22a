"""Team-shaped screens: a kanban board or to-do list, and a chat, each named from the wide pools of
team_vocab.py, with the details naming what was drawn."""

from __future__ import annotations

from random import Random

from inference.offline.datasets.common import article, pick, sample
from inference.offline.datasets.nodes import Node, button, field, heading, node, page, spec, text
from inference.offline.datasets.screen import BRANDS, PEOPLE, Screen, theme_of
from inference.offline.datasets.sections import listing
from inference.offline.datasets.team_vocab import (
    ADD_CARD_LABELS,
    BOARDS,
    CARD_FIELD_LABELS,
    CARD_TAGS,
    CONVERSATIONS,
    LANE_SETS,
    MESSAGE_FIELD_LABELS,
    PRESENCE,
    REMOVE_LABELS,
    SEND_LABELS,
)


def _card(remove: str, tag: str | None) -> Node:
    badge = [node("badge", text=tag, tone="danger", if_=".tagged")] if tag else []
    return node("card", text("{.task}"), *badge, button(remove, {"do": "remove"}, "ghost"))


def kanban(rng: Random) -> Screen:
    """A board of lanes filtered from one `tasks` dataset, or a to-do list of it, with a form that
    appends to the first lane and a remove button on every card."""
    topic, cards = pick(rng, BOARDS)
    tasks = sample(rng, cards, rng.randint(3, len(cards)))
    add, label, remove = (
        pick(rng, ADD_CARD_LABELS),
        pick(rng, CARD_FIELD_LABELS),
        pick(rng, REMOVE_LABELS),
    )
    board = rng.random() < 0.6
    lanes = pick(rng, LANE_SETS) if board else ("Todo",)
    tag = pick(rng, CARD_TAGS) if board and rng.random() < 0.4 else None
    rows = [
        {"task": t, "status": pick(rng, lanes), "done": False, "tagged": i == 0 and tag is not None}
        for i, t in enumerate(tasks)
    ]
    form = node(
        "form",
        field(label, "draft", req=True),
        submit=add,
        on=[
            {
                "do": "append",
                "path": "tasks",
                "value": {"task": "{draft}", "status": lanes[0], "done": False, "tagged": False},
            },
            {"do": "reset", "path": "draft"},
        ],
    )
    said = [f"a form to add a card with a button saying '{add}'"]
    if board:
        # Only the tagged card's lane draws the badge: lanes whose cards show the same three
        # strings read as a loop to the decoder's repeat watch, which ends the head there.
        tagged_lane = rows[0]["status"] if tag else None
        cols = [
            node(
                "list",
                _card(remove, tag if s == tagged_lane else None),
                data="tasks",
                filter=[f"status='{s}'"],
                empty=f"No cards in {s}.",
            )
            for s in lanes
        ]
        titles = node("grid", *(heading(s, 3) for s in lanes), cols=len(lanes))
        body = [titles, node("grid", *cols, cols=len(lanes))]
        subjects = [
            f"a kanban board for {article(topic)} {topic}",
            f"{topic} task board",
            "a board of cards",
        ]
        placed = [f"{r['task']} in {r['status']}" for r in rows]
        said += [f"columns {listing(list(lanes))}", f"cards: {', '.join(placed)}"]
        if tag:
            said.append(f"{article(tag)} '{tag}' badge on {tasks[0]}")
        said.append(f"'{remove}' buttons on the cards")
        title = f"{topic.capitalize()} board"
    else:
        item = node(
            "row",
            node("checkbox", label="{.task}", bind=".done"),
            button(remove, {"do": "remove"}, "ghost"),
        )
        body = [node("list", item, data="tasks", empty="Nothing to do.")]
        subjects = [
            f"a to-do list for {article(topic)} {topic}",
            f"{topic} checklist",
            "a simple to-do app",
        ]
        said += [f"tasks {listing(tasks)} with checkboxes", f"'{remove}' buttons"]
        title = f"{topic.capitalize()} to-dos"
    root = page(heading(title), form, *body)
    return Screen(
        "kanban",
        subjects,
        said,
        spec(title, root, {"draft": ""}, theme=theme_of(rng), data={"tasks": rows}),
    )


def chat(rng: Random) -> Screen:
    """A conversation's history as a list, a presence badge, and a form that appends my line."""
    who = pick(rng, PEOPLE)
    first = who.split()[0]
    about, lines = pick(rng, CONVERSATIONS)
    msgs = [{"who": "You" if i % 2 else first, "text": line} for i, line in enumerate(lines)]
    presence, tone = pick(rng, PRESENCE)
    send, label = pick(rng, SEND_LABELS), pick(rng, MESSAGE_FIELD_LABELS)
    form = node(
        "form",
        field(label, "draft", req=True),
        submit=send,
        on=[
            {"do": "append", "path": "messages", "value": {"who": "You", "text": "{draft}"}},
            {"do": "reset", "path": "draft"},
        ],
    )
    root = page(
        node("row", heading(who, 2), node("badge", text=presence, tone=tone)),
        node("list", node("card", text("{.who}: {.text}")), data="messages"),
        form,
    )
    brand = pick(rng, BRANDS)
    subjects = [
        f"a chat with {who}, {about}",
        f"a {brand} messaging screen",
        f"direct messages with {first}",
    ]
    details = [
        f"messages from {first} saying '{lines[0]}' and '{lines[2]}'",
        f"a '{label}' box with a button saying '{send}' that adds my message",
        f"{article(presence)} '{presence}' badge",
    ]
    return Screen(
        "chat",
        subjects,
        details,
        spec(
            f"Chat with {first}", root, {"draft": ""}, theme=theme_of(rng), data={"messages": msgs}
        ),
    )
