# ruff: noqa: E501  (code templates and task rows read best on one line each)
"""The agent bench's tasks, written apart from the training generators (a test holds them to
it): each has a single right answer, computed here by running code, never typed in by hand."""

from __future__ import annotations

import calendar
import hashlib
import math
import statistics
from datetime import date, timedelta

from bench.agent_bench.checks import AgentTask, number, promoted, text, verdict


def fibonacci(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1))


def caesar(message: str, shift: int) -> str:
    return "".join(chr((ord(c) - 97 + shift) % 26 + 97) if c.islower() else c for c in message)


def csv_column(table: str, column: str) -> list[str]:
    header, *rows = [line.split(",") for line in table.strip().splitlines()]
    return [row[header.index(column)] for row in rows]


TOWNS = "town,residents\nAvalon,12040\nBrixton,8800\nCorvale,15310\nDunmore,9920\n"
PUPILS = "pupil,mark\nIrene,71\nTomas,88\nWen,93\nOlu,64\nFreya,90\n"
RAIN = "month,rain_mm\nJan,78.4\nFeb,61.2\nMar,55.9\nApr,40.3\nMay,33.7\n"
SALES = "sku,sold,each\nA17,14,3.25\nB02,9,12.80\nC44,31,0.95\n"
RACE = "runner,minutes\nAsha,41.5\nBen,39.2\nCleo,45.8\nDev,43.1\n"
STAFF = "worker,team\nKim,Sales\nLeo,Ops\nMia,Sales\nNed,Legal\nOla,Sales\nPat,Ops\n"
WORDS = "the cat sat on the mat with another cat"


def _tasks() -> list[AgentTask]:
    fridays_2027 = sum(
        1 for day in range(365) if (date(2027, 1, 1) + timedelta(days=day)).weekday() == 4
    )
    towns = [int(v) for v in csv_column(TOWNS, "residents")]
    pupils = dict(
        zip(csv_column(PUPILS, "pupil"), map(int, csv_column(PUPILS, "mark")), strict=True)
    )
    sales = zip(
        map(int, csv_column(SALES, "sold")), map(float, csv_column(SALES, "each")), strict=True
    )
    repeated = sum(1 for w in set(WORDS.split()) if WORDS.split().count(w) > 1)
    return [
        # arithmetic
        AgentTask(
            "mul-sub",
            "arith",
            "Multiply 48213 by 7719, then subtract 3604.",
            str(48213 * 7719 - 3604),
            number(48213 * 7719 - 3604),
            "372154000",
        ),
        AgentTask(
            "power",
            "arith",
            "Give me 3 raised to the 27th power.",
            str(3**27),
            number(3**27),
            "7625597484986",
        ),
        AgentTask(
            "remainder",
            "arith",
            "When 987654321 is divided by 4567, what remainder is left over?",
            str(987654321 % 4567),
            number(987654321 % 4567),
            "2",
        ),
        AgentTask(
            "gauss",
            "arith",
            "Add up every whole number from 1 through 2500.",
            str(sum(range(2501))),
            number(sum(range(2501))),
            "3125000",
        ),
        AgentTask(
            "factorial",
            "arith",
            "How big is 17! (seventeen factorial)?",
            str(math.factorial(17)),
            number(math.factorial(17)),
            "6402373705728000",
        ),
        AgentTask(
            "seconds",
            "arith",
            "How many seconds make up 19 weeks?",
            str(19 * 7 * 86400),
            number(19 * 7 * 86400),
            "1149120",
        ),
        # number theory
        AgentTask(
            "fib30",
            "numbers",
            "What is the 30th Fibonacci number, if F(1) and F(2) are both 1?",
            str(fibonacci(30)),
            number(fibonacci(30)),
            "514229",
        ),
        AgentTask(
            "prime100",
            "numbers",
            "Which prime comes 100th in the sequence 2, 3, 5, 7, ...?",
            str([p for p in range(2, 1000) if is_prime(p)][99]),
            number([p for p in range(2, 1000) if is_prime(p)][99]),
            "547",
        ),
        AgentTask(
            "gcd",
            "numbers",
            "Greatest common divisor of 462 and 1071?",
            str(math.gcd(462, 1071)),
            number(math.gcd(462, 1071)),
            "7",
        ),
        AgentTask(
            "primes-range",
            "numbers",
            "Count the primes strictly between 1000 and 1100.",
            str(sum(map(is_prime, range(1001, 1100)))),
            number(sum(map(is_prime, range(1001, 1100)))),
            "17",
        ),
        AgentTask(
            "digits-3-100",
            "numbers",
            "Take 3**100 and total its decimal digits. What do you get?",
            str(sum(map(int, str(3**100)))),
            number(sum(map(int, str(3**100)))),
            "200",
        ),
        AgentTask(
            "zeros",
            "numbers",
            "125 factorial ends in how many zeros?",
            str(len(str(math.factorial(125))) - len(str(math.factorial(125)).rstrip("0"))),
            number(sum(125 // 5**k for k in range(1, 4))),
            "25",
        ),
        AgentTask(
            "lcm-15",
            "numbers",
            "Smallest positive integer evenly divisible by each of 1, 2, ..., 15?",
            str(math.lcm(*range(1, 16))),
            number(math.lcm(*range(1, 16))),
            "720720",
        ),
        AgentTask(
            "prime-7919",
            "numbers",
            "Tell me yes or no: is 7919 prime?",
            "yes",
            verdict(is_prime(7919)),
            "no, it is not",
        ),
        # text
        AgentTask(
            "reverse",
            "text",
            "Write 'macaron studio' back to front, letter by letter.",
            "macaron studio"[::-1],
            text("macaron studio"[::-1]),
            "studio macaron",
        ),
        AgentTask(
            "count-s",
            "text",
            "Ignoring case, how often does s occur in 'Mississippi sunset sessions'?",
            str("mississippi sunset sessions".count("s")),
            number("mississippi sunset sessions".count("s")),
            "8",
        ),
        AgentTask(
            "shout",
            "text",
            "Turn 'Hello From Macaron' into capitals with underscores instead of spaces.",
            "HELLO_FROM_MACARON",
            text("HELLO_FROM_MACARON"),
            "hello-from-macaron",
        ),
        AgentTask(
            "distinct",
            "text",
            "Spaces aside, how many different characters appear in 'abracadabra alakazam'?",
            str(len(set("abracadabraalakazam"))),
            number(len(set("abracadabraalakazam"))),
            "5",
        ),
        AgentTask(
            "sorted-letters",
            "text",
            "Arrange the letters of 'pineapple' in alphabetical order.",
            "".join(sorted("pineapple")),
            text("".join(sorted("pineapple"))),
            "aeeilnpp",
        ),
        AgentTask(
            "md5",
            "text",
            "Give the MD5 hex digest of the ASCII string macaron.",
            hashlib.md5(b"macaron").hexdigest(),
            text(hashlib.md5(b"macaron").hexdigest()),
            "d41d8cd98f00b204e9800998ecf8427e",
        ),
        AgentTask(
            "caesar",
            "text",
            "Encrypt 'attack at dawn' with a Caesar shift of 3.",
            caesar("attack at dawn", 3),
            text(caesar("attack at dawn", 3)),
            "dwwdfn dw gdzp",
        ),
        AgentTask(
            "binary",
            "text",
            "Write 2026 in base 2.",
            bin(2026)[2:],
            text(bin(2026)[2:]),
            "11111101011",
        ),
        AgentTask(
            "repeats",
            "text",
            f"In the sentence '{WORDS}', how many distinct words occur more than once?",
            str(repeated),
            number(repeated),
            "3",
        ),
        # lists
        AgentTask(
            "median-even",
            "lists",
            "Median of 14, 3, 88, 41, 27, 9, 62, 35?",
            str(statistics.median([14, 3, 88, 41, 27, 9, 62, 35])),
            number(statistics.median([14, 3, 88, 41, 27, 9, 62, 35])),
            "35",
        ),
        AgentTask(
            "average",
            "lists",
            "Average these five: 2.5, 7.25, 9.0, 4.75, 11.5.",
            str(statistics.mean([2.5, 7.25, 9.0, 4.75, 11.5])),
            number(statistics.mean([2.5, 7.25, 9.0, 4.75, 11.5])),
            "6.5",
        ),
        AgentTask(
            "variance",
            "lists",
            "Population variance of 4, 8, 15, 16, 23, 42?",
            str(statistics.pvariance([4, 8, 15, 16, 23, 42])),
            number(statistics.pvariance([4, 8, 15, 16, 23, 42]), 1e-3),
            "130.5",
        ),
        AgentTask(
            "second-largest",
            "lists",
            "Among 71, 19, 88, 42, 88, 65, which distinct value is second largest?",
            "71",
            number(sorted({71, 19, 88, 42, 65})[-2]),
            "88",
        ),
        AgentTask(
            "evens",
            "lists",
            "Of 13, 28, 45, 66, 71, 90, 102 and 7, how many are even?",
            "4",
            number(sum(n % 2 == 0 for n in (13, 28, 45, 66, 71, 90, 102, 7))),
            "3",
        ),
        AgentTask(
            "product",
            "lists",
            "Multiply together 12, 15, 7 and 22.",
            str(12 * 15 * 7 * 22),
            number(12 * 15 * 7 * 22),
            "2772",
        ),
        # dates
        AgentTask(
            "days-between",
            "dates",
            "Number of days from 15 January 2024 to 1 March 2025?",
            str((date(2025, 3, 1) - date(2024, 1, 15)).days),
            number((date(2025, 3, 1) - date(2024, 1, 15)).days),
            "410",
        ),
        AgentTask(
            "bastille",
            "dates",
            "14 July 1789: name the weekday it fell on.",
            date(1789, 7, 14).strftime("%A"),
            text(date(1789, 7, 14).strftime("%A")),
            "Monday",
        ),
        AgentTask(
            "plus-1000",
            "dates",
            "Give the calendar date 1000 days past 30 June 2023, as YYYY-MM-DD.",
            (date(2023, 6, 30) + timedelta(days=1000)).isoformat(),
            text((date(2023, 6, 30) + timedelta(days=1000)).isoformat()),
            "2026-03-27",
        ),
        AgentTask(
            "fridays",
            "dates",
            "Count the Fridays in the year 2027.",
            str(fridays_2027),
            number(fridays_2027),
            "53" if fridays_2027 == 52 else "52",
        ),
        AgentTask(
            "leap-count",
            "dates",
            "Leap years from 1901 to 2099 inclusive: how many?",
            str(sum(calendar.isleap(y) for y in range(1901, 2100))),
            number(sum(calendar.isleap(y) for y in range(1901, 2100))),
            "50",
        ),
        AgentTask(
            "xmas-2030",
            "dates",
            "Christmas Day 2030 lands on what weekday?",
            date(2030, 12, 25).strftime("%A"),
            text(date(2030, 12, 25).strftime("%A")),
            "Thursday",
        ),
        # small CSV tables
        AgentTask(
            "csv-median",
            "csv",
            f"Median of the residents column below?\n{TOWNS}",
            str(statistics.median(towns)),
            number(statistics.median(towns)),
            "12040",
        ),
        AgentTask(
            "csv-top",
            "csv",
            f"Who got the best mark?\n{PUPILS}",
            max(pupils, key=lambda k: pupils[k]),
            text(max(pupils, key=lambda k: pupils[k])),
            "Tomas",
        ),
        AgentTask(
            "csv-rain",
            "csv",
            f"Sum the rain_mm values, one decimal.\n{RAIN}",
            str(round(sum(map(float, csv_column(RAIN, "rain_mm"))), 1)),
            number(round(sum(map(float, csv_column(RAIN, "rain_mm"))), 1), 1e-4),
            "259.5",
        ),
        AgentTask(
            "csv-revenue",
            "csv",
            f"Revenue = sold x each, summed over every sku. What is it?\n{SALES}",
            str(round(sum(s * e for s, e in sales), 2)),
            number(
                round(
                    sum(
                        s * e
                        for s, e in zip(
                            map(int, csv_column(SALES, "sold")),
                            map(float, csv_column(SALES, "each")),
                            strict=True,
                        )
                    ),
                    2,
                ),
                1e-4,
            ),
            "189.45",
        ),
        AgentTask(
            "csv-race",
            "csv",
            f"Mean finishing minutes, to 2 decimals?\n{RACE}",
            str(round(statistics.mean(map(float, csv_column(RACE, "minutes"))), 2)),
            number(round(statistics.mean(map(float, csv_column(RACE, "minutes"))), 2), 1e-4),
            "43.1",
        ),
        AgentTask(
            "csv-team",
            "csv",
            f"How many workers sit on the Sales team?\n{STAFF}",
            str(csv_column(STAFF, "team").count("Sales")),
            number(csv_column(STAFF, "team").count("Sales")),
            "2",
        ),
        # write a tool, promote it, use it
        AgentTask(
            "slugify",
            "promote",
            "Write and promote a slugify tool (lower case, words joined by hyphens, punctuation dropped), then use it on 'Hello, World of Tools!'.",
            "hello-world-of-tools",
            promoted("slugify", text("hello-world-of-tools")),
            "hello-world-of-tool",
        ),
        AgentTask(
            "vowel-count",
            "promote",
            "Create vowel_count(s) that counts a, e, i, o, u in any case; save it as a global tool with tests; then report vowel_count('Programming Language').",
            str(sum(c in "aeiou" for c in "programming language")),
            promoted("vowel_count", number(sum(c in "aeiou" for c in "programming language"))),
            "5",
        ),
        AgentTask(
            "is-prime-tool",
            "promote",
            "Build an is_prime(n) helper, promote it once its asserts pass, and use it to say whether 221 is prime.",
            "no",
            promoted("is_prime", verdict(is_prime(221))),
            "yes, 221 is prime",
        ),
        AgentTask(
            "f-to-c",
            "promote",
            "Define fahrenheit_to_celsius, register it as a reusable tool after testing, and convert 98.6 F with it.",
            "37.0",
            promoted("fahrenheit_to_celsius", number((98.6 - 32) * 5 / 9, 1e-3)),
            "36.5",
        ),
    ]


TASKS: tuple[AgentTask, ...] = tuple(_tasks())
