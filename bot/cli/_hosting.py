"""The operator's commands: health (Docker's HEALTHCHECK) and invite-url (the links that add the bot)."""

from __future__ import annotations

import sys

from bot.cli._call import EXIT_FAIL, EXIT_OK, EXIT_USAGE, Call

# View Channel, Send Messages, Embed Links, Attach Files: what the features need, nothing more; and Read Message
# History, with which a scheduled post retaken after a crash is looked for in its channel before it is sent again.
INVITE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16)


def health(call: Call) -> int:
    """`health`: 0 if the bot is connected to Discord and its database opens, 1 otherwise, with the reason."""
    from datetime import UTC, datetime

    from bot.app.health import check

    say = call.say
    found = check(call.settings.heartbeat_file, call.settings.database, datetime.now(UTC))
    count = found.details.get("count")  # a reason that counts something agrees with it
    reason = say(found.reason, **found.details) if count is None else say.count(found.reason, count, **found.details)
    print(say("healthy" if found.healthy else "unhealthy", reason=reason))
    return EXIT_OK if found.healthy else EXIT_FAIL


def invite(call: Call) -> int:
    """`invite-url [--app-id ID]`: the links that add the bot to a server or to a member's own account."""
    settings, say = call.settings, call.say
    app_id = call.args.app_id or settings.application_id or application_id_from_token(settings.token)
    if app_id is None:
        print(say("no_app_id"), file=sys.stderr)
        return EXIT_USAGE
    print(say("invite_server", url=invite_url(app_id)))
    print(say("invite_user", url=user_install_url(app_id)))
    return EXIT_OK


def invite_url(application_id: int) -> str:
    """The bot in a server (a server install: the bot user and the commands, with the permissions it needs)."""
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&integration_type=0&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
    )


def user_install_url(application_id: int) -> str:
    """The app on a member's own account (a user install: the commands anywhere, no bot user, no permissions)."""
    return f"https://discord.com/oauth2/authorize?client_id={application_id}&integration_type=1&scope=applications.commands"


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
