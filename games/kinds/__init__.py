"""The games, one package each, named by its kind: ``games/kinds/<kind>/``.

A package holds everything of its game: its rules (``rules.py``, pure), its computer
player, its board data, its action words, its text look and JSON fields, its partials
(``templates/kinds/<kind>.html``), its stylesheet and script if any (``static/kinds/``),
and its ``GAME`` entry, which :mod:`games.catalog` registers in one line.
"""
