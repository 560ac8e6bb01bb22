"""The term files an import writes (`term_file_text`): YAML reads back exactly the nodes that were checked,
whatever the text (any that UTF-8 can hold), and a text is plain only where YAML reads it as text."""

from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app.interchange.term_file_text import term_file_text
from bot.core.loader import data_node, reads_as_other

_LOADER = getattr(yaml, "CBaseLoader", yaml.BaseLoader)  # the loader's own


def shape(node: yaml.Node) -> object:
    """A node's values and, for text, whether it is to be read as text (quoted, or plain and reading as text)."""
    if isinstance(node, yaml.ScalarNode):
        return node.value, bool(node.style) or not reads_as_other(node.value)
    if isinstance(node, yaml.SequenceNode):
        return [shape(item) for item in node.value]
    return [(shape(key), shape(value)) for key, value in node.value]


TEXT = st.text(st.characters(codec="utf-8"), max_size=40) | st.sampled_from(
    ["yes", "No", "null", "~", "1.5", "0x1F", "a: b", "a #b", "a:", "-a", "? a", "'a'", '"a"', "a\u2028b", "\ufeffa"]
)
VALUE = st.recursive(
    TEXT, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3), max_leaves=8
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(TEXT, VALUE, min_size=1, max_size=4))
def test_any_entry_reads_back_as_the_nodes_that_were_checked(data):
    node = data_node(data)
    assert shape(yaml.compose(term_file_text(node), Loader=_LOADER)) == shape(node)


def test_a_term_file_is_written_in_block_style_plain_where_it_reads_the_same():
    node = data_node({"category": "C", "terms": [{"term": "Sí", "aliases": ["yes", "a: b"], "links": []}]})
    assert term_file_text(node) == 'category: C\nterms:\n- term: Sí\n  aliases:\n  - "yes"\n  - "a: b"\n  links: []\n'


def test_a_number_meant_as_one_is_written_as_one():
    node = data_node({"term": 5, "definition": None})
    assert yaml.safe_load(term_file_text(node)) == {"term": 5, "definition": None}
