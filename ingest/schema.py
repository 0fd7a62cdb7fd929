"""The store's tables: the event log, the uploads, and the read models derived from them.

``events`` and ``uploads`` are append-only: no code path updates or deletes a row of
either. The read models (``games``, ``rounds``, ``round_players``, ``findings``,
``cards_played``, ``tournaments``…) are derived from the events and can be dropped and
rebuilt at any time (``saboteur rebuild``); ``projection`` records the last event
position they reflect, written in the same transaction as their rows.
"""

from __future__ import annotations

from typing import Final

SCHEMA_VERSION: Final = 1

LOG_TABLES: Final = """
CREATE TABLE IF NOT EXISTS meta (
    key VARCHAR PRIMARY KEY,
    value VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS uploads (
    upload_id BIGINT PRIMARY KEY,
    sha256 VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    size BIGINT NOT NULL,
    received_at TIMESTAMPTZ NOT NULL,
    kind VARCHAR NOT NULL,          -- log | score_sheet | tournament | unknown
    outcome VARCHAR NOT NULL,       -- accepted | accepted_with_findings | rejected | duplicate
    status VARCHAR NOT NULL,        -- the audit's: clean | violations | unreadable
    game_ids VARCHAR[] NOT NULL,
    duplicate_of BIGINT,
    supersedes BIGINT,
    reason VARCHAR,
    report VARCHAR NOT NULL,        -- the audit report(s), JSON
    raw BLOB                        -- every byte received (null only for a duplicate: see duplicate_of)
);
CREATE TABLE IF NOT EXISTS events (
    position BIGINT PRIMARY KEY,
    stream VARCHAR NOT NULL,
    version INTEGER NOT NULL,
    type VARCHAR NOT NULL,
    payload VARCHAR NOT NULL,       -- the line as uploaded, or the store's own JSON
    recorded_at TIMESTAMPTZ NOT NULL,
    upload_id BIGINT,
    line INTEGER,
    prev_hash VARCHAR NOT NULL,
    hash VARCHAR NOT NULL,
    UNIQUE (stream, version)
);
"""

READ_MODELS: Final[dict[str, str]] = {
    "projection": """
        CREATE TABLE projection (
            name VARCHAR PRIMARY KEY,
            position BIGINT NOT NULL
        )""",
    "games": """
        CREATE TABLE games (
            game_id VARCHAR PRIMARY KEY,
            upload_id BIGINT NOT NULL,
            source VARCHAR NOT NULL,          -- log | score_sheet
            ruleset VARCHAR NOT NULL,
            tournament VARCHAR,
            tournament_round INTEGER,
            stage VARCHAR,
            table_label VARCHAR,
            players INTEGER NOT NULL,
            player_ids VARCHAR[] NOT NULL,
            rounds_planned INTEGER,
            rounds_played INTEGER NOT NULL,
            status VARCHAR NOT NULL,          -- clean | violations
            errors INTEGER NOT NULL,
            warnings INTEGER NOT NULL,
            started_at TIMESTAMPTZ,
            ended_at TIMESTAMPTZ,
            revision INTEGER NOT NULL
        )""",
    "rounds": """
        CREATE TABLE rounds (
            game_id VARCHAR NOT NULL,
            round INTEGER NOT NULL,
            ruleset VARCHAR NOT NULL,
            players INTEGER NOT NULL,
            saboteurs INTEGER NOT NULL,
            selfish_dwarfs INTEGER NOT NULL,
            winner VARCHAR,                   -- as the rules give it (null: not determinable)
            claimed_winner VARCHAR,
            connector VARCHAR,
            connector_role VARCHAR,
            gold_slot VARCHAR,
            ended_by VARCHAR,                 -- gold | hands_empty | early | score_sheet
            turns INTEGER,
            start_player VARCHAR,
            start_seat INTEGER,
            rockfalls INTEGER,
            maps INTEGER,
            errors INTEGER NOT NULL,
            started_at TIMESTAMPTZ,
            ended_at TIMESTAMPTZ,
            PRIMARY KEY (game_id, round)
        )""",
    "round_players": """
        CREATE TABLE round_players (
            game_id VARCHAR NOT NULL,
            round INTEGER NOT NULL,
            player VARCHAR NOT NULL,
            seat INTEGER NOT NULL,
            role VARCHAR,
            recorded_points INTEGER,
            replay_points INTEGER,
            star BOOLEAN NOT NULL,
            won BOOLEAN NOT NULL,
            connector BOOLEAN NOT NULL,
            PRIMARY KEY (game_id, round, player)
        )""",
    "findings": """
        CREATE TABLE findings (
            finding_id VARCHAR NOT NULL,      -- stable: a hash of where and what
            game_id VARCHAR,
            upload_id BIGINT NOT NULL,
            code VARCHAR NOT NULL,
            line INTEGER,
            round INTEGER,
            player VARCHAR,
            rule VARCHAR NOT NULL,
            severity VARCHAR NOT NULL,
            message VARCHAR NOT NULL
        )""",
    "cards_played": """
        CREATE TABLE cards_played (
            game_id VARCHAR NOT NULL,
            round INTEGER NOT NULL,
            line INTEGER NOT NULL,
            turn INTEGER NOT NULL,
            player VARCHAR NOT NULL,
            role VARCHAR,
            type VARCHAR NOT NULL,
            card VARCHAR NOT NULL,
            target VARCHAR,
            target_role VARCHAR,
            tool VARCHAR,
            x INTEGER,
            y INTEGER,
            goal VARCHAR
        )""",
    "tournaments": """
        CREATE TABLE tournaments (
            tournament VARCHAR PRIMARY KEY,
            name VARCHAR NOT NULL,
            ruleset VARCHAR NOT NULL,
            preliminary_rounds INTEGER,
            cut INTEGER,
            final_rounds INTEGER,
            semifinal BOOLEAN NOT NULL,
            upload_id BIGINT
        )""",
    "tournament_players": """
        CREATE TABLE tournament_players (
            tournament VARCHAR NOT NULL,
            player VARCHAR NOT NULL,
            name VARCHAR NOT NULL,
            PRIMARY KEY (tournament, player)
        )""",
    "seatings": """
        CREATE TABLE seatings (
            tournament VARCHAR NOT NULL,
            tournament_round INTEGER NOT NULL,
            stage VARCHAR NOT NULL,
            table_label VARCHAR NOT NULL,
            seat INTEGER NOT NULL,
            player VARCHAR NOT NULL,
            seq INTEGER NOT NULL              -- the seating's place in the tournament's stream
        )""",
    "penalties": """
        CREATE TABLE penalties (
            tournament VARCHAR NOT NULL,
            seq INTEGER NOT NULL,
            player VARCHAR NOT NULL,
            stage VARCHAR NOT NULL,
            points INTEGER NOT NULL,
            reason VARCHAR NOT NULL
        )""",
    "corrections": """
        CREATE TABLE corrections (
            tournament VARCHAR NOT NULL,
            seq INTEGER NOT NULL,
            game_id VARCHAR NOT NULL,
            round INTEGER NOT NULL,
            player VARCHAR NOT NULL,
            points INTEGER NOT NULL,
            reason VARCHAR NOT NULL
        )""",
    "accepted_replays": """
        CREATE TABLE accepted_replays (
            tournament VARCHAR NOT NULL,
            seq INTEGER NOT NULL,
            game_id VARCHAR NOT NULL,
            round INTEGER NOT NULL,
            reason VARCHAR
        )""",
    "dismissals": """
        CREATE TABLE dismissals (
            tournament VARCHAR NOT NULL,
            seq INTEGER NOT NULL,
            finding_id VARCHAR NOT NULL,
            reason VARCHAR NOT NULL
        )""",
    "cut_draws": """
        CREATE TABLE cut_draws (
            tournament VARCHAR NOT NULL,
            seq INTEGER NOT NULL,
            stage VARCHAR NOT NULL,
            tied VARCHAR[] NOT NULL,
            places INTEGER NOT NULL,
            drawn VARCHAR[] NOT NULL,
            points INTEGER,
            stars INTEGER,
            seed BIGINT
        )""",
}
"""Read models, in the order they are built; each is dropped and made anew by a rebuild."""

GAME_TABLES: Final = ("games", "rounds", "round_players", "findings", "cards_played")
"""Read models keyed by ``game_id``: a game's rows are replaced together."""
TOURNAMENT_TABLES: Final = (
    "tournaments",
    "tournament_players",
    "seatings",
    "penalties",
    "corrections",
    "accepted_replays",
    "dismissals",
    "cut_draws",
)
"""Read models keyed by ``tournament``: a tournament's rows are replaced together."""
