"""UI strings in one place: Spanish (default) and English, chosen by the user's Discord locale."""

from __future__ import annotations

from datetime import date
from typing import Any

STRINGS: dict[str, dict[str, str]] = {
    "es": {
        "english": "Inglés",
        "category": "Categoría",
        "aliases": "También se busca como",
        "related": "Ver también",
        "links": "Enlaces",
        "not_found": "**{query}** todavía no está en el glosario. Se lo he apuntado a los editores para que lo añadan.",
        "did_you_mean": "No encuentro **{query}** tal cual. ¿Quisiste decir…?",
        "cooldown": "Vas muy rápido: espera {seconds} s y vuelve a preguntar.",
        "term_gone": "Ese término ya no está en el glosario.",
        "error": "Algo ha fallado al responder. Ya está registrado; prueba de nuevo en un momento.",
        "empty_query": "Escribe el término que quieres consultar, por ejemplo `/termino horovod`.",
        "restarting": "Me estoy reiniciando: vuelve a preguntar en unos segundos.",
        "daily_heading": "Término del día · {date}",
        "daily_no_permission": "Necesitas el permiso «Gestionar servidor» para configurar el término del día.",
        "daily_bad_time": "«{value}» no es una hora válida: escríbela como HH:MM, por ejemplo 09:30.",
        "daily_bad_zone": "«{value}» no es una zona horaria que conozca: usa un nombre IANA como Europe/Madrid o America/Mexico_City.",
        "daily_bad_channel": "Elige un canal de texto de este servidor.",
        "daily_missing_perms": "No puedo publicar en {channel}: me falta {perms}. Dame ese permiso en el canal (o elige otro) y vuelve a configurarlo.",
        "daily_configured": "Listo: publicaré el término del día en {channel} a las {time} ({zone}), {days}.\nPróxima publicación: {next}.",
        "daily_days_todos": "todos los días",
        "daily_days_laborables": "de lunes a viernes",
        "daily_disabled": "Término del día desactivado. Puedes volver a activarlo con `/glosario-admin diario configurar`.",
        "daily_not_configured": "El término del día no está configurado en este servidor. Actívalo con `/glosario-admin diario configurar`.",
        "daily_status": "**Término del día**: {state}\nCanal: {channel}\nHora: {time} ({zone}), {days}\nPróxima publicación: {next}\nÚltima publicación: {last}",
        "daily_state_on": "activado",
        "daily_state_off": "desactivado",
        "daily_last_none": "ninguna todavía",
        "daily_last_failed": "{date}: no se pudo publicar ({detail})",
        "daily_error_line": "\n⚠️ Último problema ({at}): {detail}",
        "daily_err_channel_gone": "el canal {channel} ya no existe",
        "daily_err_perms": "me falta {perms} en {channel}",
        "perm_view_channel": "«Ver canal»",
        "perm_send_messages": "«Enviar mensajes»",
        "perm_embed_links": "«Insertar enlaces»",
        "weekdays": "lunes martes miércoles jueves viernes sábado domingo",
        "months": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
        "date_format": "{weekday}, {day} de {month} de {year}",
    },
    "en": {
        "english": "English",
        "category": "Category",
        "aliases": "Also searched as",
        "related": "See also",
        "links": "Links",
        "not_found": "**{query}** is not in the glossary yet. I have let the editors know so they can add it.",
        "did_you_mean": "I cannot find **{query}** as written. Did you mean…?",
        "cooldown": "You are going fast: wait {seconds} s and ask again.",
        "term_gone": "That term is no longer in the glossary.",
        "error": "Something went wrong while answering. It has been logged; try again in a moment.",
        "empty_query": "Type the term you want to look up, for example `/term horovod`.",
        "restarting": "I am restarting: ask again in a few seconds.",
        "daily_heading": "Term of the day · {date}",
        "daily_no_permission": "You need the Manage Server permission to set up the term of the day.",
        "daily_bad_time": "“{value}” is not a valid time: write it as HH:MM, for example 09:30.",
        "daily_bad_zone": "“{value}” is not a time zone I know: use an IANA name such as Europe/Madrid or America/New_York.",
        "daily_bad_channel": "Choose a text channel of this server.",
        "daily_missing_perms": "I cannot post in {channel}: I am missing {perms}. Grant it in that channel (or pick another) and set it up again.",
        "daily_configured": "Done: I will post the term of the day in {channel} at {time} ({zone}), {days}.\nNext post: {next}.",
        "daily_days_todos": "every day",
        "daily_days_laborables": "Monday to Friday",
        "daily_disabled": "Term of the day turned off. Turn it on again with `/glosario-admin diario configurar`.",
        "daily_not_configured": "The term of the day is not set up in this server. Turn it on with `/glosario-admin diario configurar`.",
        "daily_status": "**Term of the day**: {state}\nChannel: {channel}\nTime: {time} ({zone}), {days}\nNext post: {next}\nLast post: {last}",
        "daily_state_on": "on",
        "daily_state_off": "off",
        "daily_last_none": "none yet",
        "daily_last_failed": "{date}: could not post ({detail})",
        "daily_error_line": "\n⚠️ Last problem ({at}): {detail}",
        "daily_err_channel_gone": "channel {channel} no longer exists",
        "daily_err_perms": "missing {perms} in {channel}",
        "perm_view_channel": "View Channel",
        "perm_send_messages": "Send Messages",
        "perm_embed_links": "Embed Links",
        "weekdays": "Monday Tuesday Wednesday Thursday Friday Saturday Sunday",
        "months": "January February March April May June July August September October November December",
        "date_format": "{weekday}, {day} {month} {year}",
    },
}


def language(locale: object) -> str:
    """'en' for English Discord locales (en-US, en-GB), 'es' for everything else."""
    return "en" if str(getattr(locale, "value", locale) or "").startswith("en") else "es"


def t(locale: object, key: str, **values: Any) -> str:
    return STRINGS[language(locale)][key].format(**values)


def long_date(locale: object, day: date) -> str:
    """'miércoles, 2 de diciembre de 2026' / 'Wednesday, 2 December 2026'."""
    strings = STRINGS[language(locale)]
    return strings["date_format"].format(
        weekday=strings["weekdays"].split()[day.weekday()],
        day=day.day,
        month=strings["months"].split()[day.month - 1],
        year=day.year,
    )
