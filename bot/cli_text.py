"""The command line's own words, in Spanish (the default) and English (an English locale: LC_ALL, LC_MESSAGES or
LANG starting with "en"), including argparse's: one language on the whole surface."""

from __future__ import annotations

import argparse
from typing import Any

TEXT: dict[str, dict[str, str]] = {
    "es": {
        "prog_description": "Glosario IA: bot de Discord y herramientas para los editores del glosario.",
        "command_metavar": "COMANDO",
        "query_metavar": "CONSULTA",
        "text_metavar": "TEXTO",
        "version_help": "muestra la versión y termina",
        "data_help": "carpeta de términos (por defecto GLOSARIO_DATA o el glosario incluido)",
        "run_help": "conecta el bot a Discord (necesita DISCORD_TOKEN)",
        "lookup_help": "busca uno o varios términos como /termino",
        "lookup_queries": "lo que buscarías con /termino (una o varias consultas)",
        "lookup_json": "JSON Lines: un objeto por consulta y línea",
        "search_help": "busca palabras en los nombres y definiciones",
        "search_text": "palabras que deben aparecer",
        "search_json": "JSON Lines: un objeto por término y línea",
        "validate_help": "comprueba los archivos de términos",
        "validate_dir": "carpeta a comprobar (por defecto --data)",
        "list_help": "lista todos los términos por categoría",
        "misses_help": "consultas sin respuesta registradas por el bot",
        "guild_only": "solo este servidor (id)",
        "status_help": "cuáles: abiertas (open, por defecto), resueltas (resolved), ignoradas (ignored) o todas (all)",
        "misses_json": "JSON Lines: un objeto por consulta y línea",
        "format_help": "table (por defecto), csv, o yaml: plantillas de términos listas para rellenar (como "
        "/glosario-admin exportar)",
        "limit_help": "como mucho estas consultas (por defecto, todas)",
        "resolve_help": "marca consultas como resueltas (por id, ver `misses`)",
        "ids_help": "ids de la columna id de `misses`",
        "term_help": "el término que ahora las responde",
        "ignore_help": "marca consultas como ignoradas (por id)",
        "sync_help": "publica los comandos de barra en Discord ahora",
        "sync_guild": "solo en este servidor (instantáneo)",
        "daily_help": "el término del día de un servidor y una fecha",
        "daily_guild": "id del servidor (por defecto 0: sin servidor)",
        "daily_date": "YYYY-MM-DD (por defecto hoy)",
        "health_help": "0 si el bot está conectado a Discord y su base de datos abre (HEALTHCHECK)",
        "invite_help": "el enlace para invitar al bot a un servidor",
        "app_id_help": "id de la aplicación (por defecto DISCORD_APPLICATION_ID o el token)",
        "not_positive": "'{text}' no es un número entero mayor que 0",
        "not_a_date": "'{text}' no es una fecha YYYY-MM-DD",
        "json_and_format": "--json y --format no van juntos: elige uno de los dos",
        "settings_error": "Error de configuración: {error}",
        "healthy": "bien: {reason}",
        "unhealthy": "mal: {reason}",
        "no_app_id": "Indica el id de la aplicación: --app-id ID, DISCORD_APPLICATION_ID o DISCORD_TOKEN "
        "(Developer Portal → tu aplicación → General Information → Application ID).",
        "no_hits": "Ningún término contiene esas palabras.",
        "no_glossary_dir": "No existe la carpeta del glosario {path}. Indica la carpeta de los archivos de términos "
        "con --data DIR (antes o después del comando) o con la variable GLOSARIO_DATA; sin ninguna de las dos se "
        "usa el glosario incluido en el paquete.",
        "invalid_glossary": "El glosario de {path} no es válido:\n{report}",
        "problems": "{count} problemas en {path}",
        "problems_1": "1 problema en {path}",
        "valid": "OK: {terms} términos en {categories} categorías ({path})",
        "valid_1": "OK: {terms} términos en 1 categoría ({path})",
        "not_in_glossary": "«{query}» no está en el glosario.",
        "did_you_mean": "¿Quisiste decir: {names}?",
        "category": "Categoría",
        "also": "También",
        "related": "Relacionados",
        "link": "Enlace",
        "health_no_heartbeat": "no hay latido en {path}: el bot no está en marcha o aún no se ha conectado a Discord",
        "health_unreadable": "no se puede leer el latido {path}: {error}",
        "health_stale": "conectado a Discord por última vez hace {seconds} s (el límite es {limit} s)",
        "health_db_replaced": "la base de datos {db} no es el archivo que el bot tiene abierto (se ha sustituido, "
        "movido o borrado con el bot en marcha): lo que escribe ya no llega; reinícialo",
        "health_db_broken": "la base de datos {db} no abre: {error}",
        "health_ok": "conectado a Discord hace {seconds} s; la base de datos {db} abre",
        "no_token": "Falta DISCORD_TOKEN: el token del bot de tu aplicación de Discord.\nCréalo en "
        "https://discord.com/developers/applications → tu aplicación → Bot → Reset Token, y pásalo por el\nentorno "
        "(export DISCORD_TOKEN=… o un archivo .env con Docker). Nunca lo escribas en el código ni en el repositorio.",
        "bad_token": "Discord ha rechazado DISCORD_TOKEN (token no válido o revocado).\nGenera uno nuevo en "
        "https://discord.com/developers/applications → tu aplicación → Bot → Reset Token.",
        "run_no_glossary_dir": "No existe la carpeta del glosario {path}. Indica la carpeta de los archivos de "
        "términos con GLOSARIO_DATA (con Docker, monta tu carpeta en /app/glossary_data o quita el montaje para usar "
        "la del image).",
        "run_invalid_glossary": "El glosario de {path} no es válido; el bot no arranca:\n{report}",
        "sync_refused": "Discord no ha aceptado los comandos: revisa el registro de arriba.",
        "synced_global": "{count} comandos publicados globalmente",
        "synced_guild": "{count} comandos publicados en el servidor {guild}",
        "elsewhere": "Si la base de datos está en otro sitio, indícalo con GLOSARIO_DB=/ruta/a/glosario.db.",
        "no_database": "No hay base de datos en {path}.",
        "no_database_yet": "No hay base de datos en {path} todavía: el bot aún no ha registrado consultas ahí.",
        "not_a_term": "«{term}» no es un término del glosario.",
        "unknown_ids": "No hay ninguna consulta con el id {ids} (mira los ids con `glosario-bot misses --status all`).",
        "migrate_help": "crea o actualiza el esquema de la base de datos (también se hace al arrancar)",
        "server_terms_help": "los términos propios de un servidor, como archivo de términos para glossary_data/",
        "server_terms_guild": "el id del servidor",
        "server_terms_count": "{count} término(s) del servidor {guild}",
        "migrated": "Base de datos {path}: migraciones {applied} aplicadas; esquema {version}.",
        "migrate_current": "Base de datos {path}: ya está en el esquema {version}; nada que migrar.",
        "answered_help": "resuelve todas las consultas abiertas que el glosario actual ya responde",
        "resolved_answered": "{count} consulta(s) abierta(s) resuelta(s): el glosario actual ya las responde",
        "ids_or_answered": "indica los ids de las consultas, o --answered",
        "marked_resolved": "{changed} de {total} consulta(s) marcada(s) como resueltas",
        "marked_ignored": "{changed} de {total} consulta(s) marcada(s) como ignoradas",
        "forecast_refused": "No puedo saber el término del {day}: está a más de {years} años, y hasta entonces el "
        "glosario (y con él el orden de los términos) habrá cambiado. Pide una fecha más cercana.",
        "forecast_note": " — previsión: si el glosario y el horario no cambian hasta entonces",
        "daily_heading": "Término del día ({day}, servidor {guild}){note}:\n",
        "limited": "{shown} de {total} consultas (sin --limit salen todas)",
        "no_gaps": "No hay consultas sin respuesta con ese filtro.",
        "gaps_header": "{id:>5}  {count:>5}  {askers:>8}  {status:<9} {guild:<20} {last:<20} {query}",
        "gaps_columns": "id|veces|personas|estado|servidor|última|consulta",
        "status_open": "abierta",
        "status_resolved": "resuelta",
        "status_ignored": "ignorada",
        "export_title": "Glosario IA — términos pedidos y no encontrados ({where})",
        "export_guild": "servidor {guild}",
        "export_everywhere": "todos los servidores",
    },
    "en": {
        "prog_description": "Glosario IA: the Discord bot, and tools for the glossary's editors.",
        "command_metavar": "COMMAND",
        "query_metavar": "QUERY",
        "text_metavar": "TEXT",
        "version_help": "show the version and exit",
        "data_help": "folder of term files (default: GLOSARIO_DATA, or the glossary shipped with the package)",
        "run_help": "connect the bot to Discord (needs DISCORD_TOKEN)",
        "lookup_help": "look up one or more terms, as /term does",
        "lookup_queries": "what you would ask /term (one or more queries)",
        "lookup_json": "JSON Lines: one object per query and line",
        "search_help": "find words in the names and definitions",
        "search_text": "words that must appear",
        "search_json": "JSON Lines: one object per term and line",
        "validate_help": "check the term files",
        "validate_dir": "folder to check (default: --data)",
        "list_help": "list every term by category",
        "misses_help": "questions the bot could not answer",
        "guild_only": "only this server (id)",
        "status_help": "which: open (default), resolved, ignored or all",
        "misses_json": "JSON Lines: one object per question and line",
        "format_help": "table (default), csv, or yaml: term stubs ready to fill in (as /glossary-admin export)",
        "limit_help": "at most this many questions (default: all)",
        "resolve_help": "mark questions resolved (by id, see `misses`)",
        "ids_help": "ids from the id column of `misses`",
        "term_help": "the term that answers them now",
        "ignore_help": "mark questions ignored (by id)",
        "sync_help": "publish the slash commands to Discord now",
        "sync_guild": "only in this server (instant)",
        "daily_help": "the term of the day of a server and a date",
        "daily_guild": "server id (default 0: no server)",
        "daily_date": "YYYY-MM-DD (default: today)",
        "health_help": "0 when the bot is connected to Discord and its database opens (HEALTHCHECK)",
        "invite_help": "the link that adds the bot to a server",
        "app_id_help": "application id (default: DISCORD_APPLICATION_ID, or the token)",
        "not_positive": "'{text}' is not a whole number above 0",
        "not_a_date": "'{text}' is not a YYYY-MM-DD date",
        "json_and_format": "--json and --format do not go together: choose one",
        "settings_error": "Configuration error: {error}",
        "healthy": "ok: {reason}",
        "unhealthy": "unhealthy: {reason}",
        "no_app_id": "Give the application id: --app-id ID, DISCORD_APPLICATION_ID or DISCORD_TOKEN "
        "(Developer Portal → your application → General Information → Application ID).",
        "no_hits": "No term contains those words.",
        "no_glossary_dir": "There is no glossary folder {path}. Give the folder of the term files with --data DIR "
        "(before or after the command) or with GLOSARIO_DATA; with neither, the glossary shipped with the package "
        "is used.",
        "invalid_glossary": "The glossary in {path} is not valid:\n{report}",
        "problems": "{count} problems in {path}",
        "problems_1": "1 problem in {path}",
        "valid": "OK: {terms} terms in {categories} categories ({path})",
        "valid_1": "OK: {terms} terms in 1 category ({path})",
        "not_in_glossary": "“{query}” is not in the glossary.",
        "did_you_mean": "Did you mean: {names}?",
        "category": "Category",
        "also": "Also",
        "related": "Related",
        "link": "Link",
        "health_no_heartbeat": "no heartbeat at {path}: the bot is not running or has not connected to Discord yet",
        "health_unreadable": "unreadable heartbeat {path}: {error}",
        "health_stale": "last connected to Discord {seconds} s ago (limit {limit} s)",
        "health_db_replaced": "database {db} is not the file the bot has open (replaced, moved or deleted while it "
        "runs): what the bot writes now goes nowhere; restart it",
        "health_db_broken": "database {db} does not open: {error}",
        "health_ok": "connected to Discord {seconds} s ago; database {db} opens",
        "no_token": "DISCORD_TOKEN is missing: the bot token of your Discord application.\nCreate it at "
        "https://discord.com/developers/applications → your application → Bot → Reset Token, and pass it through "
        "the\nenvironment (export DISCORD_TOKEN=… or a .env file with Docker). Never write it in the code or the "
        "repository.",
        "bad_token": "Discord refused DISCORD_TOKEN (invalid or revoked token).\nMake a new one at "
        "https://discord.com/developers/applications → your application → Bot → Reset Token.",
        "run_no_glossary_dir": "There is no glossary folder {path}. Give the folder of the term files with "
        "GLOSARIO_DATA (with Docker, mount your folder on /app/glossary_data, or remove the mount to use the image's).",
        "run_invalid_glossary": "The glossary in {path} is not valid; the bot does not start:\n{report}",
        "sync_refused": "Discord did not accept the commands: see the log above.",
        "synced_global": "{count} commands published globally",
        "synced_guild": "{count} commands published in server {guild}",
        "elsewhere": "If the database is somewhere else, say where with GLOSARIO_DB=/path/to/glosario.db.",
        "no_database": "There is no database at {path}.",
        "no_database_yet": "There is no database at {path} yet: the bot has not logged any question there.",
        "not_a_term": "“{term}” is not a glossary term.",
        "unknown_ids": "There is no question with id {ids} (see the ids with `glosario-bot misses --status all`).",
        "migrate_help": "create or upgrade the database schema (also done at start)",
        "server_terms_help": "a server's own terms, as a term file for glossary_data/",
        "server_terms_guild": "the server's id",
        "server_terms_count": "{count} term(s) of server {guild}",
        "migrated": "Database {path}: migrations {applied} applied; schema {version}.",
        "migrate_current": "Database {path}: already at schema {version}; nothing to migrate.",
        "answered_help": "resolve every open question the current glossary now answers",
        "resolved_answered": "{count} open question(s) resolved: the current glossary answers them now",
        "ids_or_answered": "give the questions' ids, or --answered",
        "marked_resolved": "{changed} of {total} question(s) marked resolved",
        "marked_ignored": "{changed} of {total} question(s) marked ignored",
        "forecast_refused": "I cannot know the term of {day}: it is more than {years} years away, and by then the "
        "glossary (and with it the order of the terms) will have changed. Ask for a nearer date.",
        "forecast_note": " — a forecast: if the glossary and the schedule do not change until then",
        "daily_heading": "Term of the day ({day}, server {guild}){note}:\n",
        "limited": "{shown} of {total} questions (without --limit, all of them)",
        "no_gaps": "No unanswered questions with that filter.",
        "gaps_header": "{id:>5}  {count:>5}  {askers:>8}  {status:<9} {guild:<20} {last:<20} {query}",
        "gaps_columns": "id|times|people|status|server|last|query",
        "status_open": "open",
        "status_resolved": "resolved",
        "status_ignored": "ignored",
        "export_title": "Glosario IA — terms asked for and not found ({where})",
        "export_guild": "server {guild}",
        "export_everywhere": "every server",
    },
}

# argparse's own sentences (it asks gettext for them), in Spanish: the help screen and its errors.
ARGPARSE_ES = {
    "usage: ": "uso: ",
    "positional arguments": "argumentos",
    "options": "opciones",
    "show this help message and exit": "muestra esta ayuda y termina",
    "show program's version number and exit": "muestra la versión y termina",
    "the following arguments are required: %s": "faltan estos argumentos: %s",
    "unrecognized arguments: %s": "argumentos desconocidos: %s",
    "invalid choice: %(value)r (choose from %(choices)s)": "opción no válida: %(value)r (elige entre %(choices)s)",
    "invalid %(type)s value: %(value)r": "valor no válido: %(value)r",
    "argument %(argument_name)s: %(message)s": "argumento %(argument_name)s: %(message)s",
    "%(prog)s: error: %(message)s\n": "%(prog)s: error: %(message)s\n",
    "expected one argument": "falta su valor",
    "expected at least one argument": "falta al menos un valor",
    "ambiguous option: %(option)s could match %(matches)s": "opción ambigua: %(option)s puede ser %(matches)s",
    "not allowed with argument %s": "no se admite junto con %s",
    "one of the arguments %s is required": "hace falta uno de estos argumentos: %s",
    "ignored explicit argument %r": "se ignora el valor %r",
}


class Words:
    """The command line's sentences in one language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in TEXT else "es"

    def __call__(self, key: str, **values: Any) -> str:
        return TEXT[self.lang][key].format(**values)

    def count(self, key: str, n: int, **values: Any) -> str:
        """The sentence for `n` things: the key's `_1` form for exactly one."""
        return self(f"{key}_1" if n == 1 else key, **values)

    def speak_argparse(self) -> None:
        """Make argparse's own help and errors speak this language (it looks its sentences up through gettext)."""
        table = ARGPARSE_ES if self.lang == "es" else {}
        argparse._ = lambda message: table.get(message, message)  # type: ignore[attr-defined]
        argparse.ngettext = lambda one, many, n: table.get(one if n == 1 else many, one if n == 1 else many)  # type: ignore[attr-defined]
