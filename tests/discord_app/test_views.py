"""ButtonsView renders exactly what discord.py renders from the DynamicItems that answer the clicks."""

import dataclasses
import re

import pytest

from bot.discord_app.cards import OpenButton, TermButton
from bot.discord_app.kit.buttons import ButtonsView, render_only
from bot.discord_app.lookup import SuggestionButton


def sign(private: bool, qhash: str, term_id: str) -> str:
    return f"{len(term_id) % 16:x}{int(private)}abcd"


@pytest.fixture
def terms(shipped_glossary):
    return list(shipped_glossary.terms)[:7]


def test_term_and_open_buttons_render_like_their_items(terms):
    for cls in (TermButton, OpenButton):
        ours = ButtonsView([cls.rendered(term) for term in terms]).to_components()
        theirs = render_only([cls(term.id, term.term) for term in terms]).to_components()
        assert ours == theirs
        assert [len(row["components"]) for row in ours] == [5, 2]  # Discord's five buttons a row


def test_a_long_name_and_a_long_row_below_are_cut_as_the_items_are(terms):
    long = dataclasses.replace(terms[0], term="x" * 100)
    ours = ButtonsView([TermButton.rendered(long)], below=[TermButton.rendered(term) for term in terms]).to_components()
    assert ours[0] == render_only([TermButton(long.id, long.term)]).to_components()[0]
    assert ours[0]["components"][0]["label"] == "x" * 79 + "…"  # Discord's 80 characters a label
    assert [len(row["components"]) for row in ours] == [1, 5]  # the row below within five buttons


def test_pick_buttons_render_like_their_items(terms):
    ours = ButtonsView([SuggestionButton.rendered(term, "0a1b2c3d", True, sign) for term in terms[:5]]).to_components()
    sigs = [sign(True, "0a1b2c3d", term.id) for term in terms[:5]]
    theirs = render_only(
        [SuggestionButton(term.id, "0a1b2c3d", True, sig, term.term) for term, sig in zip(terms, sigs, strict=False)]
    ).to_components()
    assert ours == theirs


def test_rendered_ids_are_claimed_by_their_items(terms):
    term = terms[0]
    for payload, cls in (
        (TermButton.rendered(term), TermButton),
        (OpenButton.rendered(term), OpenButton),
        (SuggestionButton.rendered(term, "0a1b2c3d", False, sign), SuggestionButton),
    ):
        match = re.fullmatch(cls.__discord_ui_compiled_template__, payload["custom_id"])
        assert match is not None and match["id"] == term.id


async def test_cards_sent_with_buttons_leave_no_view_behind_in_discord_py(fake, bot):
    # discord.py keeps the view of every message it sends unless the view is finished: thousands of cards a day
    # would pile up in memory. The buttons still answer, through the DynamicItems registered on the bot.
    store = bot._connection._view_store
    before = len(store._views)
    for n in range(5):
        iid = await fake.command("termino", {"termino": "horovod"}, user_id=900 + n)
        reply = await fake.response(iid)
        assert reply["data"]["components"]  # a card with "see also" buttons
    assert len(store._views) == before


def test_gap_list_ids_are_read_back_as_written():
    from bot.core.status import GapStatus
    from bot.discord_app.gaps import ActSelect, ListState, PageButton

    for state in (ListState(0, "count", GapStatus.OPEN), ListState(12345, "recent", GapStatus.IGNORED)):
        for item in (PageButton(state), ActSelect("reopen", state)):
            custom_id = item.item.custom_id
            match = re.fullmatch(type(item).__discord_ui_compiled_template__, custom_id)
            assert match is not None and ListState.from_match(match) == state, custom_id
    assert PageButton(ListState(0, "count", GapStatus.OPEN).turned(-1)).item.custom_id == "glosario:gaps:0:count:open"


def test_what_a_member_typed_comes_back_whole_in_a_file_named_in_their_language():
    from bot.discord_app.kit.replies import typed_back

    long = "palabra " * 600  # longer than a field: the file carries all of it
    for locale, name in (("es-ES", "formulario.txt"), ("en-GB", "form.txt")):
        embed, files = typed_back(locale, [("Definición", long)])
        assert embed.fields[0].name == "Definición"
        assert [f.filename for f in files] == [name]
        assert files[0].fp.read().decode() == f"Definición:\n{long}\n"
