"""The README's showcase (issue 12): the studio's default prompt and prompts outside the dev set,
each typed into the studio page in Chromium on the real stack, as a designer would; each
finished view is screenshotted beside its prompt and judged like a UI4A-Bench screen, on
requirements and an interaction script written from the prompt (bench/showcase.jsonl).

    python -m bench.showcase [--ids a,b] [--shots docs/screenshots] [--json FILE]

Prints one line per prompt: requirements met, the script's outcome, the version's size.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.ui4a_bench import devset
from bench.ui4a_bench.judges import judge_many
from studio.stack import Stack, exit_on_sigterm, free_port, throwaway_stack, wait_worker_ready

SHOWCASE = Path(__file__).with_name("showcase.jsonl")
TIMEOUT_S = 300


@dataclass
class Shown:
    prompt: devset.DevPrompt
    status: str
    spec: dict[str, Any] | None
    studio_shot: Path


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def in_the_studio(stack: Stack, prompts: list[devset.DevPrompt], shots: Path) -> list[Shown]:
    """Each prompt in a new project of the studio page; the page's screenshot once done, and
    the version's spec as the studio exports it."""
    from playwright.sync_api import sync_playwright

    from studio.chromium import launch_chromium

    shown = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_context(viewport={"width": 1360, "height": 900}).new_page()
        page.goto(stack.signin_url("designer"))
        for prompt in prompts:
            page.goto(f"{stack.url}/")
            page.get_by_role("button", name="New project").click()
            page.get_by_role("status").filter(has_text="Connected").wait_for()
            page.get_by_label("Describe the interface").fill(prompt.prompt)
            page.get_by_label("Expert", exact=True).select_option("ui")
            page.get_by_role("button", name="Generate").click()
            ended = page.locator("#status").filter(has_text="Done")
            ended.or_(page.locator("#status").filter(has_text="failed")).wait_for(
                timeout=TIMEOUT_S * 1000
            )
            page.wait_for_timeout(500)  # the preview's last frame painted
            shot = shots / f"showcase-{prompt.id}.png"
            page.screenshot(path=str(shot))
            status = page.locator("#status").inner_text()
            spec = None
            if status.startswith("Done"):  # the version's Export menu, as a designer would
                page.get_by_text("Export", exact=True).click()
                link = page.get_by_role("link", name="Spec as JSON").get_attribute("href")
                exported = page.request.get(f"{stack.url}{link}")
                spec = exported.json() if exported.ok else None
            shown.append(Shown(prompt, status, spec, shot))
            log(f"  {prompt.id}: {status}")
        browser.close()
    return shown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.showcase", description=__doc__)
    parser.add_argument("--ids", default="", help="only these prompt ids (comma-separated)")
    parser.add_argument("--shots", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--json", type=Path, default=Path("bench/results/showcase.json"))
    args = parser.parse_args(argv)
    prompts = devset.load(SHOWCASE)
    if args.ids:
        wanted = args.ids.split(",")
        prompts = [p for p in prompts if p.id in wanted]
    args.shots.mkdir(parents=True, exist_ok=True)
    exit_on_sigterm()
    run_dir = Path(tempfile.mkdtemp(prefix="macaron-showcase-"))
    stack = throwaway_stack(run_dir)
    try:
        stack.start_redis(free_port())
        worker = stack.start_worker()
        stack.start_daphne(free_port())
        log(f"waiting for the engine worker (logs in {run_dir})")
        wait_worker_ready(worker, timeout=900)
        shown = in_the_studio(stack, prompts, args.shots)
    finally:
        stack.stop()
    judged = [s for s in shown if s.spec is not None]
    jobs = [
        (s.spec, list(s.prompt.requires), s.prompt.script, run_dir / f"{s.prompt.id}.png", False)
        for s in judged
    ]
    verdicts = dict(judge_many(jobs, workers=2, log=log))
    rows = []
    for index, s in enumerate(judged):
        verdict = verdicts[index]
        met = sum(o.passed for o in verdict.requirements)
        script = verdict.script.as_dict() if verdict.script else None
        rows.append(
            {
                "id": s.prompt.id,
                "prompt": s.prompt.prompt,
                "requirements_met": f"{met}/{len(verdict.requirements)}",
                "all_requirements_met": verdict.all_met,
                "script_passed": script["passed"] if script else None,
                "verdict": verdict.as_dict(),
                "spec": s.spec,
                "screenshot": str(s.studio_shot),
            }
        )
        said = "no script" if script is None else ("passed" if script["passed"] else "failed")
        print(f"{s.prompt.id:<18} requirements {met}/{len(verdict.requirements)}  script {said}")
    for s in shown:
        if s.spec is None:
            print(f"{s.prompt.id:<18} {s.status}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    record = {"started": datetime.now(UTC).isoformat(timespec="seconds"), "screens": rows}
    args.json.write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
