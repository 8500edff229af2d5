"""The standings of a tournament played in stages (`tournament.stages`).

Each stage is ranked by the game (``Rules.rank``) over the rounds its scoring counts: the
qualifying stage over its own rounds, the whole field; a later stage over its entrants only,
with its own rounds and, when it carries over, the earlier rounds (all of them, or one line
holding a share of their total). Before anyone has played a stage's round, its entrants stand
in seed order. The **final standings** list the entrants of the furthest stage cut first, in
that stage's order, then the others of the stage before, and so on: a finalist is placed above
everyone who missed the final, whatever their totals.
"""

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple, Protocol

from games.base import Placing, Rules, StandingLine
from tournament.stages import Stage, StageEntry, stage_bounds

# (entry, place, shared, the total its stage ranks it by: None before it has played there)
Ranked = tuple[int, int, bool, int | None]


class Tallied(Protocol):
    """What this module reads of an entry's tally (`scoring.standings.Tally`)."""

    entry: int
    key: str
    status: str
    rounds: dict[int, dict[str, int]]
    byes: set[int]

    @property
    def has_played(self) -> bool: ...

    def counted_rounds(self, up_to_round: int | None = None) -> list[int]: ...


def stages_read(tournament_id: int) -> tuple[list[Stage], dict[int, dict[int, int]]]:
    """The tournament's stages and, by stage number, each entrant's seed (two queries; one
    when it has no stages)."""
    stages = list(Stage.objects.filter(tournament_id=tournament_id).order_by("number"))
    seeds: dict[int, dict[int, int]] = {stage.number: {} for stage in stages}
    if stages:
        rows = StageEntry.objects.filter(stage__tournament_id=tournament_id)
        for number, entry, seed in rows.values_list("stage__number", "entry_id", "seed"):
            seeds[number][entry] = seed
    return stages, seeds


def stage_rankings(
    rules: Rules[Any],
    tallies: Mapping[int, Tallied],
    stages: list[Stage],
    seeds: Mapping[int, Mapping[int, int]],
) -> dict[int, list[Ranked]]:
    """Each stage cut so far (and the qualifying stage) ranked: (entry, place, shared), best
    first, by stage number."""
    bounds = stage_bounds(stages)
    ranked = {1: _qualifying(rules, tallies, bounds[1])}
    for stage in stages[1:]:
        if seeds.get(stage.number):
            ranked[stage.number] = _later(rules, tallies, stage, bounds, seeds[stage.number])
    return ranked


def _qualifying(rules: Rules[Any], tallies: Mapping[int, Tallied], rounds: range) -> list[Ranked]:
    playing = [t for t in tallies.values() if t.has_played and t.status != "disqualified"]
    lines = [_line(tally, rounds) for tally in playing]
    lines = [line for line in lines if line.rounds]
    return _placed(rules.rank(lines), {t.key: t.entry for t in playing}, {})


def _later(
    rules: Rules[Any],
    tallies: Mapping[int, Tallied],
    stage: Stage,
    bounds: Mapping[int, range],
    seeds: Mapping[int, int],
) -> list[Ranked]:
    entrants = [tallies[entry] for entry in seeds if entry in tallies]
    entrants = [tally for tally in entrants if tally.status != "disqualified"]
    own = bounds[stage.number]
    if not any(_line(tally, own).rounds for tally in entrants):  # not played yet: by seed
        order = sorted(entrants, key=lambda tally: seeds[tally.entry])
        return [(tally.entry, place, False, None) for place, tally in enumerate(order, 1)]
    lines = [_carried(tally, stage, own) + _line(tally, own).rounds for tally in entrants]
    keyed = [StandingLine(tally.key, rounds) for tally, rounds in zip(entrants, lines, strict=True)]
    by_key = {tally.key: tally.entry for tally in entrants}
    return _placed(rules.rank(keyed), by_key, seeds)


def _line(tally: Tallied, rounds: range) -> StandingLine:
    """The entry's rounds of `rounds` that count now (a live round waits, as in the standings)."""
    played = [r for r in tally.counted_rounds() if r in rounds]
    return StandingLine(tally.key, tuple(tally.rounds.get(r) for r in played))


def _carried(tally: Tallied, stage: Stage, own: range) -> tuple[Any, ...]:
    """What the stage carries over of the earlier rounds: nothing (fresh), every round, or one
    round holding a share of their total."""
    if stage.scoring == Stage.Scoring.FRESH:
        return ()
    earlier = _line(tally, range(1, own.start)).rounds
    if stage.scoring == Stage.Scoring.CARRY_ALL or stage.carry_percent == 100:
        return earlier
    total = sum((stats or {}).get("total", 0) for stats in earlier)
    return ({"total": round(total * stage.carry_percent / 100)},)


def _placed(
    placings: Iterable[Placing], by_key: Mapping[str, int], seeds: Mapping[int, int]
) -> list[Ranked]:
    """(entry, place, shared, total), best first; level entries by seed, then as the game
    lists them."""
    rows = [(by_key[p.key], p.place, p.shared, p.stats.get("total")) for p in placings]
    return sorted(rows, key=lambda row: (row[1], seeds.get(row[0], 0)))


class Placed(NamedTuple):
    """An entry in the final standings: its overall place, the furthest stage it reached, and
    the total that stage ranks it by (None before it has played there)."""

    entry: int
    place: int
    shared: bool
    stage: int
    total: int | None


def final_order(stages: list[Stage], ranked: Mapping[int, list[Ranked]]) -> list[Placed]:
    """Every placed entry, the furthest stage's entrants first, then each earlier stage's
    others, with its overall place."""
    order: list[Placed] = []
    listed: set[int] = set()
    for number in sorted(ranked, reverse=True):
        rows = [row for row in ranked[number] if row[0] not in listed]
        offset, before = len(order), None
        for index, (entry, place, shared, total) in enumerate(rows):
            # Places within the group, renumbered after the groups above it (1, 2, 2, 4).
            overall = offset + (index + 1 if before is None or place != before[1] else before[0])
            before = (overall - offset, place)
            order.append(Placed(entry, overall, shared, number, total))
            listed.add(entry)
    return order


def stages_data(
    stages: list[Stage],
    seeds: Mapping[int, Mapping[int, int]],
    ranked: Mapping[int, list[Ranked]],
) -> list[dict[str, Any]]:
    """Each stage as the pages and the API show it: its settings in words, its rounds, and its
    entrants in its order (for a stage cut), best first."""
    bounds = stage_bounds(stages)
    return [
        {
            "number": stage.number,
            "kind": stage.kind,
            "name": stage.name,
            "rounds": [bounds[stage.number].start, bounds[stage.number].stop - 1],
            "size": stage.size,
            "scoring": stage.scoring,
            "carry_percent": stage.carry_percent,
            "scoring_words": stage.scoring_words(),
            "seats": stage.seats,
            "seats_words": stage.seats_words(),
            "cut": stage.number == 1 or bool(seeds.get(stage.number)),
            "seeds": {str(e): s for e, s in sorted(seeds.get(stage.number, {}).items())},
            "order": [row[0] for row in ranked.get(stage.number, [])] if stage.number > 1 else [],
        }
        for stage in stages
    ]
