"""What Discord refuses in a message, an interaction's answer or a form, as the fake Discord checks it: each check
names where the problem is and what it is, and the fake answers a body with one as Discord does (400)."""

from __future__ import annotations

EMBED_LIMITS = {"title": 256, "description": 4096, "footer": 2048, "author": 256, "name": 256, "value": 1024}


def message_problem(body: dict) -> str | None:
    """Why Discord would refuse this message (or interaction reply), or None: each part of each embed within
    its limit, at most 25 fields, 6,000 characters across all embeds, 2,000 of content."""
    data = body.get("data") if isinstance(body.get("data"), dict) else body
    content = data.get("content") or ""
    if len(content) > 2000:
        return f"content: {len(content)} > 2000"
    total = 0
    for n, embed in enumerate(data.get("embeds") or []):
        parts = {
            "title": embed.get("title") or "",
            "description": embed.get("description") or "",
            "footer": (embed.get("footer") or {}).get("text") or "",
            "author": (embed.get("author") or {}).get("name") or "",
        }
        fields = embed.get("fields") or []
        if len(fields) > 25:
            return f"embeds.{n}.fields: {len(fields)} > 25"
        for i, f in enumerate(fields):
            parts[f"fields.{i}.name"], parts[f"fields.{i}.value"] = f.get("name") or "", f.get("value") or ""
            if not parts[f"fields.{i}.value"]:
                return f"embeds.{n}.fields.{i}.value: empty"
        for key, text in parts.items():
            limit = EMBED_LIMITS[key.rsplit(".", 1)[-1]]
            if len(text) > limit:
                return f"embeds.{n}.{key}: {len(text)} > {limit}"
            total += len(text)
    if total > 6000:
        return f"embeds: {total} characters in all > 6000"
    if body.get("type") == 9 and len(data.get("title") or "") > 45:  # a form
        return f"title: {len(data['title'])} > 45"
    if body.get("type") == 8:  # autocomplete's choices
        return choices_problem(data.get("choices") or [])
    return components_problem(data.get("components") or [])


def choices_problem(choices: list) -> str | None:
    """Why Discord would refuse these autocomplete choices, or None: at most 25, each name 1 to 100 characters, each
    string value at most 100."""
    if len(choices) > 25:
        return f"choices: {len(choices)} > 25"
    for c, choice in enumerate(choices):
        if not 1 <= len(choice.get("name") or "") <= 100:
            return f"choices.{c}.name: {len(choice.get('name') or '')} characters, not 1 to 100"
        if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
            return f"choices.{c}.value: {len(choice['value'])} > 100"
    return None


# The longest text of each part of a component, by its type (1 a row, 2 a button, 3 a menu, 4 a form's text input).
COMPONENT_LIMITS = {
    2: {"label": 80},
    3: {"placeholder": 150},
    4: {"label": 45, "placeholder": 100, "value": 4000, "max_length": 4000},
}
OPTION_LIMITS = {"label": 100, "value": 100, "description": 100}


def components_problem(rows: list) -> str | None:
    """Why Discord would refuse these components, or None: at most 5 rows of at most 5 buttons (or one menu), each
    custom_id at most 100 characters, a button's label at most 80, a menu's options at most 25 (each label, value
    and description at most 100), a form's text input label at most 45 and its text at most 4,000."""
    if len(rows) > 5:
        return f"components: {len(rows)} rows > 5"
    for r, row in enumerate(rows):
        items = row.get("components") or []
        if not 1 <= len(items) <= 5:
            return f"components.{r}: {len(items)} items"
        for i, item in enumerate(items):
            where = f"components.{r}.components.{i}"
            if len(item.get("custom_id") or "") > 100:
                return f"{where}.custom_id: {len(item['custom_id'])} > 100"
            for key, limit in COMPONENT_LIMITS.get(item.get("type"), {}).items():
                size = item.get(key) or 0
                size = size if isinstance(size, int) else len(size)
                if size > limit:
                    return f"{where}.{key}: {size} > {limit}"
            options = item.get("options") or []
            if len(options) > 25:
                return f"{where}.options: {len(options)} > 25"
            for o, option in enumerate(options):
                for key, limit in OPTION_LIMITS.items():
                    if len(option.get(key) or "") > limit:
                        return f"{where}.options.{o}.{key}: {len(option[key])} > {limit}"
    return None
