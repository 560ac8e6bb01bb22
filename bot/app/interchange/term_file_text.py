"""Term files as an import writes them: YAML text, in block style, each scalar plain where that is safe and
double-quoted otherwise, that YAML reads back as exactly the nodes the loader checked."""

from __future__ import annotations

import re
from functools import lru_cache

import yaml

from bot.core.loader import reads_as_other

# A text written plain (unquoted) only when nothing in it can be read otherwise: a letter first (no indicator,
# number, date or null can start so; yes/no/true/… are quoted by `data_node`), every character printable in YAML,
# no line break or tab, no ": " or " #", nothing at the end that YAML would drop or read as a key.
_PLAIN = re.compile(r"[^\W\d_][^\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]*")
# What a double-quoted text must escape: the quote and the backslash, and whatever is no printable YAML character or
# is a line break (written raw, a line break would be folded to a space).
_ESCAPED = re.compile('[\\\\"\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]')
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(found: re.Match) -> str:
    char = found.group()
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02X}" if code < 0x100 else f"\\u{code:04X}"


def _scalar(node: yaml.ScalarNode) -> str:
    """A scalar as YAML reads it back the same: plain where that is safe, else double-quoted with escapes. A node
    that is meant to be read as something else than text (`data_node` writes a number or null so) is written
    as it is."""
    value = node.value
    if node.style is None:
        if _PLAIN.fullmatch(value) and ": " not in value and " #" not in value and value[-1] not in ": ":
            return value
        if reads_as_other(value):
            return value
    return '"' + _ESCAPED.sub(_escape, value) + '"'


@lru_cache(maxsize=256)  # the keys of term files: a few names, each written for every entry
def _key(value: str, style: str | None) -> str:
    return _scalar(yaml.ScalarNode(_STR, value, style=style))


_STR = "tag:yaml.org,2002:str"


def _mapping_lines(node: yaml.MappingNode, indent: str, out: list[str], first: str | None = None) -> None:
    """A block mapping at `indent`; its first key after `first` (a sequence item's "- ") when given."""
    for n, (key, value) in enumerate(node.value):
        lead = (first if n == 0 and first is not None else indent) + _key(key.value, key.style) + ":"
        _value_lines(lead, value, indent, out)


def _value_lines(lead: str, value: yaml.Node, indent: str, out: list[str]) -> None:
    if isinstance(value, yaml.ScalarNode):
        out.append(f"{lead} {_scalar(value)}")
    elif not value.value:  # an empty list or mapping, in flow style as YAML writes it
        out.append(f"{lead} {'[]' if isinstance(value, yaml.SequenceNode) else '{}'}")
    elif isinstance(value, yaml.SequenceNode):
        out.append(lead)
        _sequence_lines(value, indent, out)  # indentless, as libyaml writes a list under a key
    else:
        out.append(lead)
        _mapping_lines(value, indent + "  ", out)


def _sequence_lines(node: yaml.SequenceNode, indent: str, out: list[str]) -> None:
    for item in node.value:
        if isinstance(item, yaml.MappingNode) and item.value:
            _mapping_lines(item, indent + "  ", out, first=indent + "- ")
        else:
            _value_lines(indent + "-", item, indent + "  ", out)


def term_file_text(root: yaml.Node) -> str:
    """A term file's nodes as YAML text, in block style, each scalar plain where that is safe and double-quoted
    otherwise: what libyaml's emitter wrote, at a fifth of its cost for the 600,000 values of 10,000 entries (it
    asks PyYAML's resolver twice about each). `validate` reads back exactly these nodes (tests hold it for any
    text)."""
    out: list[str] = []
    if isinstance(root, yaml.MappingNode) and root.value:
        _mapping_lines(root, "", out)
    elif isinstance(root, yaml.SequenceNode) and root.value:
        _sequence_lines(root, "", out)
    else:
        _value_lines("", root, "", out)
        out[0] = out[0].lstrip()
    return "\n".join(out) + "\n"
