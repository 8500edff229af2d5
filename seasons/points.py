"""Season points: the scale for a place in an event, the best events counted, the tie-break.

**Scale** (``event_points``): a member placed ``place`` of ``field`` placed entries scores
``field - place + 1``: one point for each entry finished behind, and one for playing. Winning a
night of 40 is worth 40, a night of 10 is worth 10; last place is worth 1. Our two anchors: the
EMA's ranking scores place linearly (first 1000, last 0) whatever the field, and VEKN's rating
points grow with attendance (a bigger event gives its winner more). This keeps EMA's linear
place and VEKN's weight of the field, in whole numbers a club can check by hand. A shared place
scores that place's points for each; a team's partners each score the team's points.

**Best N** (``Season.best_of``): a member's total is the sum of their best N events' points.

**Tie-break** (``season_rows``): the total, then every event's points summed, then events won,
then events played (more first); members level on all four share the place (listed A to Z).
"""

from dataclasses import dataclass, field


def event_points(place: int, field_size: int) -> int:
    return max(field_size - place + 1, 0)


@dataclass
class MemberSeason:
    member: int
    name: str
    results: list[tuple[int, int, int]] = field(default_factory=list)  # (event, place, points)

    def counted(self, best_of: int | None) -> list[tuple[int, int, int]]:
        """The results that count: the best `best_of` by points (the earlier event first)."""
        ranked = sorted(self.results, key=lambda r: (-r[2], r[0]))
        return ranked if best_of is None else ranked[:best_of]

    def key(self, best_of: int | None) -> tuple[int, int, int, int]:
        total = sum(points for _e, _p, points in self.counted(best_of))
        every = sum(points for _e, _p, points in self.results)
        wins = sum(1 for _e, place, _pts in self.results if place == 1)
        return total, every, wins, len(self.results)


def season_rows(members: list[MemberSeason], best_of: int | None) -> list[dict]:
    """The table's rows, best first, each with its place (shared when level, see the module)."""
    ordered = sorted(members, key=lambda m: ([-k for k in m.key(best_of)], m.name.casefold()))
    rows, place, previous = [], 0, None
    for index, member in enumerate(ordered, start=1):
        key = member.key(best_of)
        if key != previous:
            place, previous = index, key
        counted = {event for event, _p, _pts in member.counted(best_of)}
        rows.append(
            {
                "member": member.member,
                "place": place,
                "points": key[0],
                "all_points": key[1],
                "wins": key[2],
                "events": key[3],
                "results": [
                    {"event": e, "place": p, "points": pts, "counted": e in counted}
                    for e, p, pts in sorted(member.results)
                ],
            }
        )
    return rows
