"""Which bot plays each role: ``basic`` or ``strong``, chosen per role.

A lineup is written the way ``--bots`` takes it: one name for every role
(``strong``), or role by role (``gold_digger=strong,saboteur=basic``, the roles left
out playing ``basic``). A balance study changes one role's bot and keeps the others, so
the difference in that role's win rate is the bot's and not the table's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, cast, get_args

BotName = Literal["basic", "strong"]
BOT_NAMES: Final[tuple[str, ...]] = get_args(BotName)
ROLES: Final = ("gold_digger", "saboteur", "selfish_dwarf")


@dataclass(frozen=True, slots=True)
class Lineup:
    """The bot of each role."""

    gold_digger: BotName = "basic"
    saboteur: BotName = "basic"
    selfish_dwarf: BotName = "basic"

    @classmethod
    def every(cls, bot: BotName) -> Lineup:
        return cls(bot, bot, bot)

    @classmethod
    def parse(cls, text: str) -> Lineup:
        """The lineup ``text`` names; a :class:`ValueError` that says which part is wrong."""
        text = text.strip()
        if text in BOT_NAMES:
            return cls.every(cast(BotName, text))
        chosen: dict[str, BotName] = {}
        for part in text.split(","):
            role, equals, bot = (piece.strip() for piece in part.partition("="))
            if not equals:
                raise ValueError(f"{part.strip()!r} is neither a bot ({' or '.join(BOT_NAMES)}) nor role=bot")
            if role not in ROLES:
                raise ValueError(f"{role!r} is not a role: the roles are {', '.join(ROLES)}")
            if bot not in BOT_NAMES:
                raise ValueError(f"{bot!r} is not a bot: the bots are {' and '.join(BOT_NAMES)}")
            if role in chosen:
                raise ValueError(f"{role} is named twice")
            chosen[role] = cast(BotName, bot)
        return cls(**chosen)

    def of(self, role: str) -> BotName:
        """The bot that plays ``role`` (an unknown role plays as a gold digger would)."""
        return cast(BotName, getattr(self, role, self.gold_digger))

    @property
    def tag(self) -> str:
        """A short name for ids: ``basic``, ``strong``, or a letter per role in the
        order of :data:`ROLES` (``sbs``: strong gold diggers, basic saboteurs, strong
        selfish dwarfs)."""
        bots = [self.of(role) for role in ROLES]
        return bots[0] if len(set(bots)) == 1 else "".join(bot[0] for bot in bots)

    def __str__(self) -> str:
        bots = {self.of(role) for role in ROLES}
        if len(bots) == 1:
            return bots.pop()
        return ",".join(f"{role}={self.of(role)}" for role in ROLES)


BASIC: Final = Lineup()
STRONG: Final = Lineup.every("strong")
