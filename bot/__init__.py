"""Glosario IA bot: the AI glossary for Spanish-speaking ML teams on Discord."""

__version__ = "0.1.0"
