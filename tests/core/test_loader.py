"""Loader and validation: every kind of problem is reported with file, line and a fix, all at once."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app.files import load_glossary
from bot.core.errors import GlossaryError
from bot.core.loader import load_glossary_from_texts

META = "title: Glosario de prueba\nsubtitle: Para tests\nlanguage: es\n"


def write(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    files = {"glossary.yaml": META, **files}
    for name, content in files.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return tmp_path


def problems(tmp_path: Path, files: dict[str, str | bytes]) -> list[str]:
    with pytest.raises(GlossaryError) as info:
        load_glossary(write(tmp_path, files))
    return [str(p) for p in info.value.problems]


GOOD = """\
category: Pruebas
terms:
  - term: Horovod
    definition: Framework de entrenamiento distribuido.
    related: [AllReduce]
  - term: AllReduce
    definition: Algoritmo de comunicación colectiva.
    aliases: [all-reduce]
    links: [{title: Docs, url: "https://example.org/allreduce"}]
"""


def test_valid_directory_gives_an_immutable_glossary(tmp_path):
    glossary = load_glossary(write(tmp_path, {"pruebas.yaml": GOOD}))
    assert glossary.title == "Glosario de prueba"
    assert [t.id for t in glossary] == ["horovod", "allreduce"]
    horovod = glossary.get("horovod")
    assert horovod.related == ("allreduce",)
    assert horovod.category == "Pruebas"
    assert horovod.source.endswith("pruebas.yaml:3")
    with pytest.raises(dataclasses.FrozenInstanceError):
        horovod.term = "otro"  # type: ignore[misc]


def test_broken_yaml_syntax_names_the_line(tmp_path):
    found = problems(tmp_path, {"roto.yaml": "category: X\nterms:\n  - term: A\n    definition: [sin cerrar\n"})
    assert len(found) == 1
    assert found[0].startswith(f"{tmp_path / 'roto.yaml'}:")
    assert "YAML mal formado" in found[0]
    line = int(found[0].split(":")[1])
    assert 4 <= line <= 5


def test_missing_and_empty_fields(tmp_path):
    found = problems(
        tmp_path,
        {
            "a.yaml": """\
        category: X
        terms:
          - term: Sin definición
          - definition: Sin nombre
          - term: Vacío
            definition: "   "
        """
        },
    )
    text = "\n".join(found)
    assert f"{tmp_path / 'a.yaml'}:3: falta 'definition'" in text
    assert f"{tmp_path / 'a.yaml'}:4: falta 'term'" in text
    assert f"{tmp_path / 'a.yaml'}:6: 'definition' está vacío" in text


def test_wrong_types(tmp_path):
    found = problems(
        tmp_path,
        {
            "a.yaml": """\
        category: X
        terms:
          - term: [una, lista]
            definition: Algo.
          - term: Bien
            definition: Algo.
            en: 123
            aliases: no es una lista
            related: {a: b}
        """
        },
    )
    text = "\n".join(found)
    assert ":3: 'term' debe ser texto" in text
    assert ":7: 'en' debe ser texto, no '123'" in text
    assert ":8: 'aliases' debe ser una lista" in text
    assert ":9: 'related' debe ser una lista" in text


def test_unknown_key_suggests_the_right_one(tmp_path):
    found = problems(
        tmp_path,
        {
            "a.yaml": """\
        category: X
        terms:
          - term: Algo
            defintion: Mal escrito.
        """
        },
    )
    assert any(":4: clave desconocida 'defintion'" in p and "¿querías decir 'definition'?" in p for p in found)
    assert any(":3: falta 'definition'" in p for p in found)


def test_duplicate_key_in_one_term(tmp_path):
    found = problems(tmp_path, {"a.yaml": "category: X\nterms:\n  - term: A\n    term: B\n    definition: D.\n"})
    assert any(":4: clave 'term' repetida" in p for p in found)


def test_collisions_after_normalisation_across_files(tmp_path):
    found = problems(
        tmp_path,
        {
            "a.yaml": "category: X\nterms:\n  - term: Horovod\n    definition: D.\n",
            "b.yaml": "category: Y\nterms:\n  - term: Otra cosa\n    definition: D.\n    aliases: [HORÓVOD]\n"
            "  - term: horovod\n    definition: D.\n",
        },
    )
    text = "\n".join(found)
    assert (
        f"{tmp_path / 'b.yaml'}:5: el alias 'HORÓVOD' (aliases) de 'Otra cosa' coincide con el nombre 'Horovod' "
        f"(term) de 'Horovod' ({tmp_path / 'a.yaml'}:3)" in text
    )
    assert f"{tmp_path / 'b.yaml'}:6: 'horovod' repite el término 'Horovod'" in text


def test_compact_forms_collide_too(tmp_path):
    found = problems(
        tmp_path,
        {
            "a.yaml": """\
        category: X
        terms:
          - term: All Reduce
            definition: D.
          - term: Otro
            definition: D.
            en: allreduce
        """
        },
    )
    assert any(
        ":7: el nombre en inglés 'allreduce' (en) de 'Otro' coincide con el nombre 'All Reduce'" in p for p in found
    )


def test_related_must_exist_and_not_be_itself(tmp_path):
    found = problems(
        tmp_path,
        {
            "a.yaml": """\
        category: X
        terms:
          - term: Horovod
            definition: D.
            related: [Horovd, Horovod]
        """
        },
    )
    text = "\n".join(found)
    assert ":5: 'related' nombra 'Horovd', que no es ningún término: ¿querías decir 'Horovod'?" in text
    assert ":5: 'Horovod' no puede estar relacionado consigo mismo" in text


def test_text_over_discord_limits(tmp_path):
    long_title, long_def, long_en = "T" * 257, "d" * 4097, "e" * 1025
    found = problems(
        tmp_path,
        {
            "a.yaml": f"""\
        category: X
        terms:
          - term: {long_title}
            definition: D.
          - term: Bien
            definition: {long_def}
            en: {long_en}
        """
        },
    )
    text = "\n".join(found)
    assert ":3: 'term' tiene 257 caracteres y Discord admite 256" in text
    assert ":6: 'definition' tiene 4097 caracteres y Discord admite 4096" in text
    assert ":7: 'en' tiene 1025 caracteres y Discord admite 1024" in text


def test_urls_must_be_http(tmp_path):
    found = problems(
        tmp_path,
        {
            "a.yaml": """\
        category: X
        terms:
          - term: A
            definition: D.
            links:
              - {title: FTP, url: "ftp://example.org/x"}
              - {title: Nada, url: "no es una url"}
              - {title: Sin url}
        """
        },
    )
    text = "\n".join(found)
    assert ":6: 'ftp://example.org/x' no es una URL http(s)" in text
    assert ":7: 'no es una url' no es una URL http(s)" in text
    assert ":8: cada enlace necesita 'title' y 'url'" in text


def test_not_utf8_empty_file_and_missing_meta(tmp_path):
    (tmp_path / "bin.yaml").write_bytes(b"category: X\nterms: \xff\xfe\n")
    (tmp_path / "vacio.yaml").write_text("")
    with pytest.raises(GlossaryError) as info:
        load_glossary(tmp_path)
    text = info.value.report()
    assert f"{tmp_path / 'bin.yaml'}:2: no es texto UTF-8" in text
    assert f"{tmp_path / 'vacio.yaml'}:1: el archivo está vacío" in text
    assert "falta glossary.yaml" in text


def test_missing_directory(tmp_path):
    with pytest.raises(GlossaryError, match="no existe"):
        load_glossary(tmp_path / "nada")


def test_every_problem_is_reported_at_once(tmp_path):
    found = problems(
        tmp_path,
        {
            "a.yaml": "category: X\nterms:\n  - term: A\n  - defintion: x\n",
            "b.yaml": "category: [mal]\nterms: 3\n",
        },
    )
    assert len(found) >= 4
    assert {p.split(":")[0] for p in found} == {str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")}


yaml_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.binary(max_size=300))
def test_arbitrary_bytes_only_raise_glossary_error(data):
    try:
        load_glossary_from_texts([("glossary.yaml", META), ("x.yaml", data)])
    except GlossaryError as exc:
        assert all(p.file in ("glossary.yaml", "x.yaml") for p in exc.problems)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    terms=st.lists(
        st.dictionaries(
            st.sampled_from(["term", "definition", "en", "aliases", "related", "links", "defintion"]),
            yaml_values,
            max_size=6,
        ),
        max_size=5,
    ),
    category=yaml_values,
)
def test_arbitrary_structures_only_raise_glossary_error(terms, category):
    import yaml

    text = yaml.safe_dump({"category": category, "terms": terms}, allow_unicode=True)
    try:
        glossary = load_glossary_from_texts([("glossary.yaml", META), ("x.yaml", text)])
    except GlossaryError as exc:
        assert exc.problems
    else:
        assert all(t.term and t.definition for t in glossary)


def test_a_card_over_discords_total_is_refused_though_each_field_fits(tmp_path):
    definition = "Palabra " * 500  # 4,000 characters: within the description's 4,096
    aliases = ", ".join(f"alias número {n:03d}" for n in range(60))[:1000]  # within a field's 1,024
    links = "\n".join(f"      - {{title: Enlace {n}, url: 'https://example.org/{'x' * 60}{n}'}}" for n in range(9))
    found = problems(
        tmp_path,
        {
            "a.yaml": f"category: Pruebas\nterms:\n  - term: Enorme\n    definition: {definition.strip()}\n"
            f"    aliases: [{aliases.rsplit(',', 1)[0]}]\n    links:\n{links}\n"
        },
    )
    (problem,) = found
    assert problem.startswith(f"{tmp_path / 'a.yaml'}:3: la ficha de 'Enorme' suma ")
    assert "Discord admite 6000 en total" in problem


def test_a_colliding_alias_is_reported_where_it_is_written_even_before_the_term_it_names(tmp_path):
    found = problems(
        tmp_path,
        {
            "a.yaml": """\
        category: X
        terms:
          - term: Servidor de Parámetros
            definition: D.
            aliases: [PS, Horovod]
          - term: Horovod
            definition: D.
        """
        },
    )
    assert found == [
        f"{tmp_path / 'a.yaml'}:5: el alias 'Horovod' (aliases) de 'Servidor de Parámetros' coincide con el nombre "
        f"'Horovod' (term) de 'Horovod' ({tmp_path / 'a.yaml'}:6): cada nombre, nombre en inglés o alias debe ser "
        "único; quita o cambia uno de los dos"
    ]


def test_a_term_with_a_problem_is_reported_once_not_again_by_whoever_relates_to_it(tmp_path):
    found = problems(
        tmp_path,
        {
            "a.yaml": """\
        category: X
        terms:
          - term: AllReduce
          - term: Horovod
            definition: D.
            related: [AllReduce]
          - term: Ray
            definition: D.
            related: [allreduce]
        """
        },
    )
    assert found == [f"{tmp_path / 'a.yaml'}:3: falta 'definition' en este término: es obligatorio"]


@pytest.mark.parametrize(
    ("url", "fix"),
    [
        ("http://", "le falta el dominio"),
        ("ftp://example.org/x", "debe empezar por https://"),
        ("https://example.org/a b", "quita los espacios"),
        # RFC 3986 has no place for these unencoded: RDF, XML and Discord's markdown break on them
        ('https://example.org/a"b', 'el carácter «"» no puede ir tal cual en una URL: escríbelo como %22'),
        ("https://example.org/<a>", "el carácter «<» no puede ir tal cual en una URL: escríbelo como %3C"),
        ("https://example.org/a\\b", "el carácter «\\» no puede ir tal cual en una URL: escríbelo como %5C"),
        ("https://example.org/{a}", "el carácter «{» no puede ir tal cual en una URL: escríbelo como %7B"),
        ("https://example.org/a|b", "el carácter «|» no puede ir tal cual en una URL: escríbelo como %7C"),
        ("https://example.org/a^b", "el carácter «^» no puede ir tal cual en una URL: escríbelo como %5E"),
        ("https://example.org/a`b", "el carácter «`» no puede ir tal cual en una URL: escríbelo como %60"),
        ("https://es.wikipedia.org/wiki/Año", "el carácter «ñ» no puede ir tal cual en una URL: escríbelo como %C3%B1"),
        ("https://example.org/100%", "cada «%» va seguido de dos cifras hexadecimales, como en %20"),
        ("https://example.org/a[1]", "«[» no puede ir en ese lugar de una URL: escríbelo como %5B"),
        ("https://example.org/#a#b", "«#» no puede ir en ese lugar de una URL: escríbelo como %23"),
        ("https://example.org:puerto/", "revisa el dominio y el puerto"),
    ],
)
def test_link_problems_say_what_is_wrong(tmp_path, url, fix):
    found = problems(
        tmp_path,
        {"a.yaml": f"category: X\nterms:\n  - term: A\n    definition: D.\n    links: [{{title: T, url: '{url}'}}]\n"},
    )
    (problem,) = found
    assert f"'{url}' no es una URL http(s) válida: {fix}" in problem


@pytest.mark.parametrize(
    ("escape", "name"),
    [
        ("\\u200b", "U+200B ZERO WIDTH SPACE"),
        ("\\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("\\a", "U+0007"),
        ("\\uFFFE", "U+FFFE"),  # XML has no way to carry it: the TBX export would be unreadable
    ],
)
def test_invisible_characters_are_reported(tmp_path, escape, name):
    found = problems(  # written as YAML escapes: YAML itself refuses some of them raw (see below)
        tmp_path,
        {"a.yaml": f'category: X\nterms:\n  - term: "Horo{escape}vod"\n    definition: "Def{escape}inición."\n'},
    )
    assert len(found) == 2 and all(name in p and "carácter invisible" in p for p in found)
    assert "'term'" in found[0] and "en la posición 5" in found[0]


def test_a_raw_control_character_is_named_with_its_line(tmp_path):
    found = problems(tmp_path, {"a.yaml": "category: X\nterms:\n  - term: Hor\aovod\n    definition: D.\n"})
    assert found == [f"{tmp_path / 'a.yaml'}:3: hay un carácter invisible (U+0007) que YAML no admite: bórralo"]


def test_a_yaml_tag_is_named_as_such(tmp_path):
    found = problems(
        tmp_path, {"a.yaml": "category: X\nterms:\n  - term: A\n    definition: !!python/object:os.system {}\n"}
    )
    assert found == [
        f"{tmp_path / 'a.yaml'}:4: 'definition' lleva la etiqueta YAML '!!python/object:os.system', que no se "
        "admite: quítala"
    ]


def test_yaml_parser_messages_speak_spanish(tmp_path):
    found = problems(tmp_path, {"a.yaml": "category: X\nterms:\n  - term: A: B\n    definition: D.\n"})
    assert found == [
        f"{tmp_path / 'a.yaml'}:3: YAML mal formado: aquí no puede ir «:» (¿falta un espacio tras los dos puntos, "
        "o comillas?)"
    ]
    odd = problems(tmp_path, {"a.yaml": "category: X\nterms: [a, b\n"})
    assert "YAML mal formado" in odd[0] and "the" not in odd[0].split("YAML mal formado")[1][:40]


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ("category: X\nterms:\n\t- term: A\n    definition: D.\n", 3, "hay un tabulador: sangra solo con espacios"),
        ("category: X\nterms:\n  - term: A\n\t definition: D.\n", 4, "hay un tabulador: sangra solo con espacios"),
        (
            "category: X\nterms:\n  - term: &a A\n    definition: &a D.\n",
            4,
            "un ancla «&» repetida: pon ese texto entre comillas",
        ),
    ],
)
def test_a_tab_or_a_repeated_anchor_is_said_in_spanish(tmp_path, text, line, what):
    found = problems(tmp_path, {"a.yaml": text})
    assert found == [f"{tmp_path / 'a.yaml'}:{line}: YAML mal formado: {what}"]


def test_a_missing_glossary_yaml_names_its_folder(tmp_path):
    (tmp_path / "a.yaml").write_text("category: X\nterms:\n  - term: A\n    definition: D.\n")
    with pytest.raises(GlossaryError) as info:
        load_glossary(tmp_path)
    assert [str(p) for p in info.value.problems] == [
        f"{tmp_path / 'glossary.yaml'}: falta glossary.yaml en esta carpeta: créalo con title, subtitle y language"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "category: X\nterms:\n  - term: A\n      definition: D.\n",  # the key under the one above, too deep
        "category: X\nterms:\n  - term: A\n    definition: D.\n     en: B\n",
        "category: X\n  terms:\n  - term: A\n    definition: D.\n",
    ],
)
def test_an_over_indented_key_is_called_an_indentation_problem(tmp_path, text):
    with pytest.raises(GlossaryError) as info:
        load_glossary(write(tmp_path, {"a.yaml": text}))
    (problem,) = info.value.problems
    key = text.splitlines()[problem.line - 1].split(":")[0].strip()
    assert "sangría" in problem.message and f"'{key}'" in problem.message
    assert "comillas" not in problem.message
    assert "indented" in problem.english and f"'{key}'" in problem.english


def test_a_colon_inside_a_value_still_asks_for_quotes_in_both_languages(tmp_path):
    with pytest.raises(GlossaryError) as info:
        load_glossary(write(tmp_path, {"a.yaml": "category: X\nterms:\n  - term: A\n    definition: Uno: dos.\n"}))
    (problem,) = info.value.problems
    assert "¿falta un espacio tras los dos puntos, o comillas?" in problem.message
    assert problem.english.startswith("malformed YAML: ") and "quotes" in problem.english


def test_a_term_without_name_and_definition_is_one_problem_said_in_plain_english(tmp_path):
    with pytest.raises(GlossaryError) as info:
        load_glossary(write(tmp_path, {"a.yaml": "category: X\nterms:\n  - en: Only English\n"}))
    (problem,) = info.value.problems
    assert problem.line == 3 and "faltan el nombre ('term') y la definición ('definition')" in problem.message
    assert problem.text("en").endswith(
        "the name ('term') and the definition ('definition') of this term are missing: both are required"
    )


def test_a_link_problem_names_file_and_line_in_either_language(tmp_path):
    text = 'category: X\nterms:\n  - term: A\n    definition: D.\n    links:\n      - {title: T, url: "https://a.org/x\\"y"}\n'
    with pytest.raises(GlossaryError) as info:
        load_glossary(write(tmp_path, {"a.yaml": text}))
    (problem,) = info.value.problems
    assert (problem.file, problem.line) == (str(tmp_path / "a.yaml"), 6)
    assert problem.text("en").endswith(
        "'https://a.org/x\"y' is not a valid http(s) URL: the character '\"' cannot stand as such in a URL: "
        "write it as %22"
    )


@pytest.mark.parametrize(
    "url",
    [
        "https://example.org",
        "HTTP://Example.org:8080/a/b;c=d?e=f&g[]=h#i/j?k",  # "[" and "]" do not belong in a query either
        "https://user:pass@example.org/%C3%B1?q=a+b&r=(1)*2!$',;=~_.-@:/?",
        "https://[2001:db8::1]/ruta",
        "https://192.168.0.1:443/",
    ],
)
def test_a_url_rfc_3986_allows_is_accepted_and_one_it_does_not_is_not(tmp_path, url):
    import yaml

    link = {"title": "T", "url": url}
    file = yaml.safe_dump({"category": "X", "terms": [{"term": "A", "definition": "D.", "links": [link]}]})
    if "[]" in url:
        assert any("«[» no puede ir en ese lugar" in p for p in problems(tmp_path, {"a.yaml": file}))
    else:
        (term,) = load_glossary(write(tmp_path, {"a.yaml": file})).terms
        assert term.links[0].url == url


@pytest.mark.parametrize("language", ["es", "es-ES", "es-419", "zh-Hant-TW", "x-glosario"])
def test_the_glossary_language_is_a_language_tag(tmp_path, language):
    glossary = load_glossary(write(tmp_path, {"glossary.yaml": f"title: T\nlanguage: {language}\n", "a.yaml": GOOD}))
    assert glossary.language == language


@pytest.mark.parametrize("language", ["Español", "es_ES", "spanish language", "e"])
def test_a_glossary_language_that_is_no_language_tag_is_refused(tmp_path, language):
    found = problems(tmp_path, {"glossary.yaml": f"title: T\nlanguage: {language}\n", "a.yaml": GOOD})
    assert found == [
        f"{tmp_path / 'glossary.yaml'}:2: 'language' es '{language}' y debe ser una etiqueta de idioma (BCP 47), "
        "p. ej. es o es-ES"
    ]


def test_a_server_term_goes_through_the_same_text_rules():
    """A server term (a form in Discord) has no links, so the URL rule has nothing to check there; the text rules
    that keep every export readable (here U+FFFE, which XML cannot carry) apply to it as to the term files."""
    from bot.core.server_terms import TermFields, check

    refused = check(TermFields(term="Horovod", definition="Marco \ufffe distribuido."))
    assert isinstance(refused, list) and ["U+FFFE" in p.message for p in refused] == [True]
    assert not isinstance(check(TermFields(term="Horovod", definition='Marco "distribuido" <b> & ]]>.')), list)


_YAML_SCALARS = st.sampled_from(["1", "-1.5e3", ".inf", ".NaN", "0x1F", "0o17", "017", "1_000", "~", "yes", "Off", "٣"])


@settings(max_examples=500)
@given(text=_YAML_SCALARS | st.text(max_size=6) | st.text("0123456789+-._eExXoOinfaINFNyYsStTrRuUlL~", max_size=6))
def test_the_quick_test_for_text_yaml_would_read_as_something_else_is_the_full_one(text):
    from bot.core.loader import NOT_TEXT, reads_as_other

    assert reads_as_other(text) == (NOT_TEXT.fullmatch(text) is not None)
