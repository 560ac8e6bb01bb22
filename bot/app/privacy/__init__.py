"""Erasure on request (erasure.py): a member or a whole server forgotten from the database, the write queue and
the journals, by one action that every surface calls."""
