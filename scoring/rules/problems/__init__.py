"""The catalogues of problem codes, one a namespace: ``record.*`` (:mod:`.record`), ``match.*`` (:mod:`.match`)
and ``live.*`` (:mod:`.live`, the live board).

Below the board, the records and the match rules because all of them report in these words
(an illegal play is a ``record.*`` problem whether the board's check or the record reader finds
it). The problem type itself and the catalogue machinery are :mod:`scoring.rules.errors`.
"""
