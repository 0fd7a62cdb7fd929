"""Checks of a round's deal (R-S): roles, goals, deck, hands, setup card, start player."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from events import cards
from events.findings import Breach, Code
from events.said import Said, say
from events.schema import GameStarted, RoundStarted
from events.tables import BASE_ROLE_DECK, TOURNAMENT_ROLES, hand_size


def role_phrase(saboteurs: int, diggers: int, dwarfs: int | None = None) -> tuple[Said, ...]:
    """How many of each role: a sentence each, as each count takes its own plural."""
    parts = [
        say("%(count)s saboteur", "%(count)s saboteurs", "count", count=saboteurs),
        say("%(count)s gold digger", "%(count)s gold diggers", "count", count=diggers),
    ]
    if dwarfs is not None:
        parts.append(say("%(count)s selfish dwarf", "%(count)s selfish dwarfs", "count", count=dwarfs))
    return tuple(parts)


def check_roles(game: GameStarted, roles: Mapping[str, str], set_aside_role: str | None) -> list[Breach]:
    """R-S1: the roles dealt (and, in base, the one set aside) fit the table size. One
    deal is one finding: its first cause (a selfish dwarf in base, a card set aside or
    not), the counts only when nothing else is wrong — they follow from the cause, and
    said beside it they were counted without the card it named."""
    return _role_breaches(game, roles, set_aside_role)[:1]


def _role_breaches(game: GameStarted, roles: Mapping[str, str], set_aside_role: str | None) -> list[Breach]:
    n = len(game.players)
    dealt = Counter(roles.values())
    found = (dealt["saboteur"], dealt["gold_digger"], dealt["selfish_dwarf"])
    breaches = []
    if game.ruleset == "tournament":
        if set_aside_role is not None:
            breaches.append(Breach(Code.BAD_ROLES, "R-S1", say("a tournament deal sets no role card aside")))
        rows = game.options.roles if game.options and game.options.roles else None
        expected = (rows.saboteur, rows.gold_digger, rows.selfish_dwarf) if rows else TOURNAMENT_ROLES.get(n)
        if expected is not None and found != expected:
            breaches.append(
                Breach(
                    Code.BAD_ROLES,
                    "R-S1",
                    say(
                        "%(players)s players are dealt %(expected)s; this deal has %(found)s",
                        players=n,
                        expected=role_phrase(*expected),
                        found=role_phrase(*found),
                    ),
                )
            )
        return breaches
    if dealt["selfish_dwarf"] or set_aside_role == "selfish_dwarf":
        breaches.append(Breach(Code.BAD_ROLES, "R-S1", say("the base game has no selfish dwarf")))
    if set_aside_role is None:
        breaches.append(
            Breach(Code.BAD_ROLES, "R-S1", say("a base deal sets one role card aside; set_aside_role is null"))
        )
    saboteurs, diggers = BASE_ROLE_DECK[n]
    deck = dealt + Counter([set_aside_role] if set_aside_role else [])
    if (deck["saboteur"], deck["gold_digger"]) != (saboteurs, diggers):
        breaches.append(
            Breach(
                Code.BAD_ROLES,
                "R-S1",
                say(
                    "the role deck for %(players)s players is %(expected)s; dealt and set aside here: %(found)s",
                    players=n,
                    expected=role_phrase(saboteurs, diggers),
                    found=role_phrase(deck["saboteur"], deck["gold_digger"]),
                ),
            )
        )
    return breaches


def check_roles_turned_up(game: GameStarted, roles: Mapping[str, str]) -> list[Breach]:
    """R-S1 in an observed log, on the roles turned up at the round's end: a tournament
    table's row exactly; in base no more of a role than the role deck holds (the card
    set aside stays hidden, so the deck less any one card is the most that fits)."""
    if game.ruleset == "tournament":
        return check_roles(game, roles, None)
    n = len(game.players)
    shown = Counter(roles.values())
    if shown["selfish_dwarf"]:
        return [Breach(Code.BAD_ROLES, "R-S1", say("the base game has no selfish dwarf"))]
    saboteurs, diggers = BASE_ROLE_DECK[n]
    if shown["saboteur"] > saboteurs or shown["gold_digger"] > diggers:
        return [
            Breach(
                Code.BAD_ROLES,
                "R-S1",
                say(
                    "the role deck for %(players)s players is %(expected)s; turned up here: %(found)s",
                    players=n,
                    expected=role_phrase(saboteurs, diggers),
                    found=role_phrase(shown["saboteur"], shown["gold_digger"]),
                ),
            )
        ]
    return []


def check_goals(deal: RoundStarted) -> list[Breach]:
    """R-S2: the three goal cards are one gold and two stones, one of each stone."""
    if deal.goals is None:
        return []  # an observed deal: the goals are judged as they are turned up
    dealt: Counter[str] = Counter((deal.goals.top, deal.goals.middle, deal.goals.bottom))
    if dealt != Counter(cards.GOAL_SIDES.keys()):
        return [
            Breach(
                Code.BAD_DECK,
                "R-S2",
                say(
                    "the goals must be goal_gold, goal_stone_ne and goal_stone_nw; dealt: %(cards)s",
                    cards=_copies(dealt),
                ),
            )
        ]
    return []


def _copies(counted: Mapping[str, int]) -> tuple[Said, ...]:
    """``NESW ×2, map ×1``: each card with how many times it is there."""
    return tuple(say("%(card)s ×%(copies)s", card=code, copies=n) for code, n in sorted(counted.items()))


def _describe_difference(extra: Counter[str], lacking: Counter[str]) -> Said:
    if extra and lacking:
        return say("extra %(extra)s; missing %(missing)s", extra=_copies(extra), missing=_copies(lacking))
    if extra:
        return say("extra %(extra)s", extra=_copies(extra))
    return say("missing %(missing)s", missing=_copies(lacking))


def check_deck(deal: RoundStarted) -> list[Breach]:
    """R-S3: hands, draw pile and setup card are exactly the 67 cards of the deck.
    An observed deal shows neither: its cards are counted as they are laid."""
    if deal.hands is None or deal.draw_pile is None:
        return []
    dealt: Counter[str] = Counter(deal.draw_pile)
    for hand in deal.hands.values():
        dealt.update(hand)
    if deal.setup_card is not None:
        dealt[deal.setup_card.card] += 1
    if dealt == cards.DECK:
        return []
    difference = _describe_difference(dealt - cards.DECK, cards.DECK - dealt)
    return [
        Breach(
            Code.BAD_DECK,
            "R-S3",
            say("hands, pile and setup card are not the game's deck: %(difference)s", difference=(difference,)),
        )
    ]


def check_hand_sizes(game: GameStarted, deal: RoundStarted) -> list[Breach]:
    """R-S4: 6 cards each with 3–5 players, 5 with 6–7, 4 with 8–10."""
    if deal.hands is None:
        return []  # an observed deal: nobody sees a hand, only its count
    size = hand_size(len(game.players))
    return [
        Breach(
            Code.BAD_HAND_SIZE,
            "R-S4",
            say(
                "%(player)s was dealt %(dealt)s cards; with %(players)s players each hand has %(size)s",
                player=player,
                dealt=len(hand),
                players=len(game.players),
                size=size,
            ),
            player=player,
        )
        for player, hand in deal.hands.items()
        if len(hand) != size
    ]


def check_setup_card(game: GameStarted, deal: RoundStarted) -> list[Breach]:
    """R-S7: in tournament play the first tunnel card turned over lies at (4,0)."""
    setup = deal.setup_card
    if game.ruleset == "base":
        if setup is not None:
            return [Breach(Code.BAD_SETUP_CARD, "R-S7", say("the base game has no setup card"))]
        return []
    if setup is None:
        return [
            Breach(
                Code.BAD_SETUP_CARD, "R-S7", say("a tournament round lays a setup card at (4,0); setup_card is null")
            )
        ]
    if not cards.is_tunnel(setup.card):
        return [
            Breach(
                Code.BAD_SETUP_CARD, "R-S7", say("the setup card must be a tunnel card, not %(card)s", card=setup.card)
            )
        ]
    turned = setup.turned_over
    if not turned or turned[-1] != setup.card:
        return [
            Breach(
                Code.BAD_SETUP_CARD, "R-S7", say("turned_over must end with the setup card %(card)s", card=setup.card)
            )
        ]
    earlier = [code for code in turned[:-1] if cards.is_tunnel(code)]
    if earlier:
        return [
            Breach(
                Code.BAD_SETUP_CARD,
                "R-S7",
                say(
                    "%(card)s was turned over first: the first tunnel card turned over is the setup card",
                    card=earlier[0],
                ),
            )
        ]
    over = [code for code, count in sorted(Counter(turned).items()) if count > cards.DECK[code]]
    if over:
        return [
            Breach(
                Code.BAD_SETUP_CARD,
                "R-S7",
                say(
                    "turned_over lists %(card)s %(count)s times; the deck holds %(copies)s",
                    card=over[0],
                    count=turned.count(over[0]),
                    copies=cards.DECK[over[0]],
                ),
            )
        ]
    return []


def next_clockwise(players: list[str], player: str) -> str:
    """The player to the left of ``player``: next in seating order (R-T1)."""
    return players[(players.index(player) + 1) % len(players)]


def check_start_player(
    game: GameStarted, deal: RoundStarted, last_card_player: str | None, number: int
) -> list[Breach]:
    """R-S6: a later base round is started by the player left of whoever played the
    previous round's last card (laid or discarded). ``number`` is the round as the game
    counts it (its place among the rounds), whatever number its line wrote."""
    if game.ruleset != "base" or number == 1 or last_card_player is None:
        return []
    if game.options is not None and game.options.next_round_starter == "any":
        return []
    expected = next_clockwise(game.players, last_card_player)
    if deal.start_player != expected:
        return [
            Breach(
                Code.WRONG_START_PLAYER,
                "R-S6",
                say(
                    "%(last)s played the last card of round %(previous)s, so %(expected)s starts round %(round)s, "
                    "not %(player)s",
                    last=last_card_player,
                    previous=number - 1,
                    expected=expected,
                    round=number,
                    player=deal.start_player,
                ),
                player=deal.start_player,
            )
        ]
    return []


def check_laid_copies(laid: Counter[str], card: str) -> Breach | None:
    """R-S3 in an observed log: no more copies of a card are laid face up in one round
    (the setup card included) than the deck holds."""
    if laid[card] > cards.DECK[card]:
        return Breach(
            Code.BAD_DECK,
            "R-S3",
            say(
                "%(card)s is laid face up %(times)s times this round; the deck has %(copies)s",
                card=card,
                times=laid[card],
                copies=cards.DECK[card],
            ),
        )
    return None


def check_deal(game: GameStarted, deal: RoundStarted, last_card_player: str | None, number: int) -> list[Breach]:
    """Every R-S check of one ``round_started``, in rule order: the game's ``number``-th
    round."""
    return [
        *(check_roles(game, deal.roles, deal.set_aside_role) if deal.roles is not None else ()),
        *check_goals(deal),
        *check_deck(deal),
        *check_hand_sizes(game, deal),
        *check_start_player(game, deal, last_card_player, number),
        *check_setup_card(game, deal),
    ]
