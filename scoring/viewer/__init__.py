"""The record viewer's pure core: a record (book text or ``.mat``) → frames → SVG boards.

:mod:`scoring.viewer.frames` replays a record on the rules core once and keeps every
position with its dice, move (in both numberings), cube, match score, GNU IDs and the
problems found there; :mod:`scoring.viewer.svg` draws one frame's board as SVG text in the
book's orientation. No Django: the pages, the bench and the tests call the same functions.
"""
