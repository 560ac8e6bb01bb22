"""The gap's life: gaps.py is the moderators' review (a page of the list, ignoring, reopening, resolving) and
exports.py the files editors take away (YAML stubs in the term-file format, CSV, zipped when large)."""
