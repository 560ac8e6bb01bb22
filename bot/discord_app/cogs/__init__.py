"""Cogs: one feature each, thin."""
