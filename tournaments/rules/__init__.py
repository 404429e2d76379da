"""The tournaments' rules: pairing and scoring, pure Python (no Django, no I/O)."""
