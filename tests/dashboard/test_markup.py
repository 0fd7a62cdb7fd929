"""User text in Markdown shows as it is: :func:`dashboard.markup.escape` against
CommonMark (markdown-it) and the rewrites Streamlit's plugins make after parsing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dashboard.markup import JOINER, Bold, escape, html_list, html_table, visible
from tests.dashboard.conftest import TextHtml, shown

HOSTILE = (
    "![px](http://example.invalid/x.png)",
    "[Organiser login](http://example.invalid)",
    "<http://example.invalid> www.example.invalid mail@example.invalid mailto:mail@example.invalid",
    "<b>bold</b> <img src=x onerror=alert(1)> &amp; &lt;b&gt;",
    "**strong** _em_ `code` ~~struck~~ $x^2$ \\* \\",
    ":smile: :+1: :material/home: :red[red] :red-badge[badge] :streamlit:",
    "# heading",
    "> quote",
    "- item",
    "+ item",
    "1. item",
    "12) item",
    "    indented code",
    "```fence",
    "---",
    "a | b\n--|--\nc | d",
    "first line\n\nsecond paragraph\n# heading\r\n- item\u2028* item",
    "[x]: http://example.invalid\n[x]",
    "trailing backslash \\",
)
CONTEXTS = ("{}", "x {} y", "**{}**: why", "### {}", "- line 3 · {}: message", "{} (duplicate)")
"""Where pages put user text: alone, inside prose, bold, a heading, a list item."""


def expected(text: str) -> str:
    """What the reader should see: the text, on one line."""
    return spaced(text).strip()


def spaced(text: str) -> str:
    """The text on one line, its ends as they are (a part of a line of HTML), its
    controls and direction marks written out (:func:`dashboard.markup.visible`)."""
    for brk in "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029":
        text = text.replace(brk, " ")
    return visible(text)


@pytest.mark.parametrize("text", HOSTILE)
@pytest.mark.parametrize("context", CONTEXTS)
def test_hostile_text_shows_as_text_wherever_it_goes(text: str, context: str) -> None:
    page = shown(context.format(escape(text)))
    assert page.plain, (page.tokens, page.text)
    assert expected(text) in page.text.replace(JOINER, "")
    blocks = page.tokens & {"bullet_list_open", "ordered_list_open", "heading_open", "blockquote_open", "hr"}
    own = {"#": {"heading_open"}, "-": {"bullet_list_open"}}.get(context[0], set())
    assert blocks == own  # only the page's own heading or list, none from the text


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_any_text_shows_exactly_as_typed(text: str) -> None:
    contexts = ("{}", "**{}**: why") if expected(text) else ("{}",)  # (no bold of nothing)
    for context in contexts:
        page = shown(context.format(escape(text)))
        assert page.plain, (text, page.tokens, page.text)
        assert page.text.replace(JOINER, "") == context.replace("**", "").format(expected(text))


def test_ordinary_text_is_left_readable() -> None:
    assert escape("Jean-Luc O'Brien (the 2nd), 3 stars; why? 50% / 50%") == (
        "Jean-Luc O'Brien (the 2nd), 3 stars; why? 50% / 50%"
    )
    assert escape("a dismissal needs a --reason") == "a dismissal needs a --reason"
    assert JOINER not in escape("line 3: the pile had 4 cards; ann@ 3")


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_shows_as_text_in_a_table_or_a_list_of_html(text: str) -> None:
    """A table or a list of thousands of rows goes to ``st.markdown`` as one block of
    HTML: the text in it is text, and no line of it ends the block."""
    table = html_table(["player", "notes"], [[text, Bold("cut line")], ["Ann", None]])
    whys = html_list([[Bold(text), ": ", text], [Bold("Ann"), ": top of the table"]])
    for block in (table, whys):
        assert "\n" not in block and "\r" not in block
        page = shown(block)
        assert page.tokens == {"text_html"} and page.plain, (page.tokens, page.text)
    rows = [[cell.replace(JOINER, "") for cell in cells] for cells in TextHtml(table).rows]
    assert rows == [["player", "notes"], [expected(text), "cut line"], ["Ann", ""]]
    items = [item.replace(JOINER, "") for item in TextHtml(whys).items]
    assert items == [f"{expected(text)}: {spaced(text)}".strip(), "Ann: top of the table"]


@pytest.mark.parametrize("text", [":material/warning:", ":smile:", "www.example.invalid", "mail@example.invalid"])
def test_html_parts_what_streamlit_would_make_an_icon_or_a_link(text: str) -> None:
    """Streamlit finds its icons in a block of raw HTML too: a name with
    ``:material/warning:`` in it showed ``:material_warning:`` in the standings and the
    whys. The word joiner parts it there as in Markdown."""
    for block in (html_table(["player"], [[text]]), html_list([[Bold(text), ": ", text]])):
        assert text not in block and text in block.replace(JOINER, "")


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_any_text_shows_exactly_as_typed_in_html(text: str) -> None:
    page = shown(html_list([[Bold(text), ": ", text]]))
    assert page.tokens == {"text_html"}, (text, page.tokens)
    assert page.text.replace(JOINER, "") == f"{expected(text)}: {spaced(text)}".strip()  # (spaces folded)
