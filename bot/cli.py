"""Command line: run | lookup | search | validate | list | misses | sync | health | invite-url."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.config import Settings, SettingsError
from bot.core.errors import GlossaryError
from bot.core.loader import load_glossary
from bot.core.mentions import first_sentence
from bot.core.model import Glossary, Term
from bot.core.search import Ambiguous, Found, LookupResult, NotFound

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _positive_int(text: str) -> int:
    """A whole number above zero (ids, limits): anything else is refused with a sentence, not a traceback."""
    if not (text.isascii() and text.isdigit()) or int(text) <= 0:
        raise argparse.ArgumentTypeError(f"'{text}' no es un número entero mayor que 0")
    return int(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="glosario-bot", description="Glosario IA: bot de Discord y herramientas.")
    data_help = "carpeta de términos (por defecto GLOSARIO_DATA o el glosario incluido)"
    parser.add_argument("--data", type=Path, help=data_help)
    sub = parser.add_subparsers(dest="command", metavar="COMANDO")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        # --data is accepted after the command too (`lookup --data DIR q`); given there, it wins.
        p.add_argument("--data", type=Path, default=argparse.SUPPRESS, help=data_help)
        return p

    command("run", "conecta el bot a Discord (necesita DISCORD_TOKEN)")
    p = command("lookup", "busca uno o varios términos como /termino")
    p.add_argument("queries", nargs="+", metavar="CONSULTA", help="lo que buscarías con /termino (una o varias)")
    p.add_argument("--json", action="store_true", help="JSON Lines: un objeto por consulta y línea")
    p = command("search", "busca palabras en los nombres y definiciones")
    p.add_argument("text", nargs="+", metavar="TEXTO", help="palabras que deben aparecer")
    p.add_argument("--json", action="store_true", help="JSON Lines: un objeto por término y línea")
    p = command("validate", "comprueba los archivos de términos")
    p.add_argument("directory", nargs="?", type=Path, metavar="DIR", help="carpeta a comprobar (por defecto --data)")
    command("list", "lista todos los términos por categoría")
    p = command("misses", "consultas sin respuesta registradas por el bot")
    p.add_argument("--guild", type=_positive_int, help="solo este servidor (id)")
    p.add_argument(
        "--status",
        choices=["open", "resolved", "ignored", "all"],
        default="open",
        help="cuáles: abiertas (open, por defecto), resueltas (resolved), ignoradas (ignored) o todas (all)",
    )
    p.add_argument("--json", action="store_true", help="JSON Lines: un objeto por consulta y línea")
    p.add_argument(
        "--format",
        choices=["table", "csv", "yaml"],
        default=None,
        help="table (por defecto), csv, o yaml: plantillas de términos listas para rellenar (como "
        "/glosario-admin exportar)",
    )
    p.add_argument("--limit", type=_positive_int, help="como mucho estas consultas (por defecto, todas)")
    p = command("resolve", "marca consultas como resueltas (por id, ver `misses`)")
    p.add_argument("ids", nargs="+", type=_positive_int, metavar="ID", help="ids de la columna id de `misses`")
    p.add_argument("--term", help="el término que ahora las responde")
    p = command("ignore", "marca consultas como ignoradas (por id)")
    p.add_argument("ids", nargs="+", type=_positive_int, metavar="ID", help="ids de la columna id de `misses`")
    p = command("sync", "publica los comandos de barra en Discord ahora")
    p.add_argument("--guild", type=_positive_int, help="solo en este servidor (instantáneo)")
    p = command("daily", "el término del día de un servidor y una fecha")
    p.add_argument("--guild", type=int, default=0, help="id del servidor (por defecto 0: sin servidor)")
    p.add_argument("--date", type=_iso_date, help="YYYY-MM-DD (por defecto hoy)")
    command("health", "0 si el bot está conectado a Discord y su base de datos abre (HEALTHCHECK)")
    p = command("invite-url", "el enlace para invitar al bot a un servidor")
    p.add_argument(
        "--app-id", type=_positive_int, help="id de la aplicación (por defecto DISCORD_APPLICATION_ID o el token)"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:  # `glosario-bot list | head`: the reader left, nothing is wrong
        sys.stderr.close()
        return EXIT_OK


def _main(argv: list[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if getattr(args, "json", False) and getattr(args, "format", None) not in (None, "table"):
        parser.error("--json y --format no van juntos: elige uno de los dos")
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"Error de configuración: {exc}", file=sys.stderr)
        return EXIT_USAGE
    data_dir = args.data or settings.data_dir
    command = args.command or "run"
    if command in ("run", "sync", "misses", "daily", "resolve", "ignore"):
        from bot import runner  # imports discord and aiosqlite only when they are needed

        return runner.dispatch(command, args, settings, data_dir)
    if command == "validate":
        return _validate(args.directory or data_dir)
    if command == "health":
        from datetime import UTC, datetime

        from bot.health import check

        healthy, reason = check(settings.db_path, datetime.now(UTC))
        print(("ok: " if healthy else "unhealthy: ") + reason)
        return EXIT_OK if healthy else EXIT_FAIL
    if command == "invite-url":
        app_id = args.app_id or settings.application_id or application_id_from_token(settings.token)
        if app_id is None:
            print(
                "Indica el id de la aplicación: --app-id ID, DISCORD_APPLICATION_ID o DISCORD_TOKEN "
                "(Developer Portal → tu aplicación → General Information → Application ID).",
                file=sys.stderr,
            )
            return EXIT_USAGE
        print(invite_url(app_id))
        return EXIT_OK
    glossary = load_or_report(data_dir)
    if glossary is None:
        return EXIT_FAIL
    if command == "list":
        return _list(glossary)
    from bot.core.search import SearchIndex

    index = SearchIndex(glossary)
    if command == "lookup":
        results = [(q, index.lookup(q)) for q in args.queries]
        for query, result in results:
            print(
                json.dumps(lookup_json(query, result), ensure_ascii=False)
                if args.json
                else format_lookup(query, result, glossary)
            )
        return EXIT_OK if all(isinstance(r, Found) for _, r in results) else EXIT_FAIL
    hits = index.search(" ".join(args.text))
    if args.json:  # JSON Lines, like `lookup --json`: one object a line, for streaming and jq
        for h in hits:
            print(json.dumps({"id": h.term.id, "term": h.term.term, "score": h.score}, ensure_ascii=False))
    elif not hits:
        print("Ningún término contiene esas palabras.")
    for hit in [] if args.json else hits:
        print(f"{hit.term.term:<40} {first_sentence(hit.term.definition)}")
    return EXIT_OK if hits else EXIT_FAIL


# View Channel, Send Messages, Embed Links, Attach Files: what the features need, nothing more.
INVITE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15)


def invite_url(application_id: int) -> str:
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
    )


def application_id_from_token(token: str | None) -> int | None:
    """A bot token starts with its user id in base64; for a bot, that is the application id."""
    import base64
    import binascii

    if not token or "." not in token:
        return None
    head = token.split(".", 1)[0]
    try:
        text = base64.b64decode(head + "=" * (-len(head) % 4), validate=False).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(text) if text.isdigit() else None


def _iso_date(text: str):
    from datetime import date

    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' no es una fecha YYYY-MM-DD") from None


def load_or_report(data_dir: Path) -> Glossary | None:
    if not Path(data_dir).is_dir():
        print(
            f"No existe la carpeta del glosario {Path(data_dir).resolve()}. Indica la carpeta de los archivos de "
            "términos con --data DIR (antes o después del comando) o con la variable GLOSARIO_DATA; sin ninguna de "
            "las dos se usa el glosario incluido en el paquete.",
            file=sys.stderr,
        )
        return None
    try:
        return load_glossary(data_dir)
    except GlossaryError as exc:
        print(f"El glosario de {data_dir} no es válido:\n{exc.report()}", file=sys.stderr)
        return None


def _validate(directory: Path) -> int:
    try:
        glossary = load_glossary(directory)
    except GlossaryError as exc:
        print(exc.report())
        count = len(exc.problems)
        print(f"{count} problema{'s' if count != 1 else ''} en {directory}", file=sys.stderr)
        return EXIT_FAIL
    cats = len(glossary.categories)
    print(f"OK: {len(glossary)} términos en {cats} categoría{'s' if cats != 1 else ''} ({directory})")
    return EXIT_OK


def _list(glossary: Glossary) -> int:
    for category in glossary.categories:
        print(f"{category}")
        for term in sorted((t for t in glossary if t.category == category), key=lambda t: t.term.casefold()):
            print(f"  {term.term}" + (f" — {term.en}" if term.en else ""))
    return EXIT_OK


def lookup_json(query: str, result: LookupResult) -> dict:
    """The machine-readable form of one lookup (one line of `lookup --json`)."""
    if isinstance(result, Found):
        return {"query": query, "status": "found", "term": result.term.to_dict(), "suggestions": []}
    if isinstance(result, Ambiguous):
        suggestions = [{"id": s.term.id, "term": s.term.term, "score": s.score} for s in result.candidates]
        return {"query": query, "status": "ambiguous", "term": None, "suggestions": suggestions}
    return {"query": query, "status": "not_found", "term": None, "suggestions": []}


def format_lookup(query: str, result: LookupResult, glossary: Glossary) -> str:
    """The terminal form of one lookup."""
    if isinstance(result, Found):
        return format_term(result.term, glossary)
    if isinstance(result, Ambiguous):
        names = ", ".join(s.term.term for s in result.candidates)
        return f"«{query}» no está en el glosario. ¿Quisiste decir: {names}?\n"
    assert isinstance(result, NotFound)
    return f"«{query}» no está en el glosario.\n"


def format_term(term: Term, glossary: Glossary) -> str:
    lines = [term.term + (f" ({term.en})" if term.en else ""), "", _wrap(term.definition), ""]
    lines.append(f"Categoría: {term.category}")
    if term.aliases:
        lines.append(f"También: {', '.join(term.aliases)}")
    related = [glossary.get(r) for r in term.related]
    if related:
        lines.append(f"Relacionados: {', '.join(t.term for t in related if t)}")
    lines.extend(f"Enlace: {link.title} <{link.url}>" for link in term.links)
    return "\n".join(lines) + "\n"


def _wrap(text: str, width: int = 100) -> str:
    import textwrap

    return textwrap.fill(text, width=width, initial_indent="  ", subsequent_indent="  ")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
