"""UI strings live in one place, in both languages."""

import string

import discord

from bot.discord_app.kit.i18n import COMMANDS_EN, STRINGS, language, t


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
    # A Locale as discord.py gives it, and a language already told: the same answer as its name.
    assert language(discord.Locale.american_english) == language(discord.Locale.british_english) == language("en")
    assert language(discord.Locale.spain_spanish) == language(discord.Locale.french) == language("es") == "es"
    assert t("en-US", "term_gone") != t("es-ES", "term_gone")


def test_english_command_names_are_valid_discord_names():
    import re

    for spanish, english in COMMANDS_EN.items():
        if re.fullmatch(r"[a-z0-9-]{1,32}", spanish):  # a slash-command or option name
            assert re.fullmatch(r"[a-z0-9-]{1,32}", english) or " " in english, (spanish, english)


def _literals(pattern: str) -> set[str]:
    import re
    from pathlib import Path

    tables = {"i18n.py", "_words.py"}  # where the strings are defined: not a use
    files = [p for p in (Path(__file__).parents[2] / "bot").rglob("*.py") if p.name not in tables]
    source = "\n".join(p.read_text(encoding="utf-8") for p in files)
    i18n = (Path(__file__).parents[2] / "bot" / "discord_app" / "kit" / "i18n.py").read_text(encoding="utf-8")
    source += i18n[i18n.index("def language(") :]  # its functions use keys too (long_date)
    return set(re.findall(pattern, source))


def test_every_ui_string_is_used_and_every_key_used_exists():
    """Keys are written out in the code (no keys built at run time), so both lists can be read from it."""
    from bot.cli._words import TEXT

    for table, calls in ((STRINGS, r"\bt\([^,()]+,\s*\"(\w+)\""), (TEXT, r"\bsay(?:\.count)?\(\s*\"(\w+)\"")):
        keys = set(table["es"])
        assert set(table["en"]) == keys
        called = _literals(calls)
        assert called <= keys, f"missing: {sorted(called - keys)}"
        mentioned = _literals(r"[\"'](\w+)[\"']")  # in a call, or in a mapping such as STATUS_NAMES
        unused = {k for k in keys if k not in mentioned and not k.endswith("_1")}  # (plural forms: say.count)
        assert not unused, f"unused: {sorted(unused)}"


def test_english_sentences_name_the_english_commands():
    """A command named in an English sentence is named as English members see it (`/glossary-admin term new`)."""
    import re

    spanish = {name for name, english in COMMANDS_EN.items() if re.fullmatch(r"[a-z0-9-]+", name) and name != english}
    for key, text in STRINGS["en"].items():
        for path in re.findall(r"/([a-z-]+(?: [a-z-]+)*)", text):
            said = [word for word in path.split() if word in spanish]
            assert not said, f"{key}: /{path} says {said} (English: {[COMMANDS_EN[w] for w in said]})"
