"""Time to a screen (issue 17, item 1): what a designer waits for, on the real stack.

    .venv/bin/python -m bench.screen_time [--prompts 12] [--runs 3] [--json FILE]

Starts a throwaway stack (Redis, one engine worker with four Celery threads, Daphne) and asks
the ui expert for dev-set screens (one prompt of each kind, in id order) two ways:

- the API path: a streaming `/v1/chat/completions` with `router: "ui"`;
- the studio path: the studio page's WebSocket (`generate`, then its delta batches, until
  `generation.done`), signed in as a designer;
- the browser path (one user): the studio page itself in Chromium, from the Generate click to
  the first component drawn in the preview frame and to the status saying Done.

For each screen: seconds from sending the request to the first component visible (the streamed
text so far parses to a spec with a catalog component below the root, as the studio draws it)
and to the finished screen; one user, then four users at once (each with its own key or
designer). Then, on each single-user studio screen, two small refinements of the version it
made: one element's text changed (a targeted refinement), and the title changed with the whole
spec as the target. Each is timed against the fresh generation of that screen in the same run.
Figures are medians with the min to max over `--runs`; each run's per-screen rows go to the
JSON. `--with NAME=VALUE` (repeatable) measures again on a second stack started with those
settings (e.g. `MACARON_SPEC_NGRAM=4`), so a speed-up is judged against the default in the same
run: the table gives each figure for both and their ratio. `--reference NAME=VALUE` (repeatable)
starts the reference stack with those settings instead, and the second stack with the defaults
plus any `--with`: how the defaults compare with the start-up before issue 17
(`--reference MACARON_ENGINE_FORK=0 --reference MACARON_ENGINE_THREADS=0 --reference
MACARON_JUMP_FORWARD=0`, what `bench/run` measures).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import requests

from bench.stats import p95
from bench.studio_sockets import cookie_header, open_socket
from bench.ui4a_bench.devset import DevPrompt, one_per_kind
from studio.stack import Stack, exit_on_sigterm, free_port, throwaway_stack, wait_worker_ready
from ui4a import registry
from ui4a.limits import SpecTooLarge
from ui4a.parse import parse_partial
from ui4a.tree import pointer, walk

USERS = (1, 4)
TIMEOUT_S = 600
TEXT_KINDS = ("heading", "text", "button")  # what a small refinement relabels
MAKE_KEYS = (
    "from studio.services.api_keys import api_key_create\n"
    "for i in range({n}): print(api_key_create(name=f'screen user {{i}}')[1])"
)


@dataclass
class Screen:
    path: str  # "api", "studio" (its WebSocket) or "browser" (the studio page)
    prompt: str  # a dev-set id, with ":target" or ":title" for a refinement
    users: int
    first_component_s: float | None
    finished_s: float
    tokens: int
    chars: int
    ok: bool
    project: str = ""
    version: str = ""


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def component_visible(text: str) -> bool:
    """Whether the spec streamed so far draws a catalog component below the root."""
    try:
        spec = parse_partial(text)
    except SpecTooLarge:
        return True
    if spec is None:
        return False
    return any(ref.depth > 0 and registry.get(ref.node.get("t")) for ref in walk(spec))


def api_screen(url: str, key: str, prompt: DevPrompt, users: int) -> Screen:
    body: dict[str, Any] = {
        "model": os.environ.get("MACARON_PROFILE", "macaron-tiny"),
        "router": "ui",
        "messages": [{"role": "user", "content": prompt.prompt}],
        "temperature": 0,
        "stream": True,
    }
    started = time.perf_counter()
    first: float | None = None
    text, tokens, ok = "", 0, False
    with requests.post(
        f"{url}/v1/chat/completions",
        headers={"Authorization": f"Bearer {key}"},
        json=body,
        stream=True,
        timeout=TIMEOUT_S,
    ) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if not line.startswith(b"data: {"):
                ok = ok or line == b"data: [DONE]"
                continue
            chunk = json.loads(line[len(b"data: ") :])
            if "error" in chunk:
                break
            text += chunk["choices"][0]["delta"].get("content") or ""
            if first is None and text and component_visible(text):
                first = time.perf_counter() - started
            tokens = chunk.get("usage", {}).get("completion_tokens", tokens)
    finished = time.perf_counter() - started
    return Screen("api", prompt.id, users, first, finished, tokens, len(text), ok)


def studio_screen(
    stack: Stack, cookie: str, label: str, users: int, prompt: str, **fields: str
) -> Screen:
    """One studio generation over the page's WebSocket, from `generate` to `generation.done`."""
    text, seq = "", 0
    first: float | None = None
    with open_socket(stack, cookie, fields.get("project", "")) as socket:
        started = time.perf_counter()
        socket.send(json.dumps({"type": "generate", "prompt": prompt, "expert": "ui", **fields}))
        generation = ""
        while True:
            frame = json.loads(socket.recv(timeout=TIMEOUT_S))
            kind = frame.get("type")
            if kind == "generation.accepted":
                generation = frame["generation"]
            elif kind == "error":
                raise RuntimeError(f"the studio refused {label}: {frame}")
            elif frame.get("generation") != generation:
                continue
            elif kind == "generation.delta" and frame["seq"] > seq + 1:  # missed a batch
                socket.send(json.dumps({"type": "resync", "generation": generation}))
            elif kind in ("generation.delta", "generation.snapshot") and frame["seq"] > seq:
                whole = frame["text"] if kind == "generation.snapshot" else text + frame["delta"]
                seq, text = frame["seq"], whole
                if first is None and component_visible(text):
                    first = time.perf_counter() - started
            elif kind == "generation.done":
                finished = time.perf_counter() - started
                version = frame.get("version") or {}
                return Screen(
                    "studio",
                    label,
                    users,
                    first,
                    finished,
                    int((frame.get("timings") or {}).get("tokens") or 0),
                    len(frame.get("text") or text),
                    frame.get("status") == "done" and bool(version),
                    project=str(frame.get("project", "")),
                    version=str(version.get("id", "")),
                )


# A node below the page's root, as the renderer marks every node it draws (ui4a/render.py).
DRAWN_COMPONENT = '[data-ui4a-node^="/root/c/"]'
ENDED_STATUS = re.compile(r"^(Done|Generation failed|Stopped)")


# Timestamps the page and its preview frame take themselves, on the browser's clock: the Generate
# click (top page) and the first frame painted after a component arrived in the preview. Playwright
# notices an element by polling at growing intervals (up to 500 ms), which no user waits for.
PAGE_CLOCKS = """
(() => {
  if (window === window.top) {
    document.addEventListener("click", (event) => {
      if (event.target instanceof Element && event.target.closest("#generate")) {
        window.__generateClickedAt = Date.now();
      }
    }, true);
    return;
  }
  new MutationObserver((_, observer) => {
    if (!document.querySelector(DRAWN_COMPONENT)) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__firstComponentAt = Date.now(); });
  }).observe(document, { subtree: true, childList: true });
})();
""".replace("DRAWN_COMPONENT", json.dumps(DRAWN_COMPONENT))


def browser_screens(stack: Stack, prompts: list[DevPrompt]) -> list[Screen]:
    """Each prompt in a new project of the studio page, in Chromium, one after another. The first
    component's time is the page's own (`PAGE_CLOCKS`); the finished screen's is when Playwright
    saw the status say so."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    from studio.chromium import launch_chromium

    screens = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        context.add_init_script(PAGE_CLOCKS)
        page = context.new_page()
        page.goto(stack.signin_url("browser"))
        for prompt in prompts:
            page.goto(f"{stack.url}/")
            page.get_by_role("button", name="New project").click()
            page.get_by_role("status").filter(has_text="Connected").wait_for()
            preview = page.frame_locator("iframe[title=Preview]")
            page.get_by_label("Describe the interface").fill(prompt.prompt)
            page.get_by_label("Expert", exact=True).select_option("ui")
            started = time.perf_counter()
            page.get_by_role("button", name="Generate").click()
            # The browser itself waits for each event (Playwright polls inside the page), so
            # the bench adds no round trips on the cores the engine and Chromium share.
            first: float | None = None
            drawn = preview.locator(DRAWN_COMPONENT).first
            ended = page.locator("#status").filter(has_text=ENDED_STATUS)
            while first is None and not ended.count():
                try:
                    drawn.wait_for(state="attached", timeout=1_000)
                    first = first_component_s(page)
                except PlaywrightTimeout:
                    if time.perf_counter() - started > TIMEOUT_S:
                        break
            left = max(0.0, TIMEOUT_S - (time.perf_counter() - started))
            ended.wait_for(timeout=left * 1_000)
            finished = time.perf_counter() - started
            status = page.locator("#status").inner_text()
            ok = status.startswith("Done")
            screens.append(Screen("browser", prompt.id, 1, first, finished, 0, 0, ok))
        browser.close()
    return screens


def first_component_s(page: Any) -> float | None:
    """Seconds from the Generate click to the first painted frame with a component, as the
    page and its preview frame timed them (`PAGE_CLOCKS`)."""
    clicked = page.evaluate("window.__generateClickedAt || null")
    preview = page.locator("iframe[title=Preview]").element_handle().content_frame()
    drawn = preview.wait_for_function("window.__firstComponentAt || null", timeout=5_000)
    painted = drawn.json_value()
    return (painted - clicked) / 1000 if clicked and painted else None


def version_spec(stack: Stack, cookie: str, screen: Screen) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{stack.url}/p/{screen.project}/versions/{screen.version}/export.json",
        headers={"Cookie": cookie},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        spec: dict[str, Any] = json.load(response)
    return spec


def refinements(stack: Stack, cookie: str, fresh: Screen) -> list[Screen]:
    """Two small refinements of a fresh studio screen's version: one element's text, targeted;
    and the title, with the whole spec as the target."""
    spec = version_spec(stack, cookie, fresh)
    chosen = next(
        (r for r in walk(spec) if r.depth > 0 and r.node.get("t") in TEXT_KINDS),
        next((r for r in walk(spec) if r.depth > 0), None),
    )
    asks: list[tuple[str, str, str]] = [(":title", 'change the title to "Overview"', "")]
    if chosen is not None:
        asks.insert(0, (":target", 'change the text to "Updated"', pointer(chosen.path)))
    out = []
    for suffix, prompt, target in asks:
        base = {"project": fresh.project, "base": fresh.version, "target": target}
        out.append(studio_screen(stack, cookie, fresh.prompt + suffix, 1, prompt, **base))
    return out


def at_once(users: int, one: Callable[[int], list[Screen]]) -> list[Screen]:
    """`one(user)` for each user on its own thread; every screen they made (the first error
    is raised once all have stopped)."""
    with ThreadPoolExecutor(max_workers=users) as pool:
        made = list(pool.map(one, range(users)))
    return [screen for screens in made for screen in screens]


def one_run(
    stack: Stack, keys: list[str], cookies: list[str], prompts: list[DevPrompt], number: int
) -> list[Screen]:
    screens: list[Screen] = []
    for users in USERS:
        shares = [prompts[i::users] for i in range(users)]  # each user its share, in turn

        def by_api(
            i: int, users: int = users, shares: list[list[DevPrompt]] = shares
        ) -> list[Screen]:
            return [api_screen(stack.url, keys[i], p, users) for p in shares[i]]

        def in_studio(
            i: int, users: int = users, shares: list[list[DevPrompt]] = shares
        ) -> list[Screen]:
            return [studio_screen(stack, cookies[i], p.id, users, p.prompt) for p in shares[i]]

        screens += at_once(users, by_api)
        log(f"run {number}: api, {users} user(s) done")
        screens += at_once(users, in_studio)
        log(f"run {number}: studio, {users} user(s) done")
    screens += browser_screens(stack, prompts)
    log(f"run {number}: browser done")
    for fresh in [s for s in screens if s.path == "studio" and s.users == 1 and s.ok]:
        screens += refinements(stack, cookies[0], fresh)
    log(f"run {number}: refinements done")
    return screens


def figures(screens: list[Screen]) -> dict[str, float | None]:
    """The headline figures of one run."""
    out: dict[str, float | None] = {}
    fresh = [s for s in screens if ":" not in s.prompt]
    for path, users in [(p, u) for p in ("api", "studio") for u in USERS] + [("browser", 1)]:
        mine = [s for s in fresh if s.path == path and s.users == users]
        if not mine:
            continue
        done = [s.finished_s for s in mine]
        firsts = [s.first_component_s for s in mine if s.first_component_s is not None]
        out[f"{path} {users}u finished median s"] = round(statistics.median(done), 2)
        out[f"{path} {users}u finished p95 s"] = round(p95(done), 2)
        out[f"{path} {users}u first component median s"] = (
            round(statistics.median(firsts), 2) if firsts else None
        )
    by_id = {s.prompt: s for s in fresh if s.path == "studio" and s.users == 1}
    for suffix in (":target", ":title"):
        ratios = [
            s.finished_s / by_id[s.prompt.split(":")[0]].finished_s
            for s in screens
            if s.prompt.endswith(suffix) and s.ok
        ]
        out[f"refinement{suffix} vs fresh median"] = (
            round(statistics.median(ratios), 2) if ratios else None
        )
    return out


def spread(values: list[float | None]) -> str:
    seen = sorted(v for v in values if v is not None)
    if not seen:
        return "-"
    return f"{statistics.median(seen):g} ({seen[0]:g} to {seen[-1]:g})"


@contextmanager
def screen_stack(settings: dict[str, str]) -> Iterator[tuple[Stack, list[str], list[str]]]:
    """A throwaway stack with `settings`, four API keys and four signed-in designers."""
    exit_on_sigterm()
    run_dir = Path(tempfile.mkdtemp(prefix="macaron-screen-time-"))
    limits = {
        "MACARON_API_RATE_PER_MINUTE": "100000",
        "MACARON_STUDIO_RATE_PER_MINUTE": "100000",
    }
    stack = throwaway_stack(run_dir, {**limits, **settings})
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", MAKE_KEYS.format(n=max(USERS))],
        env=stack.env,
        check=True,
        capture_output=True,
        text=True,
    )
    try:
        stack.start_redis(free_port())
        worker = stack.start_worker(concurrency=max(USERS))
        stack.start_daphne(free_port())
        log(f"waiting for the engine worker (logs in {run_dir})")
        wait_worker_ready(worker, timeout=900)
        cookies = [cookie_header(stack, f"designer{i}") for i in range(max(USERS))]
        yield stack, made.stdout.split(), cookies
    finally:
        stack.stop()


def measure(settings: dict[str, str], prompts: list[DevPrompt], runs: int) -> list[list[Screen]]:
    out: list[list[Screen]] = []
    with screen_stack(settings) as (stack, keys, cookies):
        api_screen(stack.url, keys[0], prompts[0], 1)  # warm: the first request compiles
        for number in range(1, runs + 1):
            out.append(one_run(stack, keys, cookies, prompts, number))
    return out


def compared_configs(
    reference: list[tuple[str, str]], settings: list[tuple[str, str]]
) -> dict[str, dict[str, str]]:
    """The stacks to start, the reference first. It keeps the name "default" (what the tables
    and bench/summary.py compare against) whatever settings it runs with; its record has them."""
    configs: dict[str, dict[str, str]] = {"default": dict(reference)}
    if settings or reference:
        named = " ".join(f"{k}={v}" for k, v in settings) or "the defaults"
        configs[f"with {named}"] = dict(settings)
    return configs


def setting(text: str) -> tuple[str, str]:
    name, _, value = text.partition("=")
    if not name.startswith("MACARON_") or not value:
        raise argparse.ArgumentTypeError(f"{text!r} is not a MACARON_NAME=VALUE setting")
    return name, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.screen_time", description=__doc__)
    parser.add_argument("--prompts", type=int, default=12, help="dev prompts, one per kind")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--with", dest="settings", type=setting, action="append", default=[])
    parser.add_argument("--reference", type=setting, action="append", default=[])
    parser.add_argument("--json", type=Path, default=Path("bench/results/screen_time.json"))
    args = parser.parse_args(argv)
    prompts = one_per_kind(args.prompts)

    configs = compared_configs(args.reference, args.settings)
    measured = {name: measure(env, prompts, args.runs) for name, env in configs.items()}
    per_run = {name: [figures(screens) for screens in runs] for name, runs in measured.items()}
    print(f"ui expert, {len(prompts)} dev prompts, {args.runs} runs: median (min to max of runs)")
    if args.reference:
        print(
            "  default: the reference stack, with "
            + " ".join(f"{k}={v}" for k, v in args.reference)
        )
    names = list(per_run)
    print(
        f"  {'figure':<40} "
        + "".join(f"{n:<28} " for n in names)
        + ("ratio" if len(names) > 1 else "")
    )
    for figure in per_run["default"][0]:
        cells = [spread([f.get(figure) for f in per_run[n]]) for n in names]
        line = f"  {figure:<40} " + "".join(f"{c:<28} " for c in cells)
        if len(names) > 1:
            line += ratio_of(per_run["default"], per_run[names[1]], figure)
        print(line)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "prompts": [p.id for p in prompts],
        "configs": {
            name: {
                "settings": configs[name],
                "figures": per_run[name],
                "runs": [[asdict(s) for s in screens] for screens in measured[name]],
            }
            for name in names
        },
    }
    args.json.write_text(json.dumps(record, indent=1) + "\n")
    return 0


def median_of(runs: list[dict[str, float | None]], figure: str) -> float | None:
    seen = [r[figure] for r in runs if r.get(figure) is not None]
    return statistics.median(seen) if seen else None  # type: ignore[type-var]


def ratio_of(
    before: list[dict[str, float | None]], after: list[dict[str, float | None]], figure: str
) -> str:
    """The setting's median over the default's, the same run."""
    old, new = median_of(before, figure), median_of(after, figure)
    return f"{new / old:.2f}x" if old and new is not None else "-"


if __name__ == "__main__":
    raise SystemExit(main())
