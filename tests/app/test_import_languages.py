"""Which language a text of another format is in: a language asked as `en` finds its regional variants however a
tool writes them (en-US, en_GB, EN-gb, on the langSet, on the tig, or inherited from the entry or the file)."""

from __future__ import annotations

import pytest

from bot.app.interchange.entries import language_matches
from bot.app.interchange.formats import read
from bot.app.interchange.imports import report


@pytest.mark.parametrize(
    ("tag", "lang", "matches"),
    [
        ("en-US", "en", True),
        ("en_GB", "en", True),
        ("EN-gb", "en", True),
        ("en", "EN", True),
        ("en-Latn-US", "en", True),
        ("eng", "en", False),  # another subtag (ISO 639-2), not English as BCP 47 writes it
        ("es", "en", False),
        ("en-GB", "en-US", False),  # a region asked: that region only
        ("en_us", "en-US", True),
        ("en", "en-US", False),
    ],
)
def test_a_language_is_matched_on_its_primary_subtag_without_case_and_with_underscores(tag, lang, matches):
    assert language_matches(tag, lang) is matches


# Pontoon's TBX v3 export (mozilla/pontoon, pontoon/terminology/utils.py, build_tbx_v3_file: the ISO namespace,
# an en-US langSec with the definition inside the termSec, the locale's langSec after), with the English section's
# language written as other tools write it.
PONTOON_V3 = """<?xml version="1.0" encoding="UTF-8"?>
<tbx style="dca" type="TBX-Basic" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
  <tbxHeader><fileDesc><titleStmt><title>Mozilla Terms</title></titleStmt></fileDesc></tbxHeader>
  <text><body>
    <conceptEntry id="c1">
      <langSec {english}>
        <termSec {section}>
          <term>add-on</term>
          <termNote type="partOfSpeech">noun</termNote>
          <descripGrp>
            <descrip type="definition">A small program that adds a feature to the browser.</descrip>
            <descrip type="context">Install the add-on from the store.</descrip>
          </descripGrp>
        </termSec>
      </langSec>
      <langSec xml:lang="es-ES"><termSec><term>complemento</term></termSec></langSec>
    </conceptEntry>
  </body></text>
</tbx>
"""


@pytest.mark.parametrize(
    ("english", "section"),
    [
        ('xml:lang="en-US"', ""),  # as Pontoon writes it
        ('xml:lang="en_GB"', ""),  # a gettext locale, as Weblate names languages
        ('xml:lang="EN-gb"', ""),
        ("", ""),  # no xml:lang: the file's (xml:lang holds for everything inside)
        ("", 'xml:lang="en-US"'),  # on the term's section instead of the langSec
    ],
)
def test_an_english_term_is_found_however_its_language_is_written(english, section):
    text = PONTOON_V3.format(english=english, section=section)
    summary = report(read(text, "tbx", "en"))
    assert (summary.read, summary.imported, summary.refused) == (1, 1, [])
    assert "term: add-on" in summary.files["importados.yaml"]
    spanish = report(read(text, "tbx", "es"))
    assert "term: complemento" in spanish.files["importados.yaml"] and "en: add-on" in spanish.files["importados.yaml"]


def test_an_english_variant_asked_for_reads_no_other_english_as_a_second_name():
    text = PONTOON_V3.format(english='xml:lang="en-US"', section="").replace(
        '<langSec xml:lang="es-ES">',
        '<langSec xml:lang="en-GB"><termSec><term>add-in</term></termSec></langSec>\n      <langSec xml:lang="es-ES">',
    )
    summary = report(read(text, "tbx", "en-US"))
    assert "en: " not in summary.files["importados.yaml"] and "add-in" not in summary.files["importados.yaml"]
    assert summary.dropped["langSet xml:lang=en-GB"] == 1  # counted as a language not kept, not lost
