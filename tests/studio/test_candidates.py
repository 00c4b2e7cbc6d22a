"""More drafts of a studio ui turn, and the one kept (studio/worker/candidates.py), on the
scripted fake engine: which draft is kept, which turns have drafts, and that every draft ends
with its turn. The real engine writes them in tests/stack and in UI4A-Bench."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from inference.protocol import Delta, GenerationRequest
from inference.serving.prompts import request_for
from studio import messages
from studio.models import Generation, Project, Version
from studio.selectors import generation_payload
from studio.services.broadcast import group_send
from studio.services.generations import generation_cancel, generation_create
from studio.worker.candidates import (
    CANDIDATE_GRACE_SECONDS,
    CANDIDATE_TEMPERATURE,
    Candidates,
    Draft,
    kept_draft,
)
from studio.worker.run import _candidates, generation_run
from tests.fakes import HOLD_SECONDS, ScriptedFakeEngine

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("real_channel_layer", "enqueued"),
]

PROMPT = "A suppliers table with Name, Contact and Phone"


def spec(*texts: str, title: str = "Vendors") -> str:
    shown = [{"t": "text", "text": text} for text in texts]
    return json.dumps({"title": title, "root": {"t": "page", "c": shown}}, separators=(",", ":"))


GREEDY = spec("Name", "Email")  # shows 1 of the 5 words: Name
BETTER = spec("Name", "Contact", "Phone", title="Suppliers")  # 4 of 5
WORSE = spec("Code")


class DraftsEngine(ScriptedFakeEngine):
    """Replays one text for the streamed request and others for its drafts (`<id>~<n>`)."""

    def __init__(
        self, texts: dict[int, str], *, fail_streamed: bool = False, hold_drafts: bool = False
    ) -> None:
        super().__init__(texts[0])
        self.texts, self.fail_streamed = texts, fail_streamed
        self.hold_drafts = fail_streamed or hold_drafts

    def stream(self, request: GenerationRequest) -> Iterator[Delta]:
        _, _, draft = request.request_id.partition("~")
        if not draft:
            scripted = ScriptedFakeEngine(
                self.texts[0], fail_after=1 if self.fail_streamed else None
            )
        else:  # a held draft (always, in a failing turn) runs until it is aborted
            scripted = ScriptedFakeEngine(
                self.texts[int(draft)], hold_after=1 if self.hold_drafts else None
            )
        scripted.aborted, scripted.abort_seen = self.aborted, self.abort_seen
        with self.lock:
            self.requests.append(request)
        yield from scripted.stream(request)


def run(
    texts: dict[int, str], settings: Any, *, fail_streamed: bool = False, hold_drafts: bool = False
) -> tuple[Generation, DraftsEngine]:
    settings.MACARON_UI_CANDIDATES = len(texts)
    project = Project.objects.create(name="Shop")
    generation = generation_create(prompt=PROMPT, expert="ui", project_id=project.id, best_of=True)
    engine = DraftsEngine(texts, fail_streamed=fail_streamed, hold_drafts=hold_drafts)
    generation_run(generation_id=generation.id, engine=engine)
    return Generation.objects.get(pk=generation.id), engine


@pytest.fixture
def drafts_sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The drafts messages the run sends its watchers (beside the batches, which still go)."""
    sent: list[dict[str, Any]] = []

    def recording(group: str, message: dict[str, Any], **kwargs: Any) -> None:
        if message["type"] == messages.GENERATION_DRAFTS:
            sent.append(message)
        group_send(group, message, **kwargs)

    monkeypatch.setattr("studio.worker.batches.group_send", recording)
    return sent


def test_the_draft_showing_most_of_the_request_is_kept(settings: Any) -> None:
    stored, engine = run({0: GREEDY, 1: WORSE, 2: BETTER}, settings)
    assert stored.status == Generation.Status.DONE
    assert stored.text == BETTER and stored.spec is not None
    assert stored.spec["title"] == "Suppliers"
    version = Version.objects.get(generation=stored)  # the version the turn adds
    assert version.spec == stored.spec
    temperatures = sorted((r.request_id.count("~"), r.temperature) for r in engine.requests)
    assert temperatures == [(0, 0.0), (1, CANDIDATE_TEMPERATURE), (1, CANDIDATE_TEMPERATURE)]


def test_the_streamed_draft_is_kept_unless_another_shows_more(settings: Any) -> None:
    stored, _ = run({0: BETTER, 1: GREEDY, 2: BETTER.replace("Suppliers", "Others")}, settings)
    assert stored.text == BETTER


def test_a_draft_that_is_not_whole_and_valid_is_never_kept(settings: Any) -> None:
    cut = BETTER[:-9]  # no longer parses
    stored, _ = run({0: GREEDY, 1: cut}, settings)
    assert stored.text == GREEDY


def test_one_draft_is_the_streamed_one_alone(settings: Any) -> None:
    stored, engine = run({0: GREEDY}, settings)
    assert stored.text == GREEDY and len(engine.requests) == 1


def test_a_turn_that_fails_aborts_its_drafts(settings: Any) -> None:
    started = time.monotonic()
    stored, engine = run({0: GREEDY, 1: BETTER, 2: BETTER}, settings, fail_streamed=True)
    assert stored.status == Generation.Status.FAILED
    assert sorted(engine.aborted) == [f"{stored.pk}~1", f"{stored.pk}~2"]
    assert time.monotonic() - started < HOLD_SECONDS / 2  # not held until the drafts' end


def test_drafts_still_running_at_the_time_limit_are_left_out(settings: Any) -> None:
    engine = DraftsEngine({0: GREEDY, 1: BETTER}, fail_streamed=True)  # the draft holds
    request = GenerationRequest("g", "ui", ())
    candidates = Candidates(engine, request, 1)
    started = time.monotonic()
    assert candidates.ended(candidates.deadline(time_limit_seconds=0.5)) == []
    assert time.monotonic() - started < CANDIDATE_GRACE_SECONDS  # the limit, not the grace
    assert engine.aborted == ["g~1"]


def test_kept_draft_reads_validity_before_coverage() -> None:
    remove = {"t": "button", "label": "x", "on": {"do": "remove"}}  # outside any list item
    invalid = json.dumps(
        {"title": "Suppliers Name Contact Phone", "root": {"t": "page", "c": [remove]}}
    )
    drafts = [Draft("g~1", invalid, 9, "stop"), Draft("g~2", BETTER, 9, "length")]
    assert kept_draft(PROMPT, GREEDY, drafts) is None
    best = Draft("g~3", BETTER, 9, "stop")
    assert kept_draft(PROMPT, GREEDY, [*drafts, best]) is best


@pytest.mark.parametrize(
    ("structured", "messages", "refines", "asked", "drafts"),
    [
        (True, [], False, 3, 2),  # a first ui turn from the studio, the best of 3 asked
        (True, [], False, None, 0),  # the same turn, not asked: the streamed draft alone
        (True, [], True, 3, 0),  # a refinement edits the version it quotes
        (True, [{"role": "user", "content": "x"}], False, 3, 0),  # an API request
        (False, [], False, 3, 0),  # a text expert's turn
    ],
)
def test_only_a_first_studio_ui_turn_asking_the_best_of_has_drafts(
    structured: bool, messages: list[Any], refines: bool, asked: int | None, drafts: int
) -> None:
    options = {"drafts": asked} if asked else {}
    generation = SimpleNamespace(structured=structured, messages=messages, options=options)
    basis = object() if refines else None
    request = GenerationRequest("g", "ui", ())
    engine = ScriptedFakeEngine(GREEDY)
    made = _candidates(generation, request, basis, engine, None)  # type: ignore[arg-type]
    assert (len(made.drafts) if made else 0) == drafts
    if made:
        made.ended(made.deadline(time_limit_seconds=10.0))


@pytest.mark.parametrize(
    ("best_of", "refines", "expert", "options"),
    [
        (True, False, "ui", {"drafts": 3}),
        (False, False, "ui", {}),
        (True, True, "ui", {}),  # a refinement writes one draft
        (True, False, "chat", {}),  # and so does a text expert
    ],
)
def test_a_studio_turn_stores_the_drafts_its_designer_asked_for(
    settings: Any, best_of: bool, refines: bool, expert: str, options: dict[str, int]
) -> None:
    settings.MACARON_UI_CANDIDATES = 3
    project = Project.objects.create(name="Shop")
    base = None
    if refines:
        first = generation_create(prompt=PROMPT, expert="ui", project_id=project.id)
        generation_run(generation_id=first.id, engine=ScriptedFakeEngine(GREEDY))
        base = Version.objects.get(generation=first).pk
    turn = generation_create(
        prompt=PROMPT, expert=expert, project_id=project.id, base_version_id=base, best_of=best_of
    )
    assert turn.options == options


def test_the_schemas_own_words_do_not_count() -> None:
    """A "checkbox" asked for is a component: a label that spells the word shows it no better."""
    asked = "a signup form with a terms checkbox"
    schema = request_for(request_id="r", expert="ui", prompt=asked, max_tokens=50).json_schema
    agree = spec("Signup", "I agree to the terms")
    spelled = Draft("g~1", spec("Signup", "Terms checkbox"), 9, "stop")
    assert kept_draft(asked, agree, [spelled]) is spelled  # with "checkbox" counted
    assert kept_draft(asked, agree, [spelled], schema) is None


def test_watchers_hear_the_drafts_still_writing_then_the_one_kept(
    settings: Any, drafts_sent: list[dict[str, Any]]
) -> None:
    stored, _ = run({0: GREEDY, 1: WORSE, 2: BETTER}, settings)
    *waiting, kept = drafts_sent
    assert kept == {
        "type": messages.GENERATION_DRAFTS,
        "generation": str(stored.pk),
        "drafts": 3,
        "writing": 0,
        "kept": 2,
    }
    for (
        message
    ) in waiting:  # sent only if a draft was still being written when the streamed one ended
        assert 1 <= message["writing"] <= 2 and 0 < message["wait_s"] <= CANDIDATE_GRACE_SECONDS


def test_keeping_the_streamed_draft_says_so(
    settings: Any, drafts_sent: list[dict[str, Any]]
) -> None:
    run({0: BETTER, 1: WORSE}, settings)
    assert drafts_sent[-1]["kept"] == 0


def test_a_stop_while_drafts_finish_aborts_them_at_once(
    settings: Any, drafts_sent: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The streamed draft has ended and the others are held: a Stop ends the wait (not the
    grace), aborts them, and no draft is kept."""
    real_deadline = Candidates.deadline

    def stop_when_waiting(candidates: Candidates, time_limit_seconds: float) -> float:
        generation_id = candidates.drafts[0].request_id.partition("~")[0]
        threading.Timer(0.3, generation_cancel, kwargs={"generation_id": generation_id}).start()
        return real_deadline(candidates, time_limit_seconds)

    monkeypatch.setattr(Candidates, "deadline", stop_when_waiting)
    started = time.monotonic()
    stored, engine = run({0: GREEDY, 1: BETTER, 2: BETTER}, settings, hold_drafts=True)
    assert time.monotonic() - started < CANDIDATE_GRACE_SECONDS / 2
    assert stored.status == Generation.Status.CANCELLED
    assert sorted(set(engine.aborted)) == [f"{stored.pk}~1", f"{stored.pk}~2"]
    assert [m["writing"] for m in drafts_sent] == [2]  # no draft is said to be kept


def test_a_page_loaded_while_drafts_are_compared_reads_how_they_stand(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The drafts message reaches only the pages open when it is sent: the row says it too, and
    the generation's payload (which a page loaded later starts from) carries it until the end."""
    real_deadline = Candidates.deadline
    seen: list[dict[str, Any]] = []

    def look_then_stop(candidates: Candidates, time_limit_seconds: float) -> float:
        generation_id = candidates.drafts[0].request_id.partition("~")[0]

        def look() -> None:
            seen.append(generation_payload(Generation.objects.get(pk=generation_id)))
            generation_cancel(generation_id=generation_id)

        threading.Timer(0.3, look).start()
        return real_deadline(candidates, time_limit_seconds)

    monkeypatch.setattr(Candidates, "deadline", look_then_stop)
    stored, _ = run({0: GREEDY, 1: BETTER, 2: BETTER}, settings, hold_drafts=True)
    [while_waiting] = seen
    assert while_waiting["status"] == Generation.Status.RUNNING
    comparing = while_waiting["comparing"]
    assert comparing["drafts"] == 3 and comparing["writing"] == 2
    assert 0 < comparing["wait_s"] <= CANDIDATE_GRACE_SECONDS
    assert "comparing" not in generation_payload(stored)  # ended: nothing is compared any more
