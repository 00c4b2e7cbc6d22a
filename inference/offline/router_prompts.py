"""Writes the router's labelled prompts: `train.jsonl` and the held-out `dev.jsonl`.

    .venv/bin/python -m inference.offline.router_prompts

Prompts are templates x fillers x phrasing (terse, chatty, typos), seeded, so the files are
reproducible. Every dev prompt has a template or a filler that training never saw, so the dev
score measures generalisation, not recall of near-copies.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

# The files live with the router that reads them.
HERE = Path(__file__).resolve().parents[1] / "router_data"
TRAIN_PER_EXPERT = 150
DEV_PER_EXPERT = 100

# Per expert: training templates, dev-only templates, fillers (split by the seeded shuffle) and
# standalone prompts (split in half).
SOURCES: dict[str, dict[str, list[str]]] = {
    "chat": {
        "train": [
            "What is {x}?",
            "explain {x} to me like I'm five",
            "why does {x} matter",
            "Can you tell me about {x}?",
            "I'm curious about {x}, what should I know",
            "give me a short summary of {x}",
            "how does {x} work",
            "write a haiku about {x}",
            "any tips on {x}?",
            "is {x} worth reading about",
            "what do people get wrong about {x}",
        ],
        "dev": [
            "Could you describe {x} in a few sentences?",
            "{x}, what's the deal with it?",
            "tell me something interesting about {x}",
            "Help me understand {x}.",
            "write a short poem about {x}",
            "what are the pros and cons of {x}",
        ],
        "fillers": [
            "photosynthesis",
            "the french revolution",
            "black holes",
            "inflation",
            "stoicism",
            "jazz",
            "the roman empire",
            "climate change",
            "sleep",
            "coffee",
            "the olympics",
            "vaccines",
            "volcanoes",
            "meditation",
            "chess openings",
            "renaissance art",
            "the stock market",
            "tides",
            "rainbows",
            "democracy",
            "honeybees",
            "the moon landing",
            "compound interest",
            "the printing press",
            "recursion",
            "machine learning",
            "the internet",
            "a LoRA adapter",
            "quantum computing",
            "the immune system",
        ],
        "standalone": [
            "hello",
            "hi there!",
            "good morning",
            "thanks, that helped a lot",
            "how are you today?",
            "tell me a joke",
            "what should I cook tonight?",
            "I feel stressed about exams, any advice?",
            "who won the 2018 world cup",
            "recommend a good sci-fi book",
            "what's the capital of australia",
            "translate 'good night' into spanish",
            "is it healthy to skip breakfast?",
            "what time zone is new york in",
            "say something nice",
            "what's a good name for a cat",
            "how many planets are there",
            "summarize the plot of hamlet",
            "why is the sky blue",
            "can you help me write a birthday message for my sister",
            "hey",
            "hiya, how's it going",
            "good evening!",
            "thank you so much",
            "bye for now",
            "ok cool",
            "nice, thanks",
            "what's up?",
            "lol that's funny",
            "morning! how was your weekend",
            "sorry, I didn't get that",
            "you're great",
        ],
    },
    "coding": {
        "train": [
            "Write a Python function to {x}",
            "python code to {x}",
            "implement a function to {x} in python, with tests",
            "can you write me a function that does this: {x}",
            "def to {x} pls",
            "I need a script to {x}",
            "how do I {x} in python? show the code",
            "write pytest tests for a function meant to {x}",
            "fix my function to {x}, it raises IndexError",
            "refactor my code that tries to {x}",
        ],
        "dev": [
            "Give me Python that can {x}.",
            "quick snippet: {x}",
            "Write a function `solve()` to {x}, with type hints",
            "my code to {x} is slow, can you optimize it",
            "implement a class to {x}",
            "typescript function to {x}",
        ],
        "fillers": [
            "reverse a linked list",
            "parse a CSV file",
            "check if a string is a palindrome",
            "compute fibonacci numbers",
            "merge two sorted lists",
            "validate an email address",
            "find duplicates in a list",
            "flatten nested lists",
            "do a binary search",
            "count word frequencies in a text",
            "convert celsius to fahrenheit",
            "deduplicate a list keeping order",
            "read a JSON config file",
            "sort a dict by value",
            "implement an LRU cache",
            "hash a file with sha256",
            "retry a call with exponential backoff",
            "chunk a list into batches",
            "rotate a matrix",
            "debounce a function",
            "quicksort an array",
            "detect a cycle in a graph",
            "tokenize an arithmetic expression",
            "compute the median",
            "generate primes with a sieve",
        ],
        "standalone": [
            "Traceback (most recent call last): KeyError: 'id' how do i fix this",
            "def add(a, b): return a + b  # write tests for this",
            "why does `for i in range(len(xs)): xs.pop(i)` crash",
            "SyntaxError: unexpected EOF while parsing, what's wrong with my code",
            "convert this loop to a list comprehension: for x in xs: out.append(x*2)",
            "write a SQL query for the top 5 customers by revenue",
            "regex to match a US phone number",
            "numpy: how to normalize rows of a matrix, code please",
            "write a bash one-liner to count lines in all .py files",
            "my pytest fixture isn't being found, here's my conftest",
            "implement fizzbuzz",
            "async python http client example with retries",
            "TypeError: 'NoneType' object is not subscriptable in my loop",
            "write a dataclass for a user with validation",
            "git: undo my last commit but keep the changes",
            "unit test for a function that parses dates",
            "what's the big-O of my nested loop code, and can you rewrite it faster",
            "rust function that reverses a string",
            "write a decorator that caches results",
            "segfault in my C code when freeing a pointer twice",
        ],
    },
    "agent": {
        "train": [
            "{x}",
            "Please {x}.",
            "use your tools to {x}",
            "can you {x} for me?",
            "I need you to {x}, then confirm when done",
            "agent: {x}",
            "step by step, {x} using the available tools",
            "plan the actions to {x}",
        ],
        "dev": [
            "go ahead and {x}",
            "Could you take care of this: {x}",
            "figure out which tools to call to {x}",
            "{x} and let me know",
            "hey, {x} asap",
        ],
        "fillers": [
            "book a table for two at an italian restaurant tonight",
            "find the cheapest flight from Paris to Berlin next friday",
            "check the weather in Tokyo and email me a summary",
            "schedule a meeting with Anna on Tuesday at 3pm",
            "search the web for news on solar panels and summarize the top 3",
            "send a slack message to the team that the deploy is done",
            "open a github issue for the login bug",
            "look up my order status and request a refund if it's late",
            "set a reminder to call mom at 6pm",
            "download the quarterly report and pull out the revenue figures",
            "add milk and eggs to my shopping list",
            "reserve a meeting room for friday morning",
            "compare prices for a 4k monitor across three shops",
            "translate the attached document and upload it to my drive",
            "cancel my gym subscription",
            "rename every file in my downloads folder by date",
            "fetch today's exchange rate and convert 200 euros to dollars",
            "plan a 3 day trip to Rome and book the hotel",
            "query the sales database for last month's top customers and email them",
            "ping me if the website goes down",
            "order a pizza to my home address",
            "move all invoices from my inbox into the accounting folder",
            "call the weather api and log tomorrow's forecast to a spreadsheet",
            "find three open restaurants near me and text the list to Sam",
        ],
        "standalone": [
            "you have a calendar tool and an email tool: invite the team to friday's retro",
            "use the search tool, then the calculator, to find the population of france per km2",
            "call get_weather(city) for Oslo and Bergen and tell me which is warmer",
            "run the browser tool to check if my package has shipped",
            "tools: search, email. task: send me the top hacker news story",
            "make a plan of tool calls: look up the flight, hold a seat, pay with my saved card",
            "automate this: every morning, fetch my unread mail and summarize it in slack",
            "book me a dentist appointment next week, any morning works",
            "return the JSON tool calls to create a jira ticket and assign it to me",
            "fill out the expense report with my last three uber receipts",
            "look up the train times to Lyon and buy the earliest ticket",
            "check my bank balance and pay the electricity bill if there's enough",
            "find a plumber nearby with good reviews and request a quote",
            "sync my contacts from the crm into the mailing list",
            "get the stock price of AAPL and alert me if it drops 5%",
            "archive all emails older than a year",
            "post the release notes to twitter and linkedin",
            "transfer 50 dollars to Alex for dinner",
            "update the shared spreadsheet with this week's numbers and notify finance",
            "find a free slot for five people next week and send the invites",
        ],
    },
    "ui": {
        "train": [
            "Design {x}",
            "make me {x}",
            "build {x}",
            "create a ui: {x}",
            "mockup of {x}",
            "{x}",
            "generate an interface with {x}",
            "show me {x}",
            "wireframe {x}",
        ],
        "dev": [
            "Could you put together {x}?",
            "render {x}",
            "I need a screen: {x}",
            "lay out {x} please",
            "draft {x} for my app",
        ],
        "fillers": [
            "a signup form with name, email and password",
            "a dashboard showing sales by region",
            "a settings page with a dark mode toggle",
            "a todo list app with checkboxes",
            "a login screen",
            "a pricing page with three tiers",
            "a contact form",
            "a product card with image, price and buy button",
            "a landing page for a coffee shop",
            "a checkout page",
            "a profile page with avatar and bio",
            "a modal to confirm deleting an item",
            "a sidebar navigation menu",
            "a table of users with a search box",
            "a multi-step onboarding wizard",
            "a calculator interface",
            "a weather widget",
            "a feedback form with a star rating",
            "a kanban board",
            "a music player with play and pause buttons",
            "a newsletter subscription box",
            "an admin panel for orders",
            "a date picker for booking",
            "a chat window layout",
            "a recipe card with an ingredients list",
        ],
        "standalone": [
            "a form where users pick a plan and enter card details",
            "page with two columns: filters on the left, results on the right",
            "interface for a habit tracker",
            "I want buttons for yes, no and maybe",
            "screen to edit my account details",
            "let users rate a movie and leave a comment",
            "a little app to split a restaurant bill",
            "input box plus a submit button that shows a greeting",
            "stats cards for visitors, signups and revenue",
            "the settings screen for notifications, with toggles",
            "survey with 3 multiple choice questions",
            "a quiz app screen",
            "mobile-style home screen with a search bar and categories",
            "an event registration form",
            "a page listing my photos as cards",
            "create a ui where i can add and remove tags",
            "build the layout for a blog post with a comment section",
            "timer with start, stop and reset",
            "a grid of team members with roles",
            "unit converter with two inputs",
        ],
    },
}

PREFIXES = {
    "train": ["", "", "", "hey, ", "hi! ", "so ", "quick one: ", "ok ", "please "],
    "dev": ["", "", "", "hello, ", "yo ", "um, ", "one thing: ", "hey there! "],
}
SUFFIXES = {
    "train": ["", "", "", " thanks!", " pls", " :)", " thank you", "?"],
    "dev": ["", "", "", " thx", " cheers", " asap", " (thanks in advance)"],
}


def typo(text: str, rng: random.Random) -> str:
    """Swap, drop or double one letter of one longer word."""
    words = text.split(" ")
    spots = [i for i, w in enumerate(words) if len(w) > 3 and w.isalpha()]
    if not spots:
        return text
    i = rng.choice(spots)
    w = words[i]
    j = rng.randrange(1, len(w) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        w = w[: j - 1] + w[j] + w[j - 1] + w[j + 1 :]
    elif kind == 1:
        w = w[:j] + w[j + 1 :]
    else:
        w = w[:j] + w[j] + w[j:]
    words[i] = w
    return " ".join(words)


def phrase(text: str, split: str, rng: random.Random) -> str:
    """One of the ways people type: as written, terse, chatty, or with typos."""
    style = rng.randrange(4)
    if style == 1:
        text = text.lower().rstrip(".?!")
    elif style == 2:
        text = rng.choice(PREFIXES[split]) + text + rng.choice(SUFFIXES[split])
    elif style == 3:
        text = typo(text, rng)
        if rng.random() < 0.5:
            text = typo(text, rng)
    return text.strip()


def build(seed: int = 7) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    rng = random.Random(seed)
    train: list[dict[str, str]] = []
    dev: list[dict[str, str]] = []
    for expert, src in SOURCES.items():
        fillers = list(src["fillers"])
        rng.shuffle(fillers)
        cut = len(fillers) * 3 // 5
        fill_train, fill_dev = fillers[:cut], fillers[cut:]
        half = len(src["standalone"]) // 2
        alone = list(src["standalone"])
        rng.shuffle(alone)
        pools = {
            "train": [t.format(x=f) for t in src["train"] for f in fill_train] + alone[:half],
            "dev": [t.format(x=f) for t in src["dev"] for f in fillers]
            + [t.format(x=f) for t in src["train"] for f in fill_dev]
            + alone[half:],
        }
        seen: set[str] = set()
        for split, out, want in (("train", train, TRAIN_PER_EXPERT), ("dev", dev, DEV_PER_EXPERT)):
            pool = pools[split]
            made = 0
            while made < want:
                text = phrase(rng.choice(pool), split, rng)
                key = text.lower()
                if key in seen:
                    continue
                seen.add(key)
                out.append({"text": text, "expert": expert})
                made += 1
    rng.shuffle(train)
    rng.shuffle(dev)
    return train, dev


def main() -> None:
    train, dev = build()
    for name, rows in (("train", train), ("dev", dev)):
        with (HERE / f"{name}.jsonl").open("w") as f:
            f.writelines(json.dumps(row) + "\n" for row in rows)
        print(f"{name}.jsonl: {len(rows)} prompts")


if __name__ == "__main__":
    main()
