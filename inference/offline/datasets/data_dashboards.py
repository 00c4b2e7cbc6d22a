"""Dashboards over a designer's own data: the ui expert sees a dataset's profile, never its rows,
and answers with queries the server computes (`{"from": dataset, "group", "agg", ...}`).

Each example samples a dataset shape (a domain, with column names drawn from the spellings real
exports use), synthetic rows only to profile it, the widgets a designer asks for, a prompt
written from those widgets, and the spec. Names and category values in the spec are copied from
the profile, so the lesson is "read the columns you were given", not "remember a domain".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta
from random import Random
from typing import Any

from inference.offline.datasets.common import Record, pick, record, turn
from ui4a.tables import CATEGORY_VALUES_SHOWN, Column, Table, prompt_with_tables


@dataclass(frozen=True)
class Measure:
    names: tuple[str, ...]
    low: float
    high: float
    integer: bool = False


@dataclass(frozen=True)
class Category:
    names: tuple[str, ...]
    values: tuple[str, ...]


@dataclass(frozen=True)
class Domain:
    datasets: tuple[str, ...]
    rows: str  # what one row is, plural ("orders")
    dates: tuple[str, ...]
    categories: tuple[Category, ...]
    measures: tuple[Measure, ...]
    texts: tuple[tuple[str, tuple[str, ...]], ...] = ()


REGIONS = Category(("region", "sales_region", "area"), ("North", "South", "East", "West"))
DOMAINS: tuple[Domain, ...] = (
    Domain(
        ("sales", "orders", "sales_2025", "shop_orders", "order_export"),
        "orders",
        ("date", "order_date", "created_at", "ordered_on"),
        (
            REGIONS,
            Category(("product", "item", "category"), ("Road bike", "Helmet", "Lights", "Lock")),
            Category(("channel", "source"), ("Online", "Store", "Phone")),
        ),
        (
            Measure(("revenue", "amount", "total", "sales"), 12, 2400),
            Measure(("units", "quantity", "qty"), 1, 12, integer=True),
        ),
        (("customer", ("Ana Ruiz", "Tom Becker", "Li Wei", "Sara Okafor")),),
    ),
    Domain(
        ("tickets", "support_tickets", "helpdesk", "cases"),
        "tickets",
        ("opened", "created", "opened_at", "date"),
        (
            Category(("priority",), ("Low", "Normal", "High", "Urgent")),
            Category(("status", "state"), ("Open", "Pending", "Solved", "Closed")),
            Category(("team", "queue"), ("Billing", "Tech", "Accounts")),
        ),
        (
            Measure(("resolution_hours", "hours_to_close", "handle_time"), 0.5, 96),
            Measure(("satisfaction", "csat", "score"), 1, 5, integer=True),
        ),
        (("subject", ("Cannot log in", "Refund please", "Invoice wrong", "App crashes")),),
    ),
    Domain(
        ("traffic", "web_analytics", "visits", "site_stats"),
        "days",
        ("day", "date", "visit_date"),
        (
            Category(("source", "channel", "referrer"), ("Search", "Social", "Email", "Direct")),
            Category(("device",), ("Desktop", "Mobile", "Tablet")),
        ),
        (
            Measure(("visits", "sessions", "pageviews"), 40, 9000, integer=True),
            Measure(("signups", "conversions"), 0, 120, integer=True),
            Measure(("bounce_rate",), 0.2, 0.9),
        ),
    ),
    Domain(
        ("shipments", "deliveries", "freight", "parcels"),
        "shipments",
        ("ship_date", "shipped", "date", "dispatched_on"),
        (
            Category(("carrier",), ("DHL", "UPS", "FedEx", "Post")),
            Category(("destination", "country"), ("Germany", "France", "Spain", "Italy", "Poland")),
        ),
        (
            Measure(("weight_kg", "weight"), 0.2, 40),
            Measure(("cost", "shipping_cost", "fee"), 4, 180),
            Measure(("days_in_transit", "transit_days"), 1, 14, integer=True),
        ),
    ),
    Domain(
        ("expenses", "spending", "company_expenses", "receipts"),
        "expenses",
        ("date", "spent_on", "expense_date"),
        (
            Category(("category", "type"), ("Travel", "Meals", "Software", "Office", "Hardware")),
            Category(("department", "team"), ("Sales", "Engineering", "Marketing", "Support")),
        ),
        (Measure(("amount", "cost", "total_eur"), 5, 3000),),
        (("merchant", ("Lufthansa", "Hotel Adler", "Figma", "Staples")),),
    ),
    Domain(
        ("employees", "headcount", "staff", "hr_export"),
        "employees",
        ("hire_date", "start_date", "joined"),
        (
            Category(("department", "team"), ("Sales", "Engineering", "Finance", "People")),
            Category(("office", "location"), ("Berlin", "Lisbon", "Remote", "Austin")),
            Category(("level", "grade"), ("Junior", "Mid", "Senior", "Lead")),
        ),
        (
            Measure(("salary", "base_salary", "annual_pay"), 38000, 160000, integer=True),
            Measure(("tenure_years", "years"), 0, 15, integer=True),
        ),
        (("name", ("Mia Park", "Jonas Vogel", "Ines Costa", "Omar Haddad")),),
    ),
    Domain(
        ("energy", "meter_readings", "power_usage", "consumption"),
        "readings",
        ("reading_date", "date", "day"),
        (
            Category(("building", "site"), ("HQ", "Warehouse", "Lab", "Store 2")),
            Category(("meter", "source"), ("Grid", "Solar", "Gas")),
        ),
        (
            Measure(("kwh", "usage_kwh", "consumption"), 10, 1800),
            Measure(("cost", "cost_eur"), 2, 400),
        ),
    ),
    Domain(
        ("donations", "gifts", "fundraising", "donors_2025"),
        "donations",
        ("date", "received", "gift_date"),
        (
            Category(("campaign", "appeal"), ("Spring appeal", "Gala", "Giving Tuesday", "Web")),
            Category(("method", "payment"), ("Card", "Bank transfer", "Cash", "PayPal")),
        ),
        (Measure(("amount", "gift", "donation"), 5, 5000),),
        (("donor", ("A. Meyer", "J. Smith", "K. Tanaka", "R. Silva")),),
    ),
    Domain(
        ("subscriptions", "mrr", "billing", "plans"),
        "subscriptions",
        ("started", "start_date", "signup_date"),
        (
            Category(("plan", "tier"), ("Free", "Starter", "Pro", "Enterprise")),
            Category(("country", "market"), ("US", "UK", "DE", "FR", "BR")),
        ),
        (
            Measure(("mrr", "monthly_revenue", "price"), 0, 900),
            Measure(("seats", "users"), 1, 250, integer=True),
        ),
    ),
    Domain(
        ("workouts", "training_log", "runs", "activities"),
        "workouts",
        ("date", "day", "workout_date"),
        (
            Category(("activity", "sport", "type"), ("Run", "Ride", "Swim", "Strength")),
            Category(("intensity", "effort"), ("Easy", "Moderate", "Hard")),
        ),
        (
            Measure(("distance_km", "km", "distance"), 1, 90),
            Measure(("minutes", "duration_min"), 15, 240, integer=True),
            Measure(("calories", "kcal"), 80, 2500, integer=True),
        ),
    ),
    Domain(
        ("inventory", "stock_moves", "warehouse", "stock"),
        "movements",
        ("date", "moved_on", "movement_date"),
        (
            Category(("warehouse", "location"), ("Hamburg", "Rotterdam", "Lyon")),
            Category(("sku_group", "family"), ("Tools", "Paint", "Garden", "Lighting")),
            Category(("direction", "kind"), ("In", "Out")),
        ),
        (
            Measure(("quantity", "qty", "units"), 1, 500, integer=True),
            Measure(("value", "value_eur"), 3, 9000),
        ),
    ),
    Domain(
        ("grades", "exam_results", "scores", "marks"),
        "results",
        ("exam_date", "date", "taken_on"),
        (
            Category(("subject", "course"), ("Maths", "Biology", "History", "English")),
            Category(("class", "group"), ("7A", "7B", "8A", "8B")),
        ),
        (
            Measure(("score", "points", "mark"), 20, 100, integer=True),
            Measure(("attempts",), 1, 3, integer=True),
        ),
    ),
)

BUCKETS = {"day": "daily", "week": "weekly", "month": "monthly", "year": "yearly"}
AGG_WORDS = {"sum": "total", "mean": "average", "max": "highest", "min": "lowest"}


@dataclass
class Shape:
    """One sampled dataset: its columns by role, and the Table the profile is taken from."""

    table: Table
    rows: str
    date: str
    categories: list[tuple[str, tuple[str, ...]]]
    measures: list[str]
    text: str | None


def sample_shape(rng: Random) -> Shape:
    domain = pick(rng, DOMAINS)
    name = pick(rng, domain.datasets)
    date_col = pick(rng, domain.dates)
    cats = rng.sample(domain.categories, rng.randint(1, len(domain.categories)))
    categories = [(pick(rng, c.names), c.values) for c in cats]
    measures = rng.sample(domain.measures, rng.randint(1, len(domain.measures)))
    measure_cols = [(pick(rng, m.names), m) for m in measures]
    text = pick(rng, domain.texts) if domain.texts and rng.random() < 0.6 else None
    columns = [Column(date_col, "date")]
    columns += [Column(c, "category") for c, _ in categories]
    columns += [Column(m, "number") for m, _ in measure_cols]
    if text:
        columns.append(Column(text[0], "text"))
    rng.shuffle(columns[1:])  # exports do not order their columns by role
    start = date(2024, 1, 1) + timedelta(days=rng.randrange(500))
    span = rng.choice((60, 180, 365, 730))
    rows = []
    for _ in range(rng.randint(20, 400)):
        row: dict[str, Any] = {date_col: (start + timedelta(days=rng.randrange(span))).isoformat()}
        for col, values in categories:
            row[col] = pick(rng, values)
        for col, m in measure_cols:
            value = rng.uniform(m.low, m.high)
            row[col] = round(value) if m.integer else round(value, 2)
        if text:
            row[text[0]] = pick(rng, text[1])
        rows.append(row)
    table = Table(name, tuple(columns), rows)
    return Shape(
        table, domain.rows, date_col, categories, [m for m, _ in measure_cols], text and text[0]
    )


def words(column: str) -> str:
    return column.replace("_", " ")


@dataclass
class Widget:
    ask: str  # how the prompt asks for it
    node: dict[str, Any]
    data: tuple[str, dict[str, Any]]


def time_chart(rng: Random, s: Shape) -> Widget:
    bucket = rng.choice(("month", "month", "week", "day", "year"))
    measure = pick(rng, s.measures)
    agg = rng.choice(("sum", "sum", "mean"))
    kind = rng.choice(("line", "bar", "area"))
    adj, noun = BUCKETS[bucket], words(measure)
    ask = pick(
        rng,
        (
            f"{adj} {AGG_WORDS[agg]} {noun} on a {kind} chart",
            f"{AGG_WORDS[agg]} {noun} per {bucket} as a {kind} chart",
            f"a {kind} chart showing {noun} by {bucket}"
            if agg == "sum"
            else f"a {kind} chart of average {noun} by {bucket}",
        ),
    )
    name = f"{measure}_by_{bucket}"
    title = f"{AGG_WORDS[agg].capitalize()} {noun} by {bucket}"
    node = {"t": "chart", "kind": kind, "title": title, "data": name, "x": s.date, "y": [measure]}
    query = {"from": s.table.name, "group": f"{s.date}:{bucket}", "agg": {measure: agg}}
    return Widget(ask, node, (name, query))


def category_chart(rng: Random, s: Shape) -> Widget:
    cat, values = pick(rng, s.categories)
    kind = rng.choice(("bar", "bar", "pie"))
    top = rng.randint(3, len(values) - 1) if len(values) > 3 and rng.random() < 0.4 else None
    what = f"the top {top} {words(cat)} by" if top else ""
    if rng.random() < 0.3:
        y, agg = s.rows, {s.rows: "count"}
        measured = f"number of {s.rows}"
        title = f"{s.rows.capitalize()} by {words(cat)}"
    else:
        y = pick(rng, s.measures)
        how = rng.choice(("sum", "sum", "mean", "max"))
        agg = {y: how}
        measured = f"{AGG_WORDS[how]} {words(y)}"
        title = f"{AGG_WORDS[how].capitalize()} {words(y)} by {words(cat)}"
    ask = (
        f"a {kind} chart of {what} {measured}"
        if top
        else f"a {kind} chart of {measured} per {words(cat)}"
    )
    name = f"{y}_by_{cat}"
    query: dict[str, Any] = {"from": s.table.name, "group": cat, "agg": agg, "sort": f"-{y}"}
    if top:
        query["limit"] = top
    node = {"t": "chart", "kind": kind, "title": title, "data": name, "x": cat, "y": [y]}
    return Widget(ask, node, (name, query))


def rows_table(rng: Random, s: Shape) -> tuple[Widget, dict[str, Any] | None]:
    """The latest rows, optionally filterable by a category (the select is returned too)."""
    limit = rng.choice((10, 20, 25, 50, 100))
    cols = [s.date] + [c for c, _ in s.categories] + s.measures + ([s.text] if s.text else [])
    cols = cols[: rng.randint(3, min(6, len(cols)))] if len(cols) > 3 else cols
    name = f"latest_{s.rows}"
    ask = pick(
        rng,
        (
            f"a table listing the latest {limit} {s.rows}",
            f"a table with the {limit} most recent {s.rows}",
            f"the last {limit} {s.rows} in a table",
        ),
    )
    node: dict[str, Any] = {"t": "table", "title": f"Latest {s.rows}", "data": name, "cols": cols}
    select: dict[str, Any] | None = None
    filterable = [(c, v) for c, v in s.categories if c in cols]
    if filterable and rng.random() < 0.5:
        cat, _values = pick(rng, filterable)
        ask += f", filterable by {words(cat)}"
        node["filter"] = [f"{cat}={cat}"]
        select = {"t": "select", "label": words(cat).capitalize(), "bind": cat}
        # In the profile's order (most common first): the expert copies what it was shown.
        shown = Counter(str(row[cat]) for row in s.table.rows).most_common(CATEGORY_VALUES_SHOWN)
        select["opts"] = ["All", *(value for value, _ in shown)]
    if rng.random() < 0.3:
        ask += ", with search"
        node["search"] = True
    query = {"from": s.table.name, "columns": cols, "sort": f"-{s.date}", "limit": limit}
    return Widget(ask, node, (name, query)), select


def grouped_table(rng: Random, s: Shape) -> Widget:
    cat, _ = pick(rng, s.categories)
    measure = pick(rng, s.measures)
    count = s.rows
    ask = f"a table of {s.rows} and total {words(measure)} per {words(cat)}"
    name = f"{cat}_summary"
    node = {
        "t": "table",
        "title": f"By {words(cat)}",
        "data": name,
        "cols": [cat, count, measure],
    }
    query = {
        "from": s.table.name,
        "group": cat,
        "agg": {count: "count", measure: "sum"},
        "sort": f"-{measure}",
    }
    return Widget(ask, node, (name, query))


OPENERS = (
    "a dashboard of my {name} data with {asks}",
    "Build a dashboard for this {name} file: {asks}.",
    "make a dashboard from the uploaded {name} data: {asks}",
    "my {rows}: {asks}",
    "I uploaded {name}. Show {asks}.",
    "dashboard over {name}: {asks}",
    "Using the {name} dataset, I want {asks}.",
)


def listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def example(rng: Random) -> tuple[str, dict[str, Any], list[Table]]:
    """A user turn (profiles, then the ask), the spec that answers it, and the tables."""
    s = sample_shape(rng)
    charts = [time_chart(rng, s)] if rng.random() < 0.8 else []
    if rng.random() < 0.6 or not charts:
        charts.append(category_chart(rng, s))
    widgets = list(charts)
    select = None
    if rng.random() < 0.7:
        table, select = rows_table(rng, s)
        widgets.append(table)
    elif rng.random() < 0.5:
        widgets.append(grouped_table(rng, s))
    title = f"{words(s.table.name).capitalize()} dashboard"
    kids: list[dict[str, Any]] = [{"t": "heading", "text": title}]
    chart_nodes = [w.node for w in charts]
    kids.append({"t": "grid", "c": chart_nodes} if len(chart_nodes) > 1 else chart_nodes[0])
    if select:
        kids.append(select)
    kids += [w.node for w in widgets if w.node["t"] == "table"]
    spec: dict[str, Any] = {"title": title, "root": {"t": "page", "c": kids}}
    if select:
        spec["state"] = {select["bind"]: "All"}
    spec["data"] = dict(w.data for w in widgets)
    ask = pick(rng, OPENERS).format(
        name=words(s.table.name), rows=s.rows, asks=listed([w.ask for w in widgets])
    )
    tables = [s.table]
    if rng.random() < 0.2:  # a second upload the prompt does not ask about
        other = sample_shape(rng).table
        if other.name != s.table.name:
            tables.insert(rng.randrange(2), other)
    return prompt_with_tables(ask, tables), spec, tables


QUERY_ORDER = ("from", "group", "agg", "columns", "sort", "limit")


def generate(rng: Random, count: int, checked: Any) -> list[Record]:
    """`count` dashboards; `checked` turns a spec into its canonical, validated JSON text."""
    out: list[Record] = []
    for _ in range(count):
        prompt, spec, _tables = example(rng)
        spec["data"] = {
            name: {k: q[k] for k in QUERY_ORDER if k in q} for name, q in spec["data"].items()
        }
        out.append(record("ui", "data-dashboard", turn(prompt, checked(spec))))
    return out
