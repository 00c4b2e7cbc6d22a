"""The bench's files: seeded, so every run uploads the same bytes, in four formats."""

from __future__ import annotations

import csv
import io
import json
from datetime import date, timedelta
from random import Random

ROASTERY_BLENDS = ("Guji Natural", "Huila Washed", "House Espresso", "Swiss Decaf", "Kenya AA")
BRANCHES = ("Central", "Riverside", "Hillcrest")
GENRES = ("Mystery", "Sci-fi", "Biography", "Children", "Cookbooks", "Poetry")
STATIONS = ("Harbour", "Old Mill", "University", "Market Hall", "Zoo")
CLINICS = ("Northgate", "Elm Park", "Quayside")
REASONS = ("Check-up", "Vaccination", "Injury", "Follow-up")


def _day(rng: Random, start: date, span: int) -> str:
    return (start + timedelta(days=rng.randrange(span))).isoformat()


def roastery_orders(rows: int = 3000) -> bytes:
    rng = Random(11)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["sold_on", "blend", "bag_size", "wholesale", "bags", "price_eur"])
    for _ in range(rows):
        bags = rng.randint(1, 24)
        writer.writerow(
            [
                _day(rng, date(2025, 1, 1), 365),
                rng.choice(ROASTERY_BLENDS),
                rng.choice(("250g", "1kg")),
                rng.choice(("yes", "no")),
                bags,
                round(bags * rng.uniform(7.5, 31.0), 2),
            ]
        )
    return out.getvalue().encode()


def library_loans(rows: int = 2500) -> bytes:
    rng = Random(12)
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t")
    writer.writerow(["checkout_day", "branch", "genre", "days_out", "late_fee"])
    for _ in range(rows):
        days = rng.randint(1, 40)
        writer.writerow(
            [
                _day(rng, date(2025, 3, 1), 240),
                rng.choice(BRANCHES),
                rng.choice(GENRES),
                days,
                round(max(0, days - 21) * 0.25, 2),
            ]
        )
    return out.getvalue().encode()


def bike_trips(rows: int = 4000) -> bytes:
    rng = Random(13)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["trip_start", "station", "rider", "ride_minutes", "trip_km"])
    for _ in range(rows):
        minutes = rng.randint(3, 95)
        writer.writerow(
            [
                _day(rng, date(2025, 5, 1), 120),
                rng.choice(STATIONS),
                rng.choice(("Member", "Casual")),
                minutes,
                round(minutes * rng.uniform(0.1, 0.3), 2),
            ]
        )
    return out.getvalue().encode()


def clinic_visits(rows: int = 1500) -> bytes:
    rng = Random(14)
    records = [
        {
            "seen_on": _day(rng, date(2025, 1, 6), 300),
            "clinic": rng.choice(CLINICS),
            "reason": rng.choice(REASONS),
            "wait_minutes": rng.randint(0, 75),
        }
        for _ in range(rows)
    ]
    return json.dumps(records).encode()


FILES = {
    "roastery_orders.csv": roastery_orders,
    "library_loans.tsv": library_loans,
    "bike_trips.csv": bike_trips,
    "clinic_visits.json": clinic_visits,
}


def file_bytes(name: str) -> bytes:
    return FILES[name]()
