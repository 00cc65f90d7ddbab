"""Match rules: the options a match is played under, the cube, and checking a reported result.

:mod:`.spec` (the options and the result types every match module shares), :mod:`.categories`
(the book's player categories and each round's match rules), :mod:`.cube` (the doubling cube
and the davé ladder), :mod:`.input` (untrusted JSON into typed data), :mod:`.ledger` (a result
game by game), :mod:`.summary` (a bare final score), :mod:`.result_kinds` (forfeits, lateness,
the clock) and :mod:`.check` (the entry point: :func:`~scoring.rules.match.check.validate_match`).
"""
