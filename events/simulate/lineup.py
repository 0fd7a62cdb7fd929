"""Which bot plays each role: ``basic`` or ``strong``, chosen per role.

A lineup is written the way ``--bots`` takes it: one name for every role
(``strong``), or role by role (``gold_digger=strong,saboteur=basic``, the roles left
out playing ``basic``). A balance study changes one role's bot and keeps the others, so
the difference in that role's win rate is the bot's and not the table's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, cast, get_args

from events.said import Refusal, say

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
        """The lineup ``text`` names; a :class:`~events.said.Refusal` (a ``ValueError``)
        that says which part is wrong."""
        text = text.strip()
        if text in BOT_NAMES:
            return cls.every(cast(BotName, text))
        chosen: dict[str, BotName] = {}
        for part in text.split(","):
            role, equals, bot = (piece.strip() for piece in part.partition("="))
            if not equals:
                raise Refusal(
                    say(
                        "%(written)s is neither a bot (%(bots)s) nor role=bot",
                        written=repr(part.strip()),
                        bots=" | ".join(BOT_NAMES),
                    )
                )
            if role not in ROLES:
                raise Refusal(
                    say(
                        "%(written)s is not a role: the roles are %(roles)s", written=repr(role), roles=", ".join(ROLES)
                    )
                )
            if bot not in BOT_NAMES:
                raise Refusal(
                    say(
                        "%(written)s is not a bot: the bots are %(bots)s", written=repr(bot), bots=" | ".join(BOT_NAMES)
                    )
                )
            if role in chosen:
                raise Refusal(say("%(written)s is named twice", written=role))
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
