"""The taps of one entry so far: what the page asks next, and when the entry is whole.

A referee records a turn in a few taps — the kind of card, the card, then where or at
whom it goes — and a round's deal and its end in a few more. Each is a frozen value
the page keeps between its runs and replaces at every tap, so a tap never half-changes
it; :meth:`Pick.need` says which tap comes next.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from events import cards
from events.maze import Cell
from events.schema import SetupCard, Slot, Tool
from events.tables import Role

Kind = Literal["path", "break", "repair", "rockfall", "map", "discard"]
KINDS: Final[tuple[Kind, ...]] = ("path", "break", "repair", "rockfall", "map", "discard")
CARDS_OF: Final[dict[Kind, tuple[str, ...]]] = {
    "path": tuple(cards.TUNNEL_CARDS),
    "break": tuple(cards.BREAK_CARDS),
    "repair": tuple(cards.REPAIR_CARDS),
    "rockfall": (cards.ROCKFALL,),
    "map": (cards.MAP,),
    "discard": (),
}
"""The cards of each kind, in the catalogue's order (a kind of one card needs no pick)."""

SLOTS: Final[tuple[Slot, ...]] = ("top", "middle", "bottom")
"""The goal slots in slot order (:data:`events.cards.SLOTS`), typed for a map's pick."""
assert SLOTS == cards.SLOTS

Need = Literal["kind", "card", "target", "tool", "cell", "slot", "done"]


def repairs_two(card: str | None) -> bool:
    """A double repair (R-A4): the referee says which of its two tools it mends."""
    return card is not None and len(cards.REPAIR_CARDS.get(card, ())) == 2


@dataclass(frozen=True, slots=True)
class Pick:
    """One turn's card as tapped so far: who plays it, its kind, the card, how it is
    turned, and at whom (a tool), where (a path, a rockfall) or which goal (a map)."""

    player: str
    kind: Kind | None = None
    card: str | None = None
    rotated: bool = False
    target: str | None = None
    tool: Tool | None = None
    cell: Cell | None = None
    slot: Slot | None = None

    def need(self) -> Need:
        """The tap still missing; ``done`` when the entry is whole.

        >>> Pick("ann").need(), Pick("ann", "discard").need()
        ('kind', 'done')
        >>> Pick("ann", "repair", "repair_pick_lamp", target="bob").need()
        'tool'
        """
        if self.kind is None:
            return "kind"
        if self.kind == "discard":
            return "done"
        if self.card is None:
            return "card"
        if self.kind in ("path", "rockfall"):
            return "cell" if self.cell is None else "done"
        if self.kind == "map":
            return "slot" if self.slot is None else "done"
        if self.target is None:
            return "target"
        if repairs_two(self.card) and self.tool is None:
            return "tool"
        return "done"

    def of_kind(self, kind: Kind) -> Pick:
        """A new pick of ``kind`` by the same player (its card, if the kind has one)."""
        only = CARDS_OF[kind]
        return Pick(self.player, kind, only[0] if len(only) == 1 else None)

    def with_card(self, card: str) -> Pick:
        """``card`` picked; what was picked after the card is dropped."""
        return Pick(self.player, self.kind, card)

    def turned(self) -> Pick:
        """The card turned 180° (R-P3)."""
        return replace(self, rotated=not self.rotated)


@dataclass(frozen=True, slots=True)
class Deal:
    """A round's deal as tapped: its start player and, in ``tournament``, the action
    cards turned over before the setup card, the setup card and how it lies (R-S7)."""

    start: str | None = None
    turned_over: tuple[str, ...] = ()
    card: str | None = None
    rotated: bool = False

    def ready(self, ruleset: str) -> bool:
        return self.start is not None and (ruleset != "tournament" or self.card is not None)

    def setup_card(self) -> SetupCard | None:
        """The ``setup_card`` of the deal: every card turned over, the path card last."""
        if self.card is None:
            return None
        return SetupCard(card=self.card, rotated=self.rotated, turned_over=[*self.turned_over, self.card])


@dataclass(frozen=True)
class Ending:
    """A round's end as tapped: each player's role turned up and, in ``base``, the gold
    cards each took (their values, in the order taken)."""

    roles: Mapping[str, Role] = field(default_factory=dict)
    gold: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def with_role(self, player: str, role: Role) -> Ending:
        return Ending({**self.roles, player: role}, self.gold)

    def with_gold(self, player: str, value: int | None) -> Ending:
        """One more gold card of ``value`` for ``player``; ``None`` takes theirs back."""
        taken = () if value is None else (*self.gold.get(player, ()), value)
        return Ending(self.roles, {**self.gold, player: taken})

    def ready(self, players: list[str]) -> bool:
        """Every player's role is turned up."""
        return all(player in self.roles for player in players)
