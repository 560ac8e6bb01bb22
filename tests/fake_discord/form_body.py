"""What Discord refuses in a message, an interaction's answer or a form, as the fake Discord checks it: each check
names where the problem is and what it is, and the fake answers a body with one as Discord does (400)."""

from __future__ import annotations

import re

EMBED_LIMITS = {"title": 256, "description": 4096, "footer": 2048, "author": 256, "name": 256, "value": 1024}


def message_problem(body: dict) -> str | None:
    """Why Discord would refuse this message (or interaction reply), or None: each part of each embed within
    its limit, at most 25 fields, 6,000 characters across all embeds, 2,000 of content; and its components (a form's,
    autocomplete's choices) as below."""
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
                return f"embeds.{n}.fields.{i}.value: BASE_TYPE_REQUIRED"
        for key, text in parts.items():
            limit = EMBED_LIMITS[key.rsplit(".", 1)[-1]]
            if len(text) > limit:
                return f"embeds.{n}.{key}: {len(text)} > {limit}"
            total += len(text)
    if total > 6000:
        return f"embeds: MAX_EMBED_SIZE_EXCEEDED ({total} characters in all)"
    if body.get("type") == 9:  # a form
        return form_problem(data)
    if body.get("type") == 8:  # autocomplete's choices
        return choices_problem(data.get("choices") or [])
    return components_problem(data.get("components") or [])


def form_problem(data: dict) -> str | None:
    """Why Discord would refuse this form (a modal), or None: a custom_id of 1 to 100 characters, a title of at most
    45, and 1 to 5 rows of components."""
    if not 1 <= len(data.get("custom_id") or "") <= 100:
        return f"custom_id: {len(data.get('custom_id') or '')}, not 1 to 100"
    if len(data.get("title") or "") > 45:
        return f"title: {len(data['title'])} > 45"
    return components_problem(data.get("components") or [], form=True)


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


# Discord's components reference (developers/components/reference, and its modal in receiving-and-responding):
# a button is 2, a string select 3, a form's text input 4, the user, role, mentionable and channel selects 5 to 8.
SELECTS = {3, 5, 6, 7, 8}
LINK, PREMIUM = 5, 6  # the button styles that do not send an interaction: no custom_id
# The longest text (or the highest number) of each part of a component, by its type, and the lowest numbers.
COMPONENT_LIMITS = {
    2: {"label": 80, "url": 512},
    **{kind: {"placeholder": 150, "min_values": 25, "max_values": 25} for kind in SELECTS},
    4: {"label": 45, "placeholder": 100, "value": 4000, "min_length": 4000, "max_length": 4000},
}
LOWEST = {"min_values": 0, "max_values": 1, "min_length": 0, "max_length": 1}
OPTION_LIMITS = {"label": 100, "value": 100, "description": 100}


def components_problem(rows: list, *, form: bool = False) -> str | None:
    """Why Discord would refuse these components, or None: at most 5 rows (a form: 1 to 5), each of 1 to 5 buttons or
    one select alone; every custom_id 1 to 100 characters and used once, but none on a link button (which has a url);
    a select's 1 to 25 options with distinct values and at least max_values of them (min_values at most max_values);
    and each text within its limit (a button's label 80, a form's text input label 45 and its text 4,000…)."""
    if len(rows) > 5:
        return f"components: {len(rows)} > 5"
    if form and not rows:
        return "components: 0, not 1 to 5"
    custom_ids: set[str] = set()
    for r, row in enumerate(rows):
        items = row.get("components") or []
        if not 1 <= len(items) <= 5:
            return f"components.{r}.components: {len(items)}, not 1 to 5"
        for i, item in enumerate(items):
            where = f"components.{r}.components.{i}"
            if i > 0 and SELECTS & {item.get("type"), items[0].get("type")}:  # a select fills its row
                return f"{where}: COMPONENT_LAYOUT_WIDTH_EXCEEDED"
            if (problem := item_problem(item, where)) is not None:
                return problem
            if item.get("custom_id") in custom_ids:  # disabled or not
                return f"{where}.custom_id: COMPONENT_CUSTOM_ID_DUPLICATED"
            if item.get("custom_id"):
                custom_ids.add(item["custom_id"])
    return None


def item_problem(item: dict, where: str) -> str | None:
    """Why Discord would refuse this button, select or text input (at `where`), or None."""
    kind, custom_id = item.get("type"), item.get("custom_id")
    if kind == 2 and item.get("style") == LINK:
        if custom_id is not None:
            return f"{where}.custom_id: BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE"
        if not item.get("url"):
            return f"{where}.url: BASE_TYPE_REQUIRED"
    elif kind == 2 and item.get("url") is not None:
        return f"{where}.url: BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE"
    elif kind == 2 and item.get("style") != PREMIUM and not custom_id:
        return f"{where}.custom_id: BUTTON_COMPONENT_CUSTOM_ID_REQUIRED"
    elif (kind in SELECTS or kind == 4) and not custom_id:
        return f"{where}.custom_id: BASE_TYPE_REQUIRED"
    if len(custom_id or "") > 100:
        return f"{where}.custom_id: {len(custom_id)} > 100"
    for key, limit in COMPONENT_LIMITS.get(kind, {}).items():
        size = item.get(key) or 0
        size = size if isinstance(size, int) else len(size)
        if size > limit:
            return f"{where}.{key}: {size} > {limit}"
        if key in LOWEST and key in item and item[key] < LOWEST[key]:
            return f"{where}.{key}: {item[key]} < {LOWEST[key]}"
    return options_problem(item, where) if kind == 3 else None


def options_problem(select: dict, where: str) -> str | None:
    """Why Discord would refuse this string select's options, or None."""
    options = select.get("options") or []
    if not 1 <= len(options) <= 25:
        return f"{where}.options: {len(options)}, not 1 to 25"
    least, most = select.get("min_values", 1), select.get("max_values", 1)
    if least > most:
        return f"{where}.min_values: {least} > {most}"
    if len(options) < most:  # (Discord names the options: fewer than a member may choose)
        return f"{where}.options: {len(options)} < {most}"
    values: set[str] = set()
    for o, option in enumerate(options):
        for key, limit in OPTION_LIMITS.items():
            if len(option.get(key) or "") > limit:
                return f"{where}.options.{o}.{key}: {len(option[key])} > {limit}"
        if option.get("value") in values:
            return f"{where}.options.{o}: SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"
        values.add(option.get("value"))
    return None


# Discord's words for the refusals a check names by Discord's code (as in its answers quoted in public bug reports).
DISCORD_WORDS = {
    "BASE_TYPE_REQUIRED": "This field is required",
    "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED": "A custom id is required",
    "BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE": "A custom id and url cannot both be specified",
    "COMPONENT_CUSTOM_ID_DUPLICATED": "Component custom id cannot be duplicated",
    "COMPONENT_LAYOUT_WIDTH_EXCEEDED": "The specified component exceeds the maximum width",
    "MAX_EMBED_SIZE_EXCEEDED": "Embed size exceeds maximum size of 6000",
    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED": "The specified option value is already used",
}
NUMBERS = {"min_values", "max_values", "min_length", "max_length"}  # (Discord words a number's bound differently)


def invalid_form_body(problem: str, body: dict) -> dict:
    """Discord's answer (with status 400) to a body with this problem ("where: what"): "Invalid Form Body", code
    50035, and an `errors` object nested along the problem's path (under `data` in an interaction's answer) that
    ends in Discord's code and words, as discord.py reads them ("In data.components.0…: Must be 5 or fewer…")."""
    where, _, what = problem.partition(": ")
    errors: dict = {"_errors": [_discord_error(where.rsplit(".", 1)[-1], what)]}
    for part in reversed(where.split(".")):
        errors = {part: errors}
    if isinstance(body.get("data"), dict):
        errors = {"data": errors}
    return {"message": "Invalid Form Body", "code": 50035, "errors": errors}


def _discord_error(field: str, what: str) -> dict:
    code = what.split(" ", 1)[0]
    if code in DISCORD_WORDS:
        return {"code": code, "message": DISCORD_WORDS[code]}
    if (between := re.match(r"-?\d+\D*, not (\d+) to (\d+)$", what)) is not None:
        return {"code": "BASE_TYPE_BAD_LENGTH", "message": f"Must be between {between[1]} and {between[2]} in length."}
    if (bound := re.match(r"-?\d+ ([<>]) (\d+)$", what)) is None:
        raise ValueError(f"the fake Discord has no words of Discord's for {what!r}")
    over, limit = bound[1] == ">", bound[2]
    if field in NUMBERS:
        side = "less" if over else "greater"
        code = "NUMBER_TYPE_MAX" if over else "NUMBER_TYPE_MIN"
        return {"code": code, "message": f"int value should be {side} than or equal to {limit}."}
    code = "BASE_TYPE_MAX_LENGTH" if over else "BASE_TYPE_MIN_LENGTH"
    return {"code": code, "message": f"Must be {limit} or {'fewer' if over else 'more'} in length."}
