"""The legal-play searches behind :mod:`scoring.rules.board.legal`: :mod:`.short` for the
backgammon family's short geometry (the fast path), :mod:`.general` for every variant and rule."""
