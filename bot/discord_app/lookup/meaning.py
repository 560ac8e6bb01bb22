"""Questions in a member's own words, in Discord: `/glosario pregunta`, and `/termino` when no name matches with
confidence. Three answers (bot/app/questions/service.py decides which): the closest term said as what it is, with its
card and a *No era esto* button; "¿Buscabas…?" with up to three terms; or today's "no está" (a gap marked as a
question). The question path runs only once its model is loaded (by the application, in the background after
start); until then, and whenever it takes too long, members get exactly what the name matcher says."""

from __future__ import annotations

import asyncio
import hmac
import logging
from typing import TYPE_CHECKING

import discord

from bot.app.lookup.lookups import Answer as NameAnswer
from bot.core.search import LookupResult
from bot.discord_app.cards import OpenButton
from bot.discord_app.kit.buttons import ButtonsView, asker, button_payload
from bot.discord_app.kit.embeds import echo
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.services import Services, services
from bot.discord_app.lookup.suggestions import SignedButton

if TYPE_CHECKING:
    from bot.app.questions.service import Answer

log = logging.getLogger(__name__)
WAIT_SECONDS = 1.5  # the most a reply waits for the question path (Discord gives an interaction 3 s)


async def ask(bot: Services, text: str, overlay, result: LookupResult | None = None) -> Answer | None:
    """The question path's answer to `text` (weighed with the name matcher's `result` for /termino); None when
    it is not ready, does not apply (a name, a close misspelling, too few words) or takes too long."""
    if not bot.app.questions_ready:
        return None
    questions = bot.app.questions
    if result is not None and questions.stands_alone(result, text):
        return None  # (a close misspelling, most typos and misses: no timer set, no question path entered)
    try:
        async with asyncio.timeout(WAIT_SECONDS):  # (not wait_for: no task of its own for a text the gate refuses)
            if result is None:
                return await questions.ask(text, overlay)
            return await questions.ask_after_lookup(result, text, overlay)
    except TimeoutError:
        log.warning("the question path took over %.1f s: answered by name only", WAIT_SECONDS)
        return None
    except Exception:  # (the encoder, an index, a batch: whatever failed, the member gets the name matcher's answer)
        log.exception("the question path failed: answered by name only")
        return None


async def answer(
    interaction: discord.Interaction, text: str, meaning: Answer, names: NameAnswer, private: bool
) -> None:
    """Reply with the question path's verdict, and record it first: counted when answered, a gap otherwise."""
    from bot.app.questions.service import Verdict

    bot, who, loc = services(interaction), asker(interaction), interaction.locale
    send = interaction.response.send_message
    if meaning.verdict is Verdict.CONFIDENT and meaning.term is not None:
        term = meaning.term
        qhash = bot.app.lookups.by_meaning(who, text, term)
        embed, view = bot.cards.card_for(term, names.overlay, loc)
        sig = bot.app.lookups.sign(private, qhash, term.id)
        not_it = NotItButton.rendered(t(loc, "not_it"), term.id, qhash, sig, private)
        view = view.with_row([not_it]) if isinstance(view, ButtonsView) else ButtonsView([not_it])
        content = t(loc, "best_match", term=echo(term.term))  # (a server term is a member's text: no mention)
        await send(content, embed=embed, view=view, ephemeral=private)
        return
    bot.app.lookups.unanswered(who, text, names, question=True)
    if meaning.verdict is Verdict.UNSURE and meaning.candidates:
        buttons = ButtonsView([OpenButton.rendered(c.term) for c in meaning.candidates])
        await send(t(loc, "maybe", query=echo(text)), view=buttons, ephemeral=True)
        return
    await send(t(loc, "not_found", query=echo(text)), ephemeral=True)


class NotItButton(
    SignedButton,
    # (the longer "glosario:notit:0:qhash:sig:id" of earlier replies is still read; it could pass Discord's 100)
    template=r"glosario:n(?:i:|otit:)(?P<private>[01]):?(?P<qhash>[0-9a-f]{8}):?(?P<sig>[0-9a-f]{6}):(?P<id>[^:]{1,72})",
):
    """*No era esto* under a question answered by meaning: the question becomes a gap, once per person. Signed
    like a suggestion, so a forged one counts nothing. Its id is at most 100 characters with a term id of 72."""

    @staticmethod
    def custom_id_for(term_id: str, qhash: str, private: bool, sig: str) -> str:
        return f"glosario:ni:{int(private)}{qhash}{sig}:{term_id}"

    @classmethod
    def rendered(cls, label: str, term_id: str, qhash: str, sig: str, private: bool) -> dict:
        return button_payload(label, cls.custom_id_for(term_id, qhash, private, sig), cls.STYLE)

    async def callback(self, interaction: discord.Interaction) -> None:
        lookups, who = services(interaction).app.lookups, asker(interaction)
        signed = hmac.compare_digest(lookups.sign(self.private, self.qhash, self.term_id), self.sig)
        taken = signed and lookups.not_it(who, self.qhash, self.term_id)
        if not signed:
            log.info("not-it for %s by user %s was not offered: not counted", self.term_id, who.user_id)
        key = "not_it_thanks" if taken else "not_it_gone"
        await interaction.response.send_message(t(interaction.locale, key), ephemeral=True)
