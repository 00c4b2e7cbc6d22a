"""bench/drafts.py's table: each configuration's time as a ratio of the default's within each
run, steps per token, and how many specs came out as the default wrote them."""

from __future__ import annotations

from bench.drafts import CONFIGS, Spec, table


def test_the_table_takes_ratios_within_a_run_and_counts_changed_texts() -> None:
    specs = []
    for run, slow in ((0, 1.0), (1, 2.0)):  # the second run on a machine twice as slow
        for config in CONFIGS:
            fast = config != "none"
            seconds = slow * (5.0 if fast else 10.0)
            text = "changed" if config == "lookup" and run == 1 else "spec"
            steps = 50 if fast else 100
            specs.append(Spec(config, run, "auth-01", seconds, 100, steps, text))
    default = {(s.run, s.prompt): s for s in specs if s.config == "none"}
    rows = {
        line.split(" | ")[0].lstrip("| "): line
        for line in table(specs, default, 2, list(CONFIGS)).splitlines()
    }
    assert "| 1.00 | 1.00 / 1.00 / 1.00 | 2 of 2 |" in rows["none"]
    assert "| 0.50 | 0.50 / 0.50 / 0.50 | 2 of 2 |" in rows["jump-forward"]
    assert rows["lookup"].endswith("| 1 of 2 |")


def test_the_table_shows_only_the_configurations_asked_for() -> None:
    specs = [Spec(c, 0, "auth-01", 1.0, 10, 10, "t") for c in ("none", "jump-forward")]
    default = {(0, "auth-01"): specs[0]}
    lines = table(specs, default, 1, ["none", "jump-forward"]).splitlines()[2:]
    assert [line.split(" | ")[0].lstrip("| ") for line in lines] == ["none", "jump-forward"]
