"""The pricing, booking, auth, products, checkout, settings, profile, wizard, kanban and chat
builders draw their names from wide pools, put every name their details give into the spec, and
write valid specs."""

from __future__ import annotations

import json
import re
from collections import Counter
from random import Random

from inference.offline.datasets import ui
from inference.offline.datasets.screen import Builder, Screen, find_all
from inference.offline.datasets.screens_account import profile, settings, wizard
from inference.offline.datasets.screens_data import pricing, products
from inference.offline.datasets.screens_forms import auth, booking, checkout
from inference.offline.datasets.screens_team import chat, kanban
from inference.offline.datasets.vocab import HELD_OUT_WORDS

QUOTED = re.compile(r"'([^']+)'")


def screens(build: Builder, count: int = 200) -> list[Screen]:
    rng = Random(7)
    return [build(rng) for _ in range(count)]


def spec_text(screen: Screen) -> str:
    """The spec's text, `{key}`s shown with their state's first values, as the view shows them."""
    text = ui.checked(screen.spec)  # raises on an invalid spec
    for key, value in screen.spec.get("state", {}).items():
        text = text.replace("{" + key + "}", str(value))
    return text


def test_every_quoted_label_in_the_details_is_in_the_spec() -> None:
    for build in (
        pricing,
        booking,
        auth,
        products,
        checkout,
        settings,
        profile,
        wizard,
        kanban,
        chat,
    ):
        for screen in screens(build):
            text = spec_text(screen)
            for detail in screen.details:
                for quoted in QUOTED.findall(detail):
                    assert json.dumps(quoted)[1:-1] in text, (detail, text[:300])


def test_pricing_names_its_tiers_and_prices_as_the_cards_show_them() -> None:
    titles: Counter[str] = Counter()
    for screen in screens(pricing):
        cards = next(c for c in screen.spec["root"]["c"] if c["t"] == "grid")["c"]
        listed = next(d for d in screen.details if "tiers:" in d or d.startswith("plans "))
        for card in cards:
            titles[card["title"]] += 1
            assert card["title"] in listed
            price = next(k["text"] for k in card["c"] if k["t"] == "heading")
            assert price.lower() in listed.lower()
    assert len(titles) >= 25  # no handful of tier names to learn by heart
    assert max(titles.values()) < 0.1 * sum(titles.values())


def test_booking_varies_its_fields_slots_and_button() -> None:
    layouts, buttons, slots = set(), set(), set()
    for screen in screens(booking):
        form = screen.spec["root"]["c"][1]["c"][0]
        layouts.add(tuple(k.get("label") for k in form["c"]))
        buttons.add(form["submit"])
        time = next(k for k in form["c"] if k.get("label") == "Time")
        slots.add(tuple(time["opts"]))
        assert any(" ".join(time["opts"]) in d for d in screen.details)
    assert len(layouts) >= 100 and len(buttons) >= 4 and len(slots) >= 30


def test_auth_varies_its_fields_and_buttons() -> None:
    labels: set[str] = set()
    buttons: set[str] = set()
    for screen in screens(auth):
        form = screen.spec["root"]["c"][0]["c"][1]
        labels.update(k.get("label") for k in form["c"])
        buttons.add(form["submit"])
    assert len(labels) >= 12 and len(buttons) >= 8


def test_the_named_builders_get_more_screens_added_last() -> None:
    small = {"composed_count": 20, "screens_per_kind": 1, "data_dashboards_count": 5}
    without = ui.generate(0, mixed_count=5, named_per_kind=0, **small)
    with_them = ui.generate(0, mixed_count=5, named_per_kind=3, **small)
    assert with_them[: len(without)] == without
    added = Counter(r["kind"].split("/")[0] for r in with_them[len(without) :])
    assert set(added) == set(ui.NAMED_KINDS) and min(added.values()) >= 3


def test_products_lists_the_goods_and_prices_its_cards_show() -> None:
    goods: Counter[str] = Counter()
    for screen in screens(products):
        listed = screen.details[0]
        for card in find_all(screen.spec["root"], "card"):
            name = next(k["text"] for k in card["c"] if k["t"] == "heading")
            price = next(k["text"] for k in card["c"] if k["t"] == "text")
            assert f"{name} {price}" in listed
            goods[name] += 1
    assert len(goods) >= 30


def test_their_prompts_and_specs_name_no_held_out_kind() -> None:
    for kind in ui.NAMED_KINDS:
        for screen in screens(ui.KINDS[kind], 100):
            said = " ".join([*screen.subjects, *screen.details, spec_text(screen)]).lower()
            assert not [w for w in HELD_OUT_WORDS if re.search(rf"\b{w}\b", said)], said[:300]


def test_settings_names_its_switches_and_pickers_as_the_cards_show_them() -> None:
    switches: Counter[str] = Counter()
    layouts = set()
    for screen in screens(settings):
        said = " ".join(screen.details)
        for switch in find_all(screen.spec["root"], "switch"):
            switches[switch["label"]] += 1
            assert switch["label"].lower() in said
        for picker in find_all(screen.spec["root"], "select") + find_all(
            screen.spec["root"], "radio"
        ):
            assert f"{picker['label'].lower()} picker with" in said
            assert all(option in said for option in picker["opts"])
        layouts.add(json.dumps(screen.spec["root"]))
    assert len(switches) >= 30 and len(layouts) >= 150
    assert max(switches.values()) < 0.1 * sum(switches.values())


def test_profile_follow_button_changes_its_label_and_the_dialog_has_the_named_fields() -> None:
    roles: set[str] = set()
    stats: set[str] = set()
    for screen in screens(profile):
        buttons = find_all(screen.spec["root"], "button")
        before, after = buttons[0], buttons[1]
        assert before["if"] == "!following" and after["if"] == "following"
        said = " ".join(screen.details)
        assert f"'{before['label']}' button whose label becomes '{after['label']}'" in said
        dialog = find_all(screen.spec["root"], "dialog")[0]
        fields = [k["label"].lower() for k in dialog["c"] if k["t"] in ("input", "textarea")]
        assert any(
            d.endswith(f"{', '.join(fields[:-1])} and {fields[-1]} fields") for d in screen.details
        )
        roles.add(find_all(screen.spec["root"], "badge")[0]["text"])
        stats.update(s["label"] for s in find_all(screen.spec["root"], "stat"))
    assert len(roles) >= 15 and len(stats) >= 10


def test_wizard_names_its_steps_and_shows_one_card_per_step() -> None:
    flows: set[str] = set()
    buttons: set[str] = set()
    for screen in screens(wizard):
        cards = find_all(screen.spec["root"], "card")
        assert [c["if"] for c in cards] == [f"step={i}" for i in range(1, len(cards) + 1)]
        titles = [c["title"].split(": ", 1)[1] for c in cards]
        assert any(d.startswith(f"{len(cards)} steps: {titles[0]}") for d in screen.details)
        progress = find_all(screen.spec["root"], "progress")[0]
        assert progress["max"] == len(cards)
        flows.add(screen.spec["title"])
        buttons.update(b["label"] for b in find_all(screen.spec["root"], "button"))
    assert len(flows) >= 9 and len(buttons) >= 8


def test_kanban_places_each_named_card_in_its_named_lane() -> None:
    lane_sets: set[tuple[str, ...]] = set()
    cards: set[str] = set()
    for screen in screens(kanban):
        rows = screen.spec["data"]["tasks"]
        lists = find_all(screen.spec["root"], "list")
        if len(lists) == 1:  # the to-do list
            continue
        lanes = tuple(h["text"] for h in find_all(screen.spec["root"], "heading")[1:])
        assert [f["filter"] for f in lists] == [[f"status='{lane}'"] for lane in lanes]
        assert f"columns {', '.join(lanes[:-1])} and {lanes[-1]}" in screen.details
        placed = next(d for d in screen.details if d.startswith("cards: "))
        assert placed == "cards: " + ", ".join(f"{r['task']} in {r['status']}" for r in rows)
        lane_sets.add(lanes)
        cards.update(r["task"] for r in rows)
    assert len(lane_sets) >= 6 and len(cards) >= 35


def test_chat_shows_the_quoted_messages_and_appends_mine() -> None:
    partners: set[str] = set()
    for screen in screens(chat):
        said = " ".join(screen.details)
        messages = screen.spec["data"]["messages"]
        assert f"'{messages[0]['text']}'" in said and f"'{messages[2]['text']}'" in said
        form = find_all(screen.spec["root"], "form")[0]
        assert form["on"][0]["value"] == {"who": "You", "text": "{draft}"}
        partners.add(screen.subjects[0].split(", ", 1)[1])
    assert len(partners) >= 8
