"""Data-shaped screens: CRUD table, dashboard, pricing, products, search."""

from __future__ import annotations

from random import Random
from typing import Any

from inference.offline.datasets.builder_vocab import (
    BUY_LABELS,
    CART_BADGES,
    CHOOSE_LABELS,
    PERKS,
    POPULAR_BADGES,
    PRICE_FORMS,
    PRICES,
    SHOPS,
    TIER_NAMES,
)
from inference.offline.datasets.common import pick, sample
from inference.offline.datasets.nodes import button, field, heading, node, page, set_, spec, text
from inference.offline.datasets.screen import (
    BRANDS,
    PEOPLE,
    Refinement,
    Screen,
    edited,
    find_all,
    theme_of,
)
from inference.offline.datasets.sections import listing

ENTITIES: dict[str, tuple[list[str], list[str]]] = {
    "customers": (["name", "email", "plan"], ["Free", "Pro", "Team"]),
    "orders": (["id", "customer", "status", "total"], ["Paid", "Open", "Refunded"]),
    "invoices": (["number", "client", "status", "amount"], ["Paid", "Due", "Overdue"]),
    "employees": (["name", "team", "status"], ["Active", "On leave"]),
    "tickets": (["id", "title", "status"], ["Open", "Pending", "Closed"]),
    "products": (["sku", "name", "stock", "price"], ["In stock", "Low", "Out"]),
}
STATUS_COL = {"customers": "plan", "employees": "status"}
WORDS = ("Alpha", "Bravo", "Nova", "Zen", "Echo", "Pixel", "Aurora", "Summit", "Comet", "Drift")


def _cell(rng: Random, col: str, i: int, statuses: list[str]) -> Any:
    if col in ("name", "customer", "client"):
        return pick(rng, PEOPLE)
    if col == "email":
        return f"user{i}@example.com"
    if col in ("total", "amount", "price"):
        return rng.randint(5, 900)
    if col == "stock":
        return rng.randint(0, 120)
    if col in ("id", "number", "sku"):
        return f"{col[0].upper()}-{1000 + i}"
    if col == "title":
        return f"{pick(rng, WORDS)} issue"
    if col == "team":
        return pick(rng, ("Design", "Sales", "Platform", "Support"))
    return pick(rng, statuses)


def crud(rng: Random) -> Screen:
    entity = pick(rng, list(ENTITIES))
    cols, statuses = ENTITIES[entity]
    status_col = STATUS_COL.get(entity, "status")
    rows = [{c: _cell(rng, c, i, statuses) for c in cols} for i in range(rng.randint(4, 6))]
    first = cols[0] if cols[0] not in ("id", "number", "sku") else cols[1]
    state: dict[str, object] = {"draft": "", "filter": "All"}
    search = rng.random() < 0.5
    table = node(
        "table",
        data=entity,
        title=entity.capitalize(),
        cols=cols,
        filter=[f"{status_col}=filter"],
        search=search or None,
        page=5,
    )
    add = node(
        "form",
        field(f"New {first}", "draft", req=True),
        submit="Add",
        on=[
            {"do": "append", "path": entity, "value": {first: "{draft}", status_col: statuses[0]}},
            {"do": "reset", "path": "draft"},
        ],
    )
    select = node("select", label=status_col.capitalize(), bind="filter", opts=["All", *statuses])
    root = page(heading(f"{entity.capitalize()}"), node("row", select), table, add)
    subjects = [
        f"a CRUD table of {entity}",
        f"an admin screen to manage {entity}",
        f"{entity} list with add form",
    ]
    details = [f"columns {', '.join(cols)}", f"a {status_col} filter", "a form to add rows"]
    if search:
        details.append("a search box")
    screen = Screen(
        "crud",
        subjects,
        details,
        spec(entity.capitalize(), root, state, theme=theme_of(rng), data={entity: rows}),
    )
    if not search:

        def add_search(s: dict[str, Any]) -> None:
            find_all(s["root"], "table")[0]["search"] = True

        screen.refinements.append(
            Refinement(
                ("add a search box to the table", "make the table searchable"),
                edited(screen.spec, add_search),
            )
        )
    return screen


METRICS = {
    "sales": ("month", ["revenue", "cost"]),
    "traffic": ("week", ["visits", "signups"]),
    "support": ("week", ["tickets", "solved"]),
    "fitness": ("day", ["steps", "calories"]),
}
PERIODS = {
    "month": ["Jan", "Feb", "Mar", "Apr", "May", "Jun"],
    "week": ["W1", "W2", "W3", "W4", "W5"],
    "day": ["Mon", "Tue", "Wed", "Thu", "Fri"],
}


def dashboard(rng: Random) -> Screen:
    topic = pick(rng, list(METRICS))
    x, ys = METRICS[topic]
    regions = rng.random() < 0.5
    rows: list[dict[str, Any]] = []
    for label in PERIODS[x]:
        for region in ["EU", "US"] if regions else [None]:
            row: dict[str, Any] = {x: label}
            if region:
                row["region"] = region
            row.update({y: rng.randint(20, 400) for y in ys})
            rows.append(row)
    kpis = [
        node(
            "stat",
            label=y.capitalize(),
            value=str(sum(r[y] for r in rows)),
            delta=f"+{rng.randint(1, 30)}%",
            good="up",
        )
        for y in ys
    ]
    kind = pick(rng, ("line", "bar", "area"))
    chart = node(
        "chart",
        kind=kind,
        title=f"{ys[0].capitalize()} by {x}",
        data=topic,
        x=x,
        y=ys,
        filter=["region=region"] if regions else None,
    )
    kids = [heading(f"{topic.capitalize()} dashboard"), node("grid", *kpis, cols=len(kpis)), chart]
    state: dict[str, object] = {}
    details = [f"KPIs for {' and '.join(ys)}", f"a {kind} chart of {ys[0]} by {x}"]
    if regions:
        kids.insert(1, node("select", label="Region", bind="region", opts=["All", "EU", "US"]))
        state["region"] = "All"
        details.append("a region filter")
    if rng.random() < 0.4:
        kids.append(node("table", data=topic, title="Details", cols=[x, *ys]))
        details.append("a details table")
    brand = pick(rng, BRANDS)
    subjects = [
        f"a {topic} dashboard",
        f"{brand} {topic} analytics dashboard",
        f"dashboard with {topic} KPIs and a chart",
    ]
    screen = Screen(
        "dashboard",
        subjects,
        details,
        spec(
            f"{brand} {topic}", page(*kids), state or None, theme=theme_of(rng), data={topic: rows}
        ),
    )
    for new_kind in ("bar", "line", "pie", "area"):
        if new_kind == kind:
            continue

        def rechart(s: dict[str, Any], k: str = new_kind) -> None:
            find_all(s["root"], "chart")[0]["kind"] = k

        asks = (
            f"make the chart a {new_kind} chart",
            f"use a {new_kind} chart instead",
            f"switch the chart to {new_kind}",
        )
        screen.refinements.append(Refinement(asks, edited(screen.spec, rechart)))
    return screen


def _price(symbol: str, amount: int, period: str) -> str:
    return "Free" if amount == 0 else f"{symbol}{amount}{period}"


def pricing(rng: Random) -> Screen:
    """Tiers named, priced and given perks from wide pools (builder_vocab.py), so the names a
    prompt gives are the ones to copy."""
    brand = pick(rng, BRANDS)
    names = sample(rng, TIER_NAMES, rng.randint(2, 4))
    amounts = sorted(sample(rng, PRICES, len(names)))
    if rng.random() < 0.3:
        amounts[0] = 0
    symbol, period = pick(rng, PRICE_FORMS)
    yearly = rng.random() < 0.35
    popular = rng.randrange(len(names)) if rng.random() < 0.5 else None
    badge = pick(rng, POPULAR_BADGES)
    choose = pick(rng, CHOOSE_LABELS)
    perks = sample(rng, PERKS, len(names) * 3)
    cards, said, perk_words = [], [], []
    for i, (name, amount) in enumerate(zip(names, amounts, strict=True)):
        price = _price(symbol, amount, period)
        price_nodes = [heading(price, 2)]
        if yearly and amount:
            price_nodes = [
                heading(price, 2, if_="!yearly"),
                heading(f"{symbol}{amount * 10}/yr", 2, if_="yearly"),
            ]
        mine = perks[i * 3 : i * 3 + rng.randint(1, 3)]
        perk_words.append(f"{listing([p.lower() for p in mine])} on {name}")
        kids = [*price_nodes, *(text(p) for p in mine)]
        if i == popular:
            kids.insert(0, node("badge", text=badge, tone="info"))
        label = choose.format(name=name)
        kids.append(button(label, set_("plan", name), "primary" if i == popular else "secondary"))
        cards.append(node("card", *kids, title=name))
        said.append(f"{name} {price.lower() if amount == 0 else price}")
    kids = [
        heading(f"{brand} pricing"),
        node("grid", *cards, cols=len(cards)),
        text("You picked {plan}.", if_="plan"),
    ]
    state: dict[str, object] = {"plan": ""}
    button_words = "a choose button" if "{name}" in choose else f"a button saying '{choose}'"
    details = [
        pick(rng, (f"{len(names)} tiers: {listing(said)}", f"plans {listing(said)}")),
        f"{button_words} on each plan",
        pick(rng, perk_words),
    ]
    if popular is not None:
        details.append(f"a badge saying '{badge}' on {names[popular]}")
    if yearly:
        kids.insert(1, node("switch", label="Yearly billing", bind="yearly"))
        state["yearly"] = False
        details.append("a monthly/yearly toggle")
    subjects = [
        f"a pricing page for {brand}",
        "pricing table with plans",
        f"{brand} plans and pricing",
    ]
    return Screen(
        "pricing",
        subjects,
        details,
        spec(f"{brand} pricing", page(*kids), state, theme=theme_of(rng)),
    )


def products(rng: Random) -> Screen:
    """A shop's goods, prices, buy button and cart badge from wide pools (builder_vocab.py),
    named in the details."""
    brand = pick(rng, BRANDS)
    shop, stock = pick(rng, SHOPS)
    goods = sample(rng, stock, rng.choice((1, 3, 4)))
    buy, cart = pick(rng, BUY_LABELS), pick(rng, CART_BADGES)
    fresh = pick(rng, goods)[0] if rng.random() < 0.3 else ""
    cards = []
    for name, price in goods:
        slug = name.lower().replace(" ", "-").replace("'", "")
        kids = [
            node("image", src=f"https://example.com/img/{slug}.jpg", alt=name),
            heading(name, 3),
            text(f"${price}"),
        ]
        if name == fresh:
            kids.append(node("badge", text="New", tone="success"))
        kids.append(button(buy, {"do": "increment", "path": "cart", "by": 1}))
        cards.append(node("card", *kids))
    body = cards[0] if len(cards) == 1 else node("grid", *cards, cols=min(len(cards), 4))
    title = f"{brand} {shop}"
    root = page(node("row", heading(title), node("badge", text=cart, tone="info")), body)
    one = len(goods) == 1
    subjects = (
        [f"a product card for a {goods[0][0].lower()}"]
        if one
        else [f"a product grid for a {shop}", f"an online {shop}", f"{brand} {shop} listing"]
    )
    details = [
        listing([f"{name} ${price}" for name, price in goods]),
        f"'{buy}' buttons" if not one else f"a button saying '{buy}'",
        f"a cart badge showing '{cart.replace('{cart}', '0')}'",
        "product images",
    ]
    if fresh:
        details.append(f"a 'New' badge on the {fresh.lower()}")
    return Screen(
        "products", subjects, details, spec(title, root, {"cart": 0}, theme=theme_of(rng))
    )


CATALOGS = {
    "recipes": (
        ["Pasta", "Soup", "Salad", "Dessert"],
        ["Tomato pasta", "Lentil soup", "Greek salad", "Apple pie", "Pesto pasta", "Miso soup"],
    ),
    "articles": (
        ["News", "Guides", "Opinion"],
        ["Intro to Rust", "Garden tips", "Why tests matter", "City budget news", "Baking guide"],
    ),
    "jobs": (
        ["Remote", "Onsite", "Hybrid"],
        ["Backend engineer", "UX designer", "Data analyst", "Support lead", "iOS developer"],
    ),
    "hotels": (
        ["City", "Beach", "Mountain"],
        ["Harbor Inn", "Sunset Resort", "Alpine Lodge", "Central Suites", "Lake House"],
    ),
}


def search(rng: Random) -> Screen:
    what = pick(rng, list(CATALOGS))
    cats, names = CATALOGS[what]
    rows = [
        {"name": n, "category": pick(rng, cats), "rating": round(rng.uniform(3, 5), 1)}
        for n in names
    ]
    kids = [heading(f"Search {what}"), field("Search", "q", "search", placeholder=f"Search {what}")]
    state: dict[str, object] = {"q": ""}
    flt = ["*~q"]
    details = ["a search box", "a results list"]
    if rng.random() < 0.6:
        kids.append(node("select", label="Category", bind="category", opts=["All", *cats]))
        state["category"] = "All"
        flt.append("category=category")
        details.append("a category filter")
    item = node("card", heading("{.name}", 3), text("{.category} · {.rating} stars"))
    kids.append(node("list", item, data="results", filter=flt, empty="No results."))
    subjects = [f"search results for {what}", f"a {what} search page", f"find {what} with filters"]
    return Screen(
        "search",
        subjects,
        details,
        spec(
            f"{what.capitalize()} search",
            page(*kids),
            state,
            theme=theme_of(rng),
            data={"results": rows},
        ),
    )
