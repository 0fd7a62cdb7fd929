"""Tables in the order people number them, in SQL and in Python alike."""

from __future__ import annotations

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics.table_order import by_table, table_key

LABELS = ["A10", "Final", "10", "A2", "2", "a1", "T 12", "T 3", "007", "7", "B", "9"]


def sql_order(labels: list[str]) -> list[str]:
    with duckdb.connect() as con:
        rows = con.execute(f"SELECT label FROM unnest(?) AS t(label) ORDER BY {by_table('label')}", [labels])
        return [str(label) for (label,) in rows.fetchall()]


def test_numbers_by_value_then_labels_by_their_runs() -> None:
    """ "A10" came before "A2" (text order), and every label with a letter after the
    numbers in text order: a Round page's tables A1, A10, A2."""
    expected = ["2", "007", "7", "9", "10", "a1", "A2", "A10", "B", "Final", "T 3", "T 12"]
    assert sorted(LABELS, key=table_key) == expected
    assert sql_order(LABELS) == expected


@settings(max_examples=50, deadline=None)
@given(st.lists(st.text(alphabet="0129AbZ -", max_size=6), max_size=8))
def test_the_sql_order_is_the_python_order(labels: list[str]) -> None:
    assert sql_order(labels) == sorted(labels, key=table_key)
