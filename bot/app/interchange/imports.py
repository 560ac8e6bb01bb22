"""What every import ends with: entries read, imported, refused (each with its reason and place), fields not kept
(with counts), characters nobody sees removed (with counts); the check that what is written validates (alone, or
with the glossary folder it is merged into: bot/app/interchange/merge.py); term files written without overwriting
anything, and a glossary.yaml that says which of its own texts are in another language than the glossary's."""

from __future__ import annotations

import gc
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from urllib.parse import quote

import yaml

from bot.app.files import write_whole
from bot.app.interchange.entries import Entry, Imported, Problem, same_language
from bot.app.interchange.term_file_text import term_file_text
from bot.core.errors import GlossaryError
from bot.core.invisible import cleaned
from bot.core.loader import META_FILE, data_node, load_glossary_from_nodes, term_file_node
from bot.core.normalize import compact, normalize, slug
from bot.core.problems import Joined, Said, SaidInBoth, Sentence, said

# This program's own words in what an import writes, and the language they are written in (glossary.yaml says so
# when the glossary is in another: an export then tags them truly).
DEFAULT_CATEGORY, DEFAULT_TITLE, SUBTITLE, OWN_LANGUAGE = "Importados", "Glosario importado", "Importado", "es"


@dataclass(frozen=True)
class Refused(SaidInBoth):
    """An entry not imported: its name (or id), where it is in the file, and why (`said`, in the words of the
    problems' catalogues)."""

    entry: str
    place: str | Sentence
    said: Said
    existing: str = ""  # a collision (`import --into`): where the glossary already has that spelling, file:line

    def where_in(self, lang: str) -> str:
        """The entry's place in the file, in that language (a line: "línea 3", "line 3")."""
        return self.place if isinstance(self.place, str) else self.place.text(lang)

    def reason(self, lang: str) -> str:
        return self.said.text(lang)


@dataclass
class Report:
    read: int
    imported: int
    refused: list[Refused]
    dropped: dict[str, int]
    files: dict[str, str] = field(default_factory=dict)  # file name → text, what is (or would be) written
    title: str = ""  # the glossary's title: the file's own (cleaned like the entries), else DEFAULT_TITLE
    # Characters nobody sees removed from the file's texts (bot.core.invisible.cleaned): how many of each kind,
    # and how many entries had any.
    cleaned: dict[str, int] = field(default_factory=dict)
    cleaned_entries: int = 0
    # glossary.yaml's `languages`: its title, subtitle and category names in another language than the glossary's.
    languages: dict[str, str] = field(default_factory=dict)
    # How many terms the files hold: fewer than `imported` (which counts senses) when entries of one name were joined.
    terms: int = 0

    def to_json(self, lang: str) -> dict:
        refused = [
            {
                "entry": r.entry,
                "where": r.where_in(lang),
                "reason": r.reason(lang),
                **({"existing": r.existing} if r.existing else {}),
            }
            for r in self.refused
        ]
        cleaned = {"entries": self.cleaned_entries, "characters": dict(self.cleaned)}
        return {
            "read": self.read,
            "imported": self.imported,
            "refused": refused,
            "dropped": dict(self.dropped),
            "cleaned": cleaned,
        }


@contextmanager
def collection_paused() -> Iterator[None]:
    """Python's cycle collector held off while an import builds its objects. They hold no cycles, yet each of the
    million made for 10,000 entries counts towards a full collection, which walks every object in the process
    again and again: most of an import's time, with nothing to free. Collection resumes (if it was on) after."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def refuse(refused: list[Refused], entry, why: Said) -> None:
    """Record `entry` (an interchange.Entry) as refused, and why: each of its senses too, as the entries they were
    read as."""
    for each in (entry, *entry.senses):
        name = each.term or entry.term or each.source_id or ""
        refused.append(Refused(name, each.where, why))


def imported(entries: list, refused: list[Refused], title: str, read: int, dropped: Counter) -> Imported:
    """A reader's result: the entries, and every refusal also as a problem ("where: why")."""
    problems = [Problem(said("at_place", where=r.place, why=r.said)) for r in refused]
    return Imported(entries, problems, title, read=read, refused=refused, dropped=dict(dropped))


def no_language(lang: str, languages: Counter, missing: str, counted: str) -> Problem:
    """Why a file without language `lang` is refused: what is `missing` in it, and the languages it has, each
    `counted` (its entries or concepts), with the --lang to choose the most common (`missing` and `counted` are
    codes of the problems' catalogues)."""
    found = ", ".join(f"{code or '?'} ({count})" for code, count in languages.most_common())
    first = next((code for code, _ in languages.most_common() if code), "en")
    return Problem(
        said("no_language", missing=said(missing), lang=lang, counted=said(counted), languages=found, first=first)
    )


_WEB = re.compile(r"https?://\S+", re.IGNORECASE)


def web_url(text: str) -> str:
    """`text` as a web address when it is one (letters outside ASCII percent-encoded, as RFC 3986 asks), else ""."""
    text = text.strip()
    return quote(text, safe=":/?#[]@!$&'()*+,;=%~") if _WEB.fullmatch(text) else ""


_CITED = re.compile(r"(?P<text>.*\S)\s*<(?P<url>https?://[^<>\s]+)>", re.IGNORECASE | re.DOTALL)
NO_ADDRESS = "<>"  # ends a source's text that would otherwise be read as text and address


def source(text: str) -> dict[str, str]:
    """A source as term files write it: its text, and its url when the text is a web address or ends with one
    in angle brackets ("Wikipedia <https://…>", as the TBX and CSV exports write a source with both). A text
    ending in "<>" has no address: it is what comes before (what `citation` writes for such a text)."""
    text = text.strip()
    if text.endswith(NO_ADDRESS):
        return {"text": text.removesuffix(NO_ADDRESS).rstrip()}
    cited = _CITED.fullmatch(text)
    if cited and (url := web_url(cited["url"])):
        return {"text": cited["text"], "url": url}
    url = web_url(text)
    return {"text": text, "url": url} if url else {"text": text}


def citation(text: str, url: str = "") -> str:
    """A source as one text that `source` reads back the same: "Texto <https://…>", the address alone when it is
    its own text, and a text without one that `source` would take for an address (or that ends in "<>") followed
    by " <>"."""
    if url:
        return text if url == text else f"{text} <{url}>"
    return text if source(text) == {"text": text} else f"{text} {NO_ADDRESS}"


def spelling_keys(text: str) -> set[str]:
    """The forms under which a spelling collides with another: normalised, and without its spaces."""
    norm = normalize(text)
    return {norm, compact(norm)} - {""}


def claim_names(entries: list, refused: list[Refused], dropped: Counter, known: frozenset[str] = frozenset()) -> list:
    """The entries whose names are their own: a later entry with a name already taken becomes another sense of the
    entry that has it (its forms added to that entry's); an English name or alias taken by another entry is left
    out of the later entry and counted. `related` keeps the names of imported entries and of `known` (normalised
    names of the glossary merged into)."""
    # Each text's forms once (a name is looked at again for its aliases, its English name, the related it is in).
    keys_of, normal = cache(spelling_keys), cache(normalize)
    owner: dict[str, int] = {}
    kept = []
    for entry in entries:
        keys = keys_of(entry.term)
        if not keys:
            refuse(refused, entry, said("name_without_letters", term=entry.term))
            continue
        taken = next((owner[k] for k in keys if k in owner), None)
        if taken is not None and keys & keys_of(kept[taken].term):  # the same name: another sense of it
            _add_sense(kept[taken], entry, dropped)
            entry, index = kept[taken], taken
        elif taken is not None:  # another entry's English name or alias
            refuse(refused, entry, said("name_taken_by_entry", name=entry.term, first=kept[taken].term))
            continue
        else:
            index = len(kept)
            for k in keys:
                owner[k] = index
            kept.append(entry)
        _claim_forms(entry, index, owner, keys_of, dropped)
    names = {normal(entry.term) for entry in kept} | known
    for entry in kept:
        for each in (entry, *entry.senses):
            related = [r for r in each.related if normal(r) in names and normal(r) != normal(entry.term)]
            if len(related) < len(each.related):
                dropped["related (to an entry not imported)"] += len(each.related) - len(related)
            each.related = list(dict.fromkeys(related))
    return kept


def _claim_forms(entry, index: int, owner: dict[str, int], keys_of, dropped: Counter) -> None:
    """The English name and aliases of the entry at `index` that no other entry has; the others left out, counted."""
    if entry.en and any(owner.get(k, index) != index for k in keys_of(entry.en)):
        entry.en, dropped["en (taken by another entry)"] = "", dropped["en (taken by another entry)"] + 1
    aliases = []
    for alias in dict.fromkeys(entry.aliases):
        if not keys_of(alias) or any(owner.get(k, index) != index for k in keys_of(alias)):
            dropped["aliases (taken by another entry)"] += 1
            continue
        aliases.append(alias)
    entry.aliases = aliases
    for k in (k for text in (entry.en, *aliases) if text for k in keys_of(text)):
        owner.setdefault(k, index)


def _add_sense(entry, later, dropped: Counter) -> None:
    """`later`, an entry of the same name as `entry`, as its next sense: what differs between senses kept in the
    sense, the forms (English name, aliases, links, tags, forms to avoid) added to the entry's."""
    entry.senses.append(
        Entry(
            entry.term,
            later.definition,
            category=later.category,
            related=list(later.related),
            where=later.where,
            note=later.note,
            example=later.example,
            sources=list(later.sources),
            source_id=later.source_id,
            definition_language=later.definition_language,
        )
    )
    entry.senses.extend(later.senses)
    if later.en and not entry.en:
        entry.en = later.en
    elif later.en and normalize(later.en) != normalize(entry.en):  # a name has one English name, not one a sense
        dropped["en (another sense's)"] += 1
    entry.aliases.extend(later.aliases)
    entry.links.extend(link for link in later.links if link not in entry.links)
    entry.tags.extend(later.tags)
    entry.deprecated.extend(later.deprecated)
    for text, language in later.languages.items():
        entry.languages.setdefault(text, language)


_META = data_node({"title": DEFAULT_TITLE, "subtitle": SUBTITLE, "language": OWN_LANGUAGE})


def _file_name(category: str, taken: frozenset[str] = frozenset()) -> str:
    """The category's file name; in a folder that has it already, the first of name-2.yaml, name-3.yaml… it has
    not (compared without case, as some file systems do). glossary.yaml is always taken: a category named
    "Glossary" would write its terms over the folder's title."""
    taken = taken | {META_FILE}
    stem = slug(category) or "importados"
    names = (f"{stem}.yaml", *(f"{stem}-{n}.yaml" for n in range(2, len(taken) + 3)))
    return next(name for name in names if name not in taken)


def _by_file(entries: list, category: str, taken: frozenset[str] = frozenset()) -> dict[str, tuple[str, list[int]]]:
    """Term file name → (its category, the indexes in `entries` of its entries, in order). An entry without a
    category goes to `category`. No name is one of `taken`."""
    files: dict[str, tuple[str, list[int]]] = {}
    by_category: dict[str, str] = {}
    for index, entry in enumerate(entries):
        name = entry.category.strip() or category
        if name not in by_category:
            by_category[name] = _file_name(name, taken | set(files))
        files.setdefault(by_category[name], (name, []))[1].append(index)
    return files


def term_files(entries: list, category: str, taken: frozenset[str] = frozenset()) -> dict[str, str]:
    """The entries as term files, one per category (an entry without one goes to `category`)."""
    return _written(_as_nodes(entries, _by_file(entries, category, taken)))


def _as_nodes(entries: list, files: dict[str, tuple[str, list[int]]]) -> dict[str, yaml.Node]:
    return {
        name: term_file_node(group, [entries[i].to_term_entry() for i in indexes])
        for name, (group, indexes) in files.items()
    }


def _written(nodes: dict[str, yaml.Node]) -> dict[str, str]:
    """The term files' text: the very nodes that were checked."""
    return {name: term_file_text(root) for name, root in nodes.items()}


def settle(
    entries: list, category: str, refused: list[Refused], dropped: Counter, base=None
) -> tuple[dict[str, str], int, int, set[str]]:
    """The term files for `entries`, checked by the loader's own rules as `validate` will check them (on the
    entries themselves: nothing is written as YAML to be read back), with the folder `base` (a merge.Base)
    when they are merged into one. An entry the loader finds a problem with is refused with the loader's own words,
    and the rest checked again. Also returns how many senses the files hold (an entry of one sense counts one), how
    many terms, and the categories they are of."""
    known, taken = (base.names, base.taken) if base else (frozenset(), frozenset())
    entries = claim_names(entries, refused, dropped, known)
    for _ in range(5):
        files = _by_file(entries, category, taken)
        nodes = _as_nodes(entries, files)
        try:
            # The folder's files first: a spelling both have is then reported at the imported entry.
            load_glossary_from_nodes(base.meta if base else _META, {**(base.nodes if base else {}), **nodes})
            return _written(nodes), _senses(entries), len(entries), _categories(files)
        except GlossaryError as exc:
            bad = _entries_at(exc, files)
        if not bad:
            return _written(nodes), _senses(entries), len(entries), _categories(files)
        for index, problems in sorted(bad.items(), reverse=True):
            refuse(refused, entries.pop(index), Joined(problems, "; "))
        entries = claim_names(entries, [], dropped, known)
    files = _by_file(entries, category, taken)
    return _written(_as_nodes(entries, files)), _senses(entries), len(entries), _categories(files)


def _categories(files: dict[str, tuple[str, list[int]]]) -> set[str]:
    return {group for group, _ in files.values()}


def _senses(entries: list) -> int:
    return sum(1 + len(entry.senses) for entry in entries)


def _entries_at(exc: GlossaryError, files: dict[str, tuple[str, list[int]]]) -> dict[int, list[Sentence]]:
    """Which entry each problem is in (its line is the entry's number in its file): index → its problems."""
    bad: dict[int, list[Sentence]] = {}
    for problem in exc.problems:
        indexes = files.get(problem.file, ("", []))[1]
        if 0 < problem.line <= len(indexes):
            bad.setdefault(indexes[problem.line - 1], []).append(problem.sentence)
    return bad


def report(imported, category: str = DEFAULT_CATEGORY, base=None, language: str = OWN_LANGUAGE) -> Report:
    """The summary of an import into a glossary in `language`, with the term files that would be written (nothing
    is written here). Merged into a folder (`base`, a bot.app.interchange.merge.Base), the entries it already has
    are refused first, as collisions. Characters nobody sees are removed from every text first, and counted."""
    refused = list(imported.refused)
    if not refused:  # readers that name their problems only as sentences (JSON)
        refused = [Refused("", "", problem.said) for problem in imported.problems]
    read = imported.read if imported.read is not None else len(imported.entries) + len(refused)
    dropped, removed = Counter(imported.dropped), Counter()
    # Before anything compares names: a name with a zero-width space in it is the same name without it.
    cleaned_entries = sum(entry.clean(removed) for entry in imported.entries)
    title = cleaned(imported.title, removed).split(" — ")[0].strip()
    entries = base.without_collisions(list(imported.entries), refused) if base else list(imported.entries)
    with collection_paused():
        files, imported_count, terms, categories = (
            settle(entries, category, refused, dropped, base) if entries else ({}, 0, 0, set())
        )
    languages = _own_languages(imported, title, categories, language)
    if base and (unsaid := languages.keys() & categories):  # the folder's glossary.yaml is not rewritten
        dropped["languages (of category names: the folder's glossary.yaml is not rewritten)"] += len(unsaid)
    kept = {k: v for k, v in dropped.items() if v}
    title = title or DEFAULT_TITLE
    return Report(read, imported_count, refused, kept, files, title, dict(removed), cleaned_entries, languages, terms)


def _own_languages(imported, title: str, categories: set[str], language: str) -> dict[str, str]:
    """The glossary's own texts (title, subtitle, category names) in another language than `language`: as the
    file says them, else this program's words in theirs (Spanish), else the glossary's."""
    said = {cleaned(text, Counter()): tag for text, tag in imported.languages.items()}  # (as the texts were cleaned)
    own = {title: imported.languages.get(imported.title.strip(), language)} if title else {DEFAULT_TITLE: OWN_LANGUAGE}
    own[SUBTITLE] = OWN_LANGUAGE
    own |= {name: said.get(name, OWN_LANGUAGE if name == DEFAULT_CATEGORY else language) for name in categories}
    return {text: tag for text, tag in own.items() if not same_language(tag, language)}


def clashes(out_dir: Path, files: dict[str, str]) -> list[Path]:
    """The files an import would overwrite in `out_dir`."""
    return [out_dir / name for name in files if (out_dir / name).exists()]


def write(out_dir: Path, files: dict[str, str], title: str, language: str, languages: dict[str, str]) -> list[Path]:
    """Write the term files (and a glossary.yaml when the folder has none: the title, this program's subtitle, the
    glossary's language and `languages`, those of its own texts in another); returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = out_dir / META_FILE
    written = []
    if not meta.exists():
        said = {"title": title, "subtitle": SUBTITLE, "language": language}
        said |= {"languages": languages} if languages else {}
        write_whole(meta, term_file_text(data_node(said)))
        written.append(meta)
    for name, text in files.items():
        write_whole(out_dir / name, text)  # (--replace: an editor's file is never left half replaced)
        written.append(out_dir / name)
    return written
