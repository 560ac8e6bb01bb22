"""Text from Discord is made valid where it enters (kit.guard.make_valid): every lone surrogate at any depth of an
interaction's data becomes U+FFFD, and everything else is left as it came."""

import json

from bot.discord_app.kit.guard import make_valid


def test_every_lone_surrogate_is_repaired_at_any_depth():
    data = {
        "name": "termino\ud800",
        "type": 1,
        "options": [
            {"name": "termino", "type": 3, "value": "tokeni\udc00zación", "options": [{"value": "\ud83d"}]},
            "suelto \udfff",
            ["más \ud800 abajo", 7, None, True],
        ],
    }
    make_valid(data)
    assert data == {
        "name": "termino\ufffd",
        "type": 1,
        "options": [
            {"name": "termino", "type": 3, "value": "tokeni\ufffdzación", "options": [{"value": "\ufffd"}]},
            "suelto \ufffd",
            ["más \ufffd abajo", 7, None, True],
        ],
    }
    json.dumps(data, ensure_ascii=False).encode()  # now any encoder takes it


def test_valid_text_and_everything_else_is_left_as_it_came():
    option = {"name": "termino", "type": 3, "value": "ñandú 🦤 aprendizaje"}
    data = {"id": "1234", "name": "termino", "type": 1, "options": [option], "resolved": {}}
    make_valid(data)
    assert data == {"id": "1234", "name": "termino", "type": 1, "options": [option], "resolved": {}}
    assert data["options"][0] is option and option["value"] == "ñandú 🦤 aprendizaje"
