"""A record's replay, made once: kept with its match file and in this process.

Replaying a 25-game match takes tens of milliseconds and a 512 KB file seconds; every
viewer step, decision page and download would otherwise replay it again (issue 31: a
2.9 MB paste took 9.8 s per view). The replay — frames and problems, a
:class:`~scoring.viewer.frames.RecordView` — is kept on the :class:`MatchFile` it came
from, tagged with the text, the game and a digest of the rules core, so a file replayed
under older rules is replayed again (once) rather than trusted. Only what this module
wrote into our own database is unpickled.
"""

from __future__ import annotations

import gc
import hashlib
import pickle
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path

from scoring.models import MatchFile
from scoring.viewer.frames import Frame, GameView, RecordView, view_text

_FRAME_FIELDS = tuple(f.name for f in fields(Frame))
_GAME_FIELDS = tuple(f.name for f in fields(GameView))


class _StoredFrames(Sequence):
    """A stored replay's frames, each made into a :class:`Frame` only when a page asks for it.

    Rows of plain values load ~15× faster than pickled frames (a view shows one position
    and one game's moves, not the 1,300 positions of a 25-game match).
    """

    def __init__(self, rows: list[tuple]):
        self._rows = rows
        self._made: dict[int, Frame] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def _make(self, i: int) -> Frame:
        frame = self._made.get(i)
        if frame is None:
            frame = self._made[i] = Frame(*self._rows[i])
        return frame

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self._make(i) for i in range(*index.indices(len(self._rows)))]
        if index < 0:
            index += len(self._rows)
        if not 0 <= index < len(self._rows):
            raise IndexError(index)
        return self._make(index)


def _pack(view: RecordView) -> bytes:
    data = {
        "head": (view.variant, view.kind, view.length, tuple(view.players), view.numbering),
        "frames": [tuple(getattr(f, n) for n in _FRAME_FIELDS) for f in view.frames],
        "games": [tuple(getattr(g, n) for n in _GAME_FIELDS) for g in view.games],
        "problems": list(view.problems),
        "problem_frames": list(view.problem_frames),
    }
    return zlib.compress(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL), 6)


def _unpack(blob: bytes) -> RecordView:
    # Loading makes tens of thousands of small tuples; the cycle collector would walk the
    # whole heap of a busy worker several times meanwhile (none of them can form a cycle).
    enabled = gc.isenabled()
    gc.disable()
    try:
        data = pickle.loads(zlib.decompress(blob))  # noqa: S301 (only what _pack wrote into our database)
    finally:
        if enabled:
            gc.enable()
    variant, kind, length, players, numbering = data["head"]
    return RecordView(
        variant, kind, length, players, numbering,
        frames=_StoredFrames(data["frames"]),  # type: ignore[arg-type]
        games=[GameView(*g) for g in data["games"]],
        problems=data["problems"],
        problem_frames=data["problem_frames"],
    )

CACHE_SIZE = 16
_VIEWS: OrderedDict[str, RecordView] = OrderedDict()


def _rules_digest() -> str:
    """What the replay depends on: the rules core and the frame builder, as source."""
    h = hashlib.sha256()
    base = Path(__file__).resolve().parent.parent
    for path in sorted([*base.joinpath("rules").glob("*.py"), *base.joinpath("viewer").glob("*.py")]):
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


RULES_DIGEST = _rules_digest()


def replay_key(text: str, variant: str) -> str:
    return f"{hashlib.sha256(text.encode()).hexdigest()[:40]}:{variant}:{RULES_DIGEST}"


def _remember(key: str, view: RecordView) -> RecordView:
    _VIEWS[key] = view
    _VIEWS.move_to_end(key)
    while len(_VIEWS) > CACHE_SIZE:
        _VIEWS.popitem(last=False)
    return view


def keep(mf: MatchFile, view: RecordView, variant: str) -> None:
    """Store ``view`` as ``mf``'s replay (compressed) for the pages that show it later."""
    mf.replay = _pack(view)
    mf.replay_key = replay_key(mf.text, variant)
    if mf.pk:
        mf.save(update_fields=["replay", "replay_key"])
    _remember(mf.replay_key, view)


def view_for(text: str, variant: str, mf: MatchFile | None = None) -> RecordView:
    """The replay of ``text``: from this process, else from ``mf``'s stored replay, else made
    now (and then stored on ``mf``). Views are never changed once built: sharing is safe."""
    key = replay_key(text, variant)
    view = _VIEWS.get(key)
    if view is not None:
        _VIEWS.move_to_end(key)
        return view
    if mf is not None and mf.replay_key == key and mf.replay:
        return _remember(key, _unpack(bytes(mf.replay)))
    view = view_text(text, variant=variant)
    if mf is not None and mf.text == text:
        keep(mf, view, variant)
    return _remember(key, view)


__all__ = ["RULES_DIGEST", "keep", "replay_key", "view_for"]
