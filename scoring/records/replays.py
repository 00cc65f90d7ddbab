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

import hashlib
import pickle
import zlib
from collections import OrderedDict
from pathlib import Path

from scoring.models import MatchFile
from scoring.viewer.frames import RecordView, view_text

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
    mf.replay = zlib.compress(pickle.dumps(view, protocol=pickle.HIGHEST_PROTOCOL), 6)
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
        return _remember(key, pickle.loads(zlib.decompress(bytes(mf.replay))))  # noqa: S301 (our own bytes)
    view = view_text(text, variant=variant)
    if mf is not None and mf.text == text:
        keep(mf, view, variant)
    return _remember(key, view)


__all__ = ["RULES_DIGEST", "keep", "replay_key", "view_for"]
