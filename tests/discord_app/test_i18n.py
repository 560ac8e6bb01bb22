"""UI strings live in one place, in both languages."""

import string

from bot.discord_app.i18n import COMMANDS_EN, STRINGS, language, t


def test_every_key_exists_in_both_languages_with_the_same_placeholders():
    assert set(STRINGS["es"]) == set(STRINGS["en"])
    fields = string.Formatter()
    for key in STRINGS["es"]:
        es = {f for _, f, _, _ in fields.parse(STRINGS["es"][key]) if f}
        en = {f for _, f, _, _ in fields.parse(STRINGS["en"][key]) if f}
        assert es == en, key


def test_language_follows_the_discord_locale():
    assert language("en-US") == language("en-GB") == "en"
    assert language("es-ES") == language("es-419") == language("fr") == language(None) == "es"
    assert t("en-US", "term_gone") != t("es-ES", "term_gone")


def test_english_command_names_are_valid_discord_names():
    import re

    for spanish, english in COMMANDS_EN.items():
        if re.fullmatch(r"[a-z0-9-]{1,32}", spanish):  # a slash-command or option name
            assert re.fullmatch(r"[a-z0-9-]{1,32}", english) or " " in english, (spanish, english)
