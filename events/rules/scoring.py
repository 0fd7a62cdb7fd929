"""Who wins a round and what each player gains (R-W1, R-W2), and checks of the
scorekeeper's claims against it (``wrong_score``)."""

from __future__ import annotations

from collections import Counter
from itertools import product

from events.findings import Breach, Code
from events.said import say
from events.schema import GameStarted, RoundEnded
from events.state import Outcome
from events.tables import Role, base_saboteur_share, gold_cards_drawn, tournament_saboteur_points


def _of_role(players: list[str], roles: dict[str, Role | None], role: str) -> list[str]:
    return [p for p in players if roles.get(p) == role]


def tournament_outcome(
    number: int, players: list[str], roles: dict[str, Role | None], connector: str | None
) -> Outcome:
    """R-W1: points and stars of a tournament round; ``connector`` is who reached the
    gold, ``None`` when nobody did."""
    scores: dict[str, int | None] = {p: 0 for p in players}
    if connector is not None:
        role = roles.get(connector)
        if role == "selfish_dwarf":
            scores[connector] = 4
            return Outcome(number, "selfish_dwarf", connector, scores, (connector,))
        for digger in _of_role(players, roles, "gold_digger"):
            scores[digger] = 2
        if role == "gold_digger":
            scores[connector] = 3
            return Outcome(number, "gold_diggers", connector, scores, (connector,))
        # Ruling (R-W1): a saboteur's connection wins for the diggers, without a star.
        return Outcome(number, "gold_diggers", connector, scores, ())
    saboteurs = _of_role(players, roles, "saboteur")
    if not saboteurs:
        return Outcome(number, "nobody", None, scores, ())
    for saboteur in saboteurs:
        scores[saboteur] = tournament_saboteur_points(len(saboteurs))
    return Outcome(number, "saboteurs", None, scores, tuple(saboteurs))


def gold_passing(players: list[str], roles: dict[str, Role | None], connector: str, cards: int) -> dict[str, int]:
    """R-W2: how many gold cards each player takes when ``connector`` reached the gold.

    The connector keeps one (none if a saboteur) and passes the rest counter-clockwise
    to the next gold digger, skipping saboteurs, round and round until none are left.
    """
    at = players.index(connector)
    counter_clockwise = [players[(at - k) % len(players)] for k in range(len(players))]
    takers = [p for p in counter_clockwise if roles.get(p) == "gold_digger"]
    counts = {p: 0 for p in players}
    for k in range(cards if takers else 0):
        counts[takers[k % len(takers)]] += 1
    return counts


def saboteur_gold(supply: Counter[int], share: int, saboteurs: int) -> list[list[int]]:
    """The gold cards ``saboteurs`` saboteurs take from ``supply`` when the gold was not
    reached in base, the largest take first (R-W2 and its ruling).

    In turn each takes cards worth ``share``, or where the cards left cannot make it
    the largest sum below it, and takes them so as to leave the others the most: the
    takes whose sums, largest first, are the greatest. Where the cards run short the
    sums differ, and which saboteur took the smaller one only the table knows; the
    rules settle the sums. Judged one saboteur at a time against what the others
    claimed, a wrong claim of one changed what another was due.
    """
    takes = [
        (ones, twos, threes)
        for threes in range(min(supply[3], share // 3), -1, -1)
        for twos in range(min(supply[2], share // 2), -1, -1)
        for ones in range(min(supply[1], share), -1, -1)
        if ones + 2 * twos + 3 * threes <= share
    ]
    best: tuple[tuple[int, int, int], ...] = ()
    best_sums: list[int] = []
    for chosen in product(takes, repeat=saboteurs):
        if any(sum(take[k] for take in chosen) > supply[k + 1] for k in range(3)):
            continue
        ordered = tuple(sorted(chosen, key=lambda t: t[0] + 2 * t[1] + 3 * t[2], reverse=True))
        sums = [t[0] + 2 * t[1] + 3 * t[2] for t in ordered]
        if sums > best_sums:
            best, best_sums = ordered, sums
    return [[3] * threes + [2] * twos + [1] * ones for ones, twos, threes in best]


def _gold_sums(takes: list[list[int]]) -> list[int]:
    return sorted((sum(take) for take in takes), reverse=True)


def _pooled(takes: list[list[int]]) -> Counter[int]:
    """The gold cards of several takes together, to hold against the supply."""
    pooled: Counter[int] = Counter()
    for take in takes:
        pooled.update(take)
    return pooled


def check_saboteur_gold(
    game: GameStarted, roles: dict[str, Role | None], supply: Counter[int], claimed: dict[str, list[int]]
) -> list[Breach]:
    """R-W2: the nuggets the saboteurs of a won base round claim, against the sums the
    cards left give them, where those sums differ (the cards ran short) and so no
    single saboteur's score is the rules' to give (:func:`base_outcome`)."""
    saboteurs = _of_role(game.players, roles, "saboteur")
    if not saboteurs:
        return []
    takes = [claimed.get(s, []) for s in saboteurs]
    if _pooled(takes) - supply:
        return []  # cards that are not left: said already, one departure, one finding
    due = _gold_sums(saboteur_gold(supply, base_saboteur_share(len(saboteurs)), len(saboteurs)))
    got = _gold_sums(takes)
    if len(set(due)) == 1 or got == due:
        return []
    return [
        Breach(
            Code.WRONG_SCORE,
            "R-W2",
            say(
                "the saboteurs took gold worth %(claimed)s nuggets; the gold cards left give them %(due)s",
                claimed=", ".join(map(str, got)),
                due=", ".join(map(str, due)),
            ),
        )
    ]


def base_outcome(
    number: int,
    game: GameStarted,
    roles: dict[str, Role | None],
    connector: str | None,
    supply: Counter[int],
    claimed: dict[str, list[int]],
) -> Outcome:
    """R-W2: the winners of a base round and the nuggets the rules give them.

    Gold cards are drawn blind and the diggers pick, so a digger's score is the sum of
    the cards the log says they took when that claim is possible (right number of
    cards, from the supply left), and ``None`` when the log does not settle it. So is
    a saboteur's where the cards left fall short and the claim is not one the rules
    allow (:func:`saboteur_gold`).
    """
    players = game.players
    scores: dict[str, int | None] = {p: 0 for p in players}
    taken: Counter[int] = Counter()
    for values in claimed.values():
        taken.update(values)
    available = not (taken - supply)
    if connector is not None:
        if game.options is not None and game.options.gold_cards_drawn == "gold_diggers":
            drawn = len(_of_role(players, roles, "gold_digger"))
        else:
            drawn = gold_cards_drawn(len(players))
        counts = gold_passing(players, roles, connector, min(drawn, supply.total()))
        for player, count in counts.items():
            if count:
                mine = claimed.get(player, [])
                scores[player] = sum(mine) if available and len(mine) == count else None
        return Outcome(number, "gold_diggers", connector, scores, (), counts)
    saboteurs = _of_role(players, roles, "saboteur")
    if not saboteurs:
        return Outcome(number, "nobody", None, scores, (), {p: 0 for p in players})
    due = _gold_sums(saboteur_gold(supply, base_saboteur_share(len(saboteurs)), len(saboteurs)))
    takes = [claimed.get(s, []) for s in saboteurs]
    if _gold_sums(takes) == due and not (_pooled(takes) - supply):
        for saboteur, take in zip(saboteurs, takes, strict=True):
            scores[saboteur] = sum(take)
    else:
        # The sums are the rules'; who took which, where they differ, is not.
        for saboteur in saboteurs:
            scores[saboteur] = due[0] if len(set(due)) == 1 else None
    return Outcome(number, "saboteurs", None, scores, ())


def check_claim(outcome: Outcome, claim: RoundEnded, supply: Counter[int] | None) -> list[Breach]:
    """Compare a ``round_ended`` with the outcome the rules give (R-W1, R-W2).

    What the scorekeeper wrote is kept as written; every difference is a
    ``wrong_score``. ``supply`` is the base game's remaining gold cards (``None`` in
    tournament play).
    """
    rule = "R-W1" if supply is None else "R-W2"
    breaches = []
    if claim.winner != outcome.winner:
        if outcome.connector:
            said = say(
                "%(winner)s won (%(connector)s reached the gold), not %(claimed_winner)s",
                winner=outcome.winner,
                connector=outcome.connector,
                claimed_winner=claim.winner,
            )
        else:
            said = say(
                "%(winner)s won (the gold was not reached), not %(claimed_winner)s",
                winner=outcome.winner,
                claimed_winner=claim.winner,
            )
        breaches.append(Breach(Code.WRONG_SCORE, rule, said))
    if claim.connector != outcome.connector:
        said = say(
            "the connector is %(connector)s, not %(claimed_connector)s",
            connector=outcome.connector or "nobody",
            claimed_connector=claim.connector or "nobody",
        )
        # the player the finding names: the one claimed, if one of the table (an id not
        # at the table is malformed at the line already, and names no player here)
        named = claim.connector if claim.connector in outcome.scores else None
        breaches.append(Breach(Code.WRONG_SCORE, rule, said, named))
    gold_breaches = _check_gold_cards(outcome, claim, supply) if supply is not None and claim.gold_cards else []
    settled = {b.player for b in gold_breaches}  # one departure, one finding
    wrong = [
        (player, claim.scores.get(player), expected)
        for player, expected in outcome.scores.items()
        if expected is not None
        and player in claim.scores
        and claim.scores[player] != expected
        and player not in settled
    ]
    if wrong:
        listed = tuple(
            say("%(player)s %(got)s (the rules give %(want)s)", player=p, got=got, want=want) for p, got, want in wrong
        )
        breaches.append(
            Breach(
                Code.WRONG_SCORE,
                rule,
                say("round %(round)s scores: %(scores)s", round=outcome.round, scores=listed),
                wrong[0][0] if len(wrong) == 1 else None,
            )
        )
    breaches.extend(gold_breaches)
    return breaches


def _check_gold_cards(outcome: Outcome, claim: RoundEnded, supply: Counter[int]) -> list[Breach]:
    breaches = []
    gold_cards = claim.gold_cards or {}
    taken: Counter[int] = Counter()
    for values in gold_cards.values():
        taken.update(values)
    beyond = taken - supply
    if beyond:
        listed = tuple(say("%(copies)s× %(nuggets)s", copies=n, nuggets=v) for v, n in sorted(beyond.items()))
        breaches.append(
            Breach(Code.WRONG_SCORE, "R-W2", say("the gold cards left cannot give %(cards)s", cards=listed))
        )
    counts = outcome.gold_card_counts
    for player, values in gold_cards.items():
        if counts is not None and len(values) != counts.get(player, 0):
            breaches.append(
                Breach(
                    Code.WRONG_SCORE,
                    "R-W2",
                    say(
                        "%(player)s took %(taken)s gold cards; passing gives them %(due)s",
                        player=player,
                        taken=len(values),
                        due=counts.get(player, 0),
                    ),
                    player,
                )
            )
        elif counts is None and outcome.scores.get(player) == 0 and values:
            breaches.append(
                Breach(
                    Code.WRONG_SCORE, "R-W2", say("%(player)s took gold cards but did not win", player=player), player
                )
            )
        score = claim.scores.get(player)
        if score is not None and score != sum(values):
            breaches.append(
                Breach(
                    Code.WRONG_SCORE,
                    "R-W2",
                    say(
                        "%(player)s's score %(score)s is not the sum of their gold cards (%(sum)s)",
                        player=player,
                        score=score,
                        sum=sum(values),
                    ),
                    player,
                )
            )
    return breaches


def check_totals(expected: dict[str, int | None], totals: dict[str, int]) -> list[Breach]:
    """R-W3: a game's totals are the sums of its rounds as the rules score them."""
    wrong = [
        (p, totals[p], want) for p, want in expected.items() if want is not None and p in totals and totals[p] != want
    ]
    if not wrong:
        return []
    listed = tuple(
        say("%(player)s %(got)s (the rounds give %(want)s)", player=p, got=got, want=want) for p, got, want in wrong
    )
    return [
        Breach(
            Code.WRONG_SCORE, "R-W3", say("totals: %(scores)s", scores=listed), wrong[0][0] if len(wrong) == 1 else None
        )
    ]
