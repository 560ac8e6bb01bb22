"""An answer of the bot drawn as Discord draws it (dark theme): the line saying who used which command, the bot's
name, its text, embeds, buttons and menus, and "Solo tú puedes ver esto" on a private answer. Only what the
documentation's pictures need of Discord's markdown: bold, italics, links, code, escapes and timestamps."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

MONTHS = (
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
)
BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link"}

STYLE = """
body { margin: 0; background: #313338; font: 15px/1.375 "Noto Sans", "DejaVu Sans", sans-serif; color: #dbdee1; }
#shot { width: 640px; padding: 14px 16px 16px 16px; background: #313338; }
.used { color: #949ba4; font-size: 13px; margin: 0 0 4px 56px; }
.used b { color: #dbdee1; font-weight: 600; } .used .cmd { color: #c9cdfb; }
.message { display: flex; gap: 16px; }
.avatar { flex: none; width: 40px; height: 40px; border-radius: 50%; background: #2a7d90; color: #fff;
  font-weight: 700; font-size: 17px; display: flex; align-items: center; justify-content: center; }
.body { min-width: 0; flex: 1; }
.name { color: #f2f3f5; font-weight: 600; } .app { background: #5865f2; color: #fff; font-size: 10px;
  font-weight: 700; padding: 1px 4px; border-radius: 3px; margin-left: 4px; vertical-align: 2px; }
.time { color: #949ba4; font-size: 12px; margin-left: 6px; }
.content { margin-top: 2px; white-space: pre-wrap; }
.embed { margin-top: 6px; background: #2b2d31; border-left: 4px solid; border-radius: 4px; padding: 10px 16px 14px 12px;
  max-width: 520px; }
.embed .author { font-size: 13px; font-weight: 600; color: #f2f3f5; margin-top: 4px; }
.embed .title { font-weight: 700; color: #f2f3f5; margin-top: 6px; } .embed .title a { color: #00a8fc; }
.embed .description { font-size: 14px; margin-top: 6px; white-space: pre-wrap; }
.fields { display: grid; grid-template-columns: repeat(12, 1fr); gap: 8px 12px; margin-top: 8px; font-size: 14px; }
.field .label { font-weight: 700; color: #f2f3f5; margin-bottom: 2px; }
.footer { font-size: 12px; color: #b5bac1; margin-top: 10px; }
a { color: #00a8fc; text-decoration: none; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 85%; background: #1e1f22; padding: 0 3px;
  border-radius: 3px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { height: 32px; padding: 0 16px; border-radius: 3px; color: #fff; font-size: 14px; font-weight: 500;
  display: inline-flex; align-items: center; gap: 6px; }
.button.secondary { background: #4e5058; } .button.primary { background: #5865f2; }
.button.success { background: #248046; } .button.danger { background: #da373c; }
.button.link { background: #4e5058; } .button.disabled { opacity: 0.5; }
.select { width: 400px; height: 38px; background: #1e1f22; border-radius: 4px; color: #949ba4; font-size: 14px;
  display: flex; align-items: center; justify-content: space-between; padding: 0 12px; box-sizing: border-box; }
.ephemeral { font-size: 12px; color: #949ba4; margin-top: 6px; } .ephemeral a { color: #00a8fc; }
"""


def page(invoked: str, answer: dict, now: datetime) -> str:
    """A whole HTML page with the answer to `invoked` (what the member used) in the element #shot."""
    words = html.escape(invoked).split(" ")
    named = next((i for i, word in enumerate(words) if word.endswith(":")), len(words))  # then the options
    command, options = " ".join(words[:named]), " ".join(words[named:])
    used_line = f'<span class="cmd">{command}</span> {options}'.strip() if command.startswith("/") else command
    parts = [
        f'<div class="used"><b>ana</b> ha usado {used_line}</div>',
        '<div class="message"><div class="avatar">G</div><div class="body">',
        f'<div><span class="name">Glosario IA</span><span class="app">APP</span>'
        f'<span class="time">hoy a las {now:%H:%M}</span></div>',
    ]
    if answer["content"]:
        parts.append(f'<div class="content">{markdown(answer["content"], now)}</div>')
    parts += [embed(e, now) for e in answer["embeds"]]
    parts += [row(items) for items in answer["components"]]
    if answer["ephemeral"]:
        parts.append('<div class="ephemeral">👁 Solo tú puedes ver esto · <a>Descartar mensaje</a></div>')
    parts.append("</div></div>")
    body = "\n".join(parts)
    return f'<!doctype html><html lang="es"><meta charset="utf-8"><style>{STYLE}</style><div id="shot">{body}</div>'


def embed(data: dict, now: datetime) -> str:
    colour = f"#{data.get('color', 0x1E1F22):06x}"
    out = [f'<div class="embed" style="border-color: {colour}">']
    if "author" in data:
        out.append(f'<div class="author">{html.escape(data["author"]["name"])}</div>')
    if "title" in data:
        title = html.escape(data["title"])
        out.append(f'<div class="title">{f"<a>{title}</a>" if data.get("url") else title}</div>')
    if "description" in data:
        out.append(f'<div class="description">{markdown(data["description"], now)}</div>')
    if data.get("fields"):
        out.append('<div class="fields">')
        for field, span in zip(data["fields"], spans(data["fields"]), strict=True):
            name, value = markdown(field["name"], now), markdown(field["value"], now)
            out.append(
                f'<div class="field" style="grid-column: span {span}"><div class="label">{name}</div>'
                f"<div>{value}</div></div>"
            )
        out.append("</div>")
    if "footer" in data:
        out.append(f'<div class="footer">{html.escape(data["footer"]["text"])}</div>')
    return "".join(out) + "</div>"


def spans(fields: list[dict]) -> list[int]:
    """How many of 12 columns each field takes: up to three inline fields in a row share it, as Discord lays
    them out; any other field takes the whole row."""
    out: list[int] = []
    run: list[dict] = []
    for field in [*fields, {"inline": False, "end": True}]:
        if field.get("inline") and len(run) < 3:
            run.append(field)
            continue
        out += [12 // len(run)] * len(run) if run else []
        run = [field] if field.get("inline") else []
        if not field.get("inline") and "end" not in field:
            out.append(12)
    return out


def row(items: list[dict]) -> str:
    out = []
    for item in items:
        if item["type"] == 3:  # a select menu: its placeholder and the arrow
            out.append(f'<div class="select">{html.escape(item.get("placeholder", ""))}<span>⌄</span></div>')
            continue
        style = BUTTON_STYLES[item.get("style", 2)] + (" disabled" if item.get("disabled") else "")
        emoji = html.escape(item["emoji"]["name"]) if item.get("emoji") else ""
        label = html.escape(item.get("label") or "")
        out.append(f'<span class="button {style}">{emoji}{label}</span>')
    return f'<div class="row">{"".join(out)}</div>'


def markdown(text: str, now: datetime) -> str:
    """Discord's markdown, as far as the bot's answers use it."""
    out = html.escape(text, quote=False)
    out = re.sub(r"&lt;t:(\d+)(?::([tTdDfFR]))?&gt;", lambda m: timestamp(int(m[1]), m[2] or "f", now), out)
    out = re.sub(r"\[([^\]]+)\]\((https?://[^)\s]+)\)", r"<a>\1</a>", out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![\w*\\])\*(?!\s)(.+?)(?<!\s)\*(?!\w)", r"<em>\1</em>", out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\\([\\*_`~|>#\-.])", r"\1", out)


def timestamp(seconds: int, style: str, now: datetime) -> str:
    """A Discord timestamp as a member in Spain would see it (in UTC here)."""
    when = datetime.fromtimestamp(seconds, UTC)
    if style == "R":
        days = (now - when).days
        return "hace un momento" if days == 0 and now >= when else f"hace {days} días"
    day = f"{when.day} de {MONTHS[when.month - 1]} de {when.year}"
    return {"d": f"{when:%d/%m/%Y}", "t": f"{when:%H:%M}"}.get(style, f"{day} {when:%H:%M}" if style != "D" else day)
