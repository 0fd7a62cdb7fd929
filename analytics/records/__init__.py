"""Tournament records: commands that append events to a tournament's stream.

Nothing is ever edited (R-TS5): a penalty, a correction, an accepted replay, a dismissed
finding, a seating or a cut draw is a new event with its reason, and the standings are
always computed from the whole record. Each command checks what it refers to (a player
registered, a game of this tournament, a finding that exists) and refuses with a clear
message otherwise; the tournament's read models are re-projected from its stream in
the same transaction as the append.

The referee codes are records too: a code opens the recording of one table of one
round's seating (:func:`issue_referee_codes`, :func:`referee_access`), and the record
keeps only its SHA-256.

Each idea is a module of its own, and this package hands on the names its callers use
(``records.penalty(...)``):

- **The stream** (:mod:`analytics.records.stream`) — :func:`append` and the guards it
  judges new events by in its transaction (one decision per finding, no state recorded
  twice, no decision on a round made meanwhile), the tournament's :func:`history`, and
  the :class:`RecordError` every command refuses with.
- **The tournament** (:mod:`analytics.records.tournaments`) — :func:`create`, what it
  announced (:func:`announced`), and whether a stage's standings can be shown.
- **Players** (:mod:`analytics.records.players`) — registered (one by one, or from a
  CSV list), withdrawn and returned; the names they share.
- **Penalties** (:mod:`analytics.records.penalties`) — given and withdrawn, and the
  findings they settle or that are dismissed.
- **Corrections** (:mod:`analytics.records.corrections`) — a round's score put right, or
  its replay accepted, and what a correction leaves wrong.
- **Seatings** (:mod:`analytics.records.seatings`) — a round's seating published, and
  whom the organiser's ``seat`` seats.
- **Cuts** (:mod:`analytics.records.cuts`) — a stage's top cut begun (or forced), a tie
  at its line drawn, and the cuts the standings no longer give.
- **Referee codes** (:mod:`analytics.records.codes`) — issued, revoked, and the table a
  code opens.
"""

from __future__ import annotations

from analytics.records.codes import (
    CODE_BYTES,
    CODE_LENGTH,
    CODE_PARAMETER,
    RECORD_PAGE,
    RefereeAccess,
    RefereeCode,
    SeatedPlayer,
    code_digest,
    code_sha256,
    issue_referee_codes,
    live_code_digests,
    record_url,
    referee_access,
    referee_codes,
    revoke_referee_code,
)
from analytics.records.corrections import accept_replay, correct, corrected_off_the_rules, still_wrong_in
from analytics.records.cuts import CutMoved, begin_cut, cut_draw, cuts_moved
from analytics.records.penalties import dismiss, named_by, penalty, penalty_for, withdraw_penalty
from analytics.records.players import (
    namesakes,
    read_player_list,
    register,
    registered_before,
    return_player,
    withdraw_player,
    withdrawn,
)
from analytics.records.seatings import publish_seating, seating_players
from analytics.records.stream import (
    REASON_MOST,
    Recorded,
    RecordError,
    TournamentExists,
    append,
    decisions,
    history,
    stream_of,
)
from analytics.records.tournaments import RULESETS, STAGES, Announced, announced, create, stage_refusal

__all__ = [
    "CODE_BYTES",
    "CODE_LENGTH",
    "CODE_PARAMETER",
    "REASON_MOST",
    "RECORD_PAGE",
    "RULESETS",
    "STAGES",
    "Announced",
    "CutMoved",
    "RecordError",
    "Recorded",
    "RefereeAccess",
    "RefereeCode",
    "SeatedPlayer",
    "TournamentExists",
    "accept_replay",
    "announced",
    "append",
    "begin_cut",
    "code_digest",
    "code_sha256",
    "correct",
    "corrected_off_the_rules",
    "create",
    "cut_draw",
    "cuts_moved",
    "decisions",
    "dismiss",
    "history",
    "issue_referee_codes",
    "live_code_digests",
    "named_by",
    "namesakes",
    "penalty",
    "penalty_for",
    "publish_seating",
    "read_player_list",
    "record_url",
    "referee_access",
    "referee_codes",
    "register",
    "registered_before",
    "return_player",
    "revoke_referee_code",
    "seating_players",
    "stage_refusal",
    "still_wrong_in",
    "stream_of",
    "withdraw_penalty",
    "withdraw_player",
    "withdrawn",
]
