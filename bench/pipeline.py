"""Pipeline benchmark: what our layers add between the engine and the browser.

    .venv/bin/python bench/pipeline.py [--runs 5] [--json bench/results/pipeline.json]

Starts the real stack (Redis, one engine worker, Daphne) on free ports with a throwaway
database, drives the studio in Debian's Chromium, and prints medians:
- time to first render: Generate pressed -> first component in the sandboxed frame, minus the
  engine's time up to the token that completed that component (so what remains is ours:
  WebSocket, storing the turn, Celery's queue, Redis, parsing, rendering, delivery, morph);
- per-batch delivery: worker flush -> the browser's WebSocket, and WebSocket messages per
  100 tokens, against one message per token (the naive alternative) as a ratio;
- patch time per streamed update in the sandboxed frame: the idiomorph morph alone, and the
  whole update (morph, then bindings and charts), median and p95, timed by the view's runtime
  only because the bench asks it to (`window.ui4aPatchTimes`).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import p95
from studio.chromium import launch_chromium
from studio.stack import exit_on_sigterm, free_port, throwaway_stack, wait_worker_ready

PROMPTS = [
    "a login form with email and password",
    "a newsletter signup box",
    "a contact form with name, email and a message",
    "a settings page with a dark mode switch",
    "a signup form with name, email, a password and a terms checkbox",
]
FIRST_RENDER_PROBE = """() => { window.firstRender = new Promise((resolve) => {
    const root = document.getElementById("ui4a-root");
    const seen = () => root.querySelector("[id]");
    if (seen()) return resolve(performance.timeOrigin + performance.now());
    new MutationObserver((_, observer) => {
        if (seen()) { observer.disconnect(); resolve(performance.timeOrigin + performance.now()); }
    }).observe(root, {childList: true, subtree: true});
}); }"""
# The status line once a generation has finished ("Done." or "Done, with a warning: ...").
DONE = re.compile(r"^Done")
CLICK_PROBE = """() => document.getElementById("generate").addEventListener(
    "click", () => { window.clickedAt = performance.timeOrigin + performance.now(); },
    {once: true})"""
DELIVERY_PROBE = """(prompt) => new Promise((resolve) => {
    const ws = new WebSocket(location.origin.replace("http", "ws") + "/ws/studio/");
    const lags = [];
    let messages = 0;
    ws.onmessage = (event) => {
        const now = Date.now() / 1000;
        const data = JSON.parse(event.data);
        if (data.type === "generation.delta") { messages += 1; lags.push(now - data.sent_at); }
        if (data.type === "generation.done") {
            ws.close();
            resolve({lags, messages, tokens: data.timings.tokens});
        }
    };
    ws.onopen = () => ws.send(JSON.stringify({type: "generate", prompt, expert: "ui"}));
})"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, default=Path("bench/results/pipeline.json"))
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    exit_on_sigterm()
    run_dir = Path(tempfile.mkdtemp(prefix="macaron-bench-"))
    stack = throwaway_stack(run_dir)
    overheads: list[float] = []
    lags: list[float] = []
    per_100: list[float] = []
    morphs: list[float] = []
    updates: list[float] = []
    try:
        stack.start_redis(free_port())
        worker = stack.start_worker()
        stack.start_daphne(free_port())
        wait_worker_ready(worker)
        with sync_playwright() as p:
            browser = launch_chromium(p)
            page = browser.new_page()
            page.goto(stack.signin_url("bench"))  # signs the browser in, onto the projects page
            for index in range(args.runs):
                prompt = PROMPTS[index % len(PROMPTS)]
                page.goto(stack.url + "/")
                page.get_by_role("button", name="New project").click()  # a fresh studio each run
                page.get_by_text("Connected").wait_for()
                frame = next(f for f in page.frames if f != page.main_frame)
                page.get_by_label("Describe the interface").fill(prompt)
                frame.evaluate(FIRST_RENDER_PROBE)
                frame.evaluate("() => { window.ui4aPatchTimes = []; }")
                page.evaluate(CLICK_PROBE)
                page.get_by_role("button", name="Generate").click()
                clicked = float(page.evaluate("() => window.clickedAt"))
                rendered = float(frame.evaluate("() => window.firstRender"))
                page.locator("#status").filter(has_text=DONE).wait_for(timeout=240_000)
                # The engine's share: from submission to the delta that completed the first view.
                engine_s = float(
                    page.locator("body").get_attribute("data-first-view-engine-s") or 0
                )
                overheads.append((rendered - clicked) / 1000 - engine_s)
                patches = frame.evaluate("() => window.ui4aPatchTimes")
                morphs.extend(p["morph"] for p in patches)
                updates.extend(p["update"] for p in patches)

                result = page.evaluate(DELIVERY_PROBE, prompt)
                lags.extend(result["lags"])
                per_100.append(100 * result["messages"] / max(result["tokens"], 1))
            browser.close()
    finally:
        stack.stop()

    table = {
        "time_to_first_render_overhead_ms": round(statistics.median(overheads) * 1000, 1),
        "batch_delivery_ms_median": round(statistics.median(lags) * 1000, 2),
        "batch_delivery_ms_p95": round(p95(lags) * 1000, 2),
        "messages_per_100_tokens": round(statistics.median(per_100), 1),
        "vs_one_message_per_token": round(statistics.median(per_100) / 100, 2),
        "patches": len(morphs),
        "morph_ms_median": round(statistics.median(morphs), 2),
        "morph_ms_p95": round(p95(morphs), 2),
        "update_ms_median": round(statistics.median(updates), 2),
        "update_ms_p95": round(p95(updates), 2),
        "runs": args.runs,
    }
    width = max(len(k) for k in table)
    for key, value in table.items():
        print(f"{key:<{width}}  {value}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(table, indent=2))


if __name__ == "__main__":
    main()
