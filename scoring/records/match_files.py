"""Match files (``.mat``) and game records attached to matches: read, map, compare, attach.

One place for every path a file takes — the match's upload page, a player's private link,
the result form and the bulk upload of a round — so a file is read, checked and trusted
the same way everywhere:

1. :func:`read_file` / :func:`check_text`: bytes → text → the viewer core's replay
   (:mod:`scoring.viewer.frames`, which uses the rules core's validator), giving the
   file's players, length, score, games and located problems. Nothing raises.
2. :func:`propose`: which side of the pairing the file's first player is, from the names
   (any alphabet, ё-insensitive: :mod:`clubs.names`). Only a proposal.
3. :func:`compare`: the file beside the reported and official results, each as the match
   rules cap it (:meth:`scoring.rules.match.spec.MatchSpec.same_result`: a file's 8:4 in a
   match to 5 is the official 5:4), plus the match core's verdict on the file's score under this match's options
   (:func:`tournaments.validation.validate_result`).
4. :func:`attach` / :func:`discard`: a person's decision, audited. Only :func:`attach` with
   a confirmed ``first_is`` may hand the file's score to the result workflow.
"""

from __future__ import annotations

import io
import logging
import re
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from clubs.names import words
from scoring import workflow
from scoring.models import MatchFile, MatchFileState, ResultState
from scoring.records import gnubg_program, replays
from scoring.rules.errors import Problem
from scoring.rules.records.format import result_line
from scoring.rules.records.matfile import export_mat, looks_like_mat, match_from_reports
from scoring.rules.records.reader import parse_record
from scoring.rules.records.replay import replay
from scoring.viewer.frames import RecordView, view_text
from scoring.viewer.problems import MATCHFILE
from tournaments import audit
from tournaments.access.permissions import allowed, side_of
from tournaments.models import Match, ResultStatus
from tournaments.validation import match_spec, validate_result

logger = logging.getLogger(__name__)

MAX_BYTES = 512 * 1024
MAX_FILES = 1000
#: What one bulk upload may unpack to in all (a round's 200 match files are a few MB).
MAX_TOTAL_BYTES = 32 * 2**20
SIDES = ("white", "black")


@dataclass(slots=True)
class FileCheck:
    """What a file says once replayed: names, length, score, ledger and problems.

    ``games`` are in the file's sides (``white`` = the file's first player); ``final`` is
    (first, second). ``view`` is the replay itself, for the viewer page.
    """

    name: str
    text: str
    kind: str
    players: tuple[str, str]
    length: int
    games: list[dict[str, Any]]
    final: tuple[int, int]
    problems: list[Problem]
    view: RecordView | None = None

    def summary(self) -> dict[str, Any]:
        return {"length": self.length, "final": list(self.final), "games": self.games}


@dataclass(slots=True)
class Comparison:
    """The file beside the match: table rows and the problems that keep it from deciding."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    final: tuple[int, int] | None = None
    ledger: list[dict[str, Any]] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return not self.problems


# --------------------------------------------------------------------------- reading


def _prefix(name: str) -> str:
    return f"{name}: " if name else ""


def decode(raw: bytes, name: str = "") -> tuple[str | None, Problem | None]:
    """Bytes of an upload → text (UTF-8, then Windows-1251), or the problem why not."""
    if len(raw) > MAX_BYTES:
        return None, MATCHFILE.problem("too_large", file=_prefix(name), limit=MAX_BYTES // 1024)
    if b"\x00" in raw:  # binary, and PostgreSQL text cannot hold NUL
        return None, MATCHFILE.problem("not_text", file=_prefix(name))
    for encoding in ("utf-8-sig", "cp1251"):
        try:
            return raw.decode(encoding), None
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1"), None


def game_blocks(text: str) -> list[str]:
    """Each game's block of a .mat file, to store with the game it records."""
    starts = [m.start() for m in re.finditer(r"^\s*Game\s+\d+", text, re.MULTILINE)]
    return [text[s:e].strip("\n") for s, e in zip(starts, starts[1:] + [len(text)], strict=True)]


def over_cap(text: str) -> bool:
    """The one size cap of every way a record comes in (file, paste, bulk): UTF-8 bytes."""
    return len(text) > MAX_BYTES or len(text.encode("utf-8")) > MAX_BYTES


def check_text(
    text: str, *, variant: str = "backgammon", name: str = "", view: RecordView | None = None
) -> FileCheck:
    """Replay ``text`` (a .mat file or one game in the book's notation) and summarise it.

    A text longer than :data:`MAX_BYTES` (in UTF-8) is refused here, unread, whichever
    way it came (a file, a paste): a pasted 2.9 MB record once skipped the file's cap
    and took 22 s to check and 10 s per view (issue 29).
    """
    if over_cap(text):
        problem = MATCHFILE.problem("too_large", file=_prefix(name), limit=MAX_BYTES // 1024)
        return FileCheck(name, "", "text", ("", ""), 0, [], (0, 0), [problem])
    if view is None:
        text, problem = converted(text, name)  # a pasted or uploaded .sgf: gnubg's .mat
        if problem is not None:
            return FileCheck(name, "", "text", ("", ""), 0, [], (0, 0), [problem])
        view = view_text(text, variant=variant)
    blocks = game_blocks(text) if view.kind == "mat" else [text]
    games = []
    for i, game in enumerate(view.games):
        if game.winner is None:
            continue
        games.append(
            {
                "winner": game.winner,
                "kind": game.kind or "single",
                "cube": game.cube,
                "dropped": game.dropped,
                "points": game.points,
                "record": blocks[i] if i < len(blocks) else "",
            }
        )
    # A .mat names its players; so does a match in the book's notation under its match line.
    named = view.kind == "mat" or tuple(view.players) != ("White", "Black")
    players = tuple(view.players) if named else ("", "")
    return FileCheck(
        name=name,
        text=text,
        kind=view.kind,
        players=(players[0], players[1]),
        length=view.length,
        games=games,
        final=view.final_score,
        problems=list(view.problems),
        view=view,
    )


def converted(text: str, name: str = "") -> tuple[str, Problem | None]:
    """A record in a format only gnubg reads (its ``.sgf``, GamesGrid ``.sgg``, ``.tmg``,
    ``.gam``) as gnubg's ``.mat``, or the problem why not; any other text as it is.

    gnubg converts, the app reads the ``.mat``: the same reader, problems and guards as an
    uploaded ``.mat`` (the size cap applied before, gnubg's time bounded, no shell).
    """
    fmt = gnubg_program.foreign_format(name, text)
    if fmt is None:
        return text, None
    program = gnubg_program.find(
        getattr(settings, "ANALYSIS_GNUBG", "gnubg"), getattr(settings, "ANALYSIS_GNUBG_DIRS", gnubg_program.DEFAULT_DIRS)
    )
    if program is None:
        return "", MATCHFILE.problem("needs_gnubg", file=_prefix(name), format=fmt)
    try:
        return gnubg_program.convert(text, fmt, program=program), None
    except gnubg_program.ConversionError as exc:
        return "", MATCHFILE.problem("not_converted", file=_prefix(name), format=fmt, reason=exc.reason)


def read_file(raw: bytes, *, name: str = "", variant: str = "backgammon") -> FileCheck:
    """An uploaded file, however broken, as a :class:`FileCheck` (problems say what is wrong)."""
    text, problem = decode(raw, name)
    if problem is not None:
        return FileCheck(name, "", "text", ("", ""), 0, [], (0, 0), [problem])
    return check_text(text or "", variant=variant, name=name)


def unpack(uploads: list[tuple[str, bytes]]) -> tuple[list[tuple[str, bytes]], list[Problem]]:
    """Several uploads, zips opened: ``(name, bytes)`` per file, and the archives' problems.

    An archive is judged by its central directory before any member is read: more than
    :data:`MAX_FILES` members, or members that unpack past :data:`MAX_TOTAL_BYTES`
    together, refuse the archive whole; one member over :data:`MAX_BYTES` is skipped
    with its problem. Python's zip reader never unpacks a member past its directory
    size, so what is read is bounded by what was checked (issue 29: a 1.2 MB zip of
    2,000 × 500 KB members took 774 MB in the worker). The total of every upload is
    capped too: past it, the remaining files are refused, said once.
    """
    files: list[tuple[str, bytes]] = []
    problems: list[Problem] = []
    total, full = 0, False

    def room_for(name: str, size: int) -> bool:
        nonlocal total, full
        if full or len(files) >= MAX_FILES or total + size > MAX_TOTAL_BYTES:
            if not full:  # said once, at the first file left out
                problems.append(MATCHFILE.problem("too_much", file=_prefix(name), files=MAX_FILES,
                                                  limit=MAX_TOTAL_BYTES // 2**20))
            full = True
            return False
        total += size
        return True

    for name, raw in uploads:
        if not zipfile.is_zipfile(io.BytesIO(raw)):
            if room_for(name, len(raw)):
                files.append((name, raw))
            continue
        try:
            with zipfile.ZipFile(io.BytesIO(raw)) as archive:
                members = [
                    info for info in archive.infolist()
                    if not info.is_dir() and not info.filename.startswith("__MACOSX")
                ]
                wanted = [info for info in members if info.file_size <= MAX_BYTES]
                if len(members) > MAX_FILES or sum(i.file_size for i in wanted) > MAX_TOTAL_BYTES:
                    problems.append(MATCHFILE.problem(
                        "zip_too_big", file=_prefix(name), count=len(members), files=MAX_FILES,
                        size=-(-sum(i.file_size for i in wanted) // 2**20), limit=MAX_TOTAL_BYTES // 2**20,
                    ))
                    continue
                for info in members:
                    if info.file_size > MAX_BYTES:
                        problems.append(
                            MATCHFILE.problem(
                                "too_large", file=_prefix(info.filename), limit=MAX_BYTES // 1024
                            )
                        )
                        continue
                    if not room_for(info.filename, info.file_size):
                        break
                    files.append((info.filename, archive.read(info)))
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as exc:
            # the library's words ("Bad CRC-32 for file 'a.mat'") go to the log, not the page (issue 45)
            logger.warning("archive %s cannot be opened: %s", name, exc)
            problems.append(MATCHFILE.problem("bad_zip", file=_prefix(name)))
    return files, problems


# --------------------------------------------------------------------------- names


def _name_words(player) -> set[str]:
    return set((player.search_key or "").split()) or set(
        words(" ".join([player.last_name, player.first_name, player.last_name_latin, player.first_name_latin]))
    )


@lru_cache(maxsize=4096)
def _folded(name: str) -> frozenset[str]:
    return frozenset(words(name))


def _likeness(name: str, player) -> int:
    """How many folded words of ``name`` are words of the player's names (any alphabet)."""
    known = player.__dict__.get("_zarik_name_words")
    if known is None:
        known = player.__dict__["_zarik_name_words"] = _name_words(player)
    return len(_folded(name) & known)


def propose(match: Match, players: tuple[str, str]) -> str:
    """``"a"`` or ``"b"``: the side of the pairing the file's first player looks like, or ``""``.

    Only a proposal, shown to the person who confirms it.
    """
    if match.entry_b_id is None:
        return ""
    a, b = match.entry_a.player, match.entry_b.player
    straight = _likeness(players[0], a) + _likeness(players[1], b)
    crossed = _likeness(players[0], b) + _likeness(players[1], a)
    if straight > crossed:
        return "a"
    if crossed > straight:
        return "b"
    return ""


def find_pairing(matches: list[Match], players: tuple[str, str], name: str = "") -> tuple[Match | None, str, Problem | None]:
    """The round's pairing whose two players are named in the file, with the proposed mapping."""
    best: list[tuple[int, Match, str]] = []
    for match in matches:
        if match.entry_b_id is None:
            continue
        a, b = match.entry_a.player, match.entry_b.player
        straight = min(_likeness(players[0], a), _likeness(players[1], b))
        crossed = min(_likeness(players[0], b), _likeness(players[1], a))
        score, side = (straight, "a") if straight >= crossed else (crossed, "b")
        if score > 0:
            best.append((score, match, side))
    if not best:
        return None, "", MATCHFILE.problem("no_pairing", file=_prefix(name), first=players[0], second=players[1])
    top = max(score for score, _m, _s in best)
    winners = [(m, s) for score, m, s in best if score == top]
    if len(winners) > 1:
        tables = ", ".join(str(m.table or m.pk) for m, _s in winners)
        return None, "", MATCHFILE.problem(
            "ambiguous_pairing", file=_prefix(name), first=players[0], second=players[1], tables=tables
        )
    return winners[0][0], winners[0][1], None


# --------------------------------------------------------------------------- comparing


def mapped(check: FileCheck, first_is: str) -> tuple[tuple[int, int], list[dict[str, Any]]]:
    """The file's final score as (A, B) and its ledger with winners ``a``/``b``."""
    side = {"white": first_is, "black": "b" if first_is == "a" else "a"}
    final = check.final if first_is == "a" else (check.final[1], check.final[0])
    ledger = [
        {k: v for k, v in {**g, "winner": side[g["winner"]]}.items() if k != "points"}
        for g in check.games
    ]
    return final, ledger


def _score(a: int | None, b: int | None) -> str:
    return "—" if a is None or b is None else f"{a}:{b}"


def compare(match: Match, check: FileCheck, first_is: str) -> Comparison:
    """The file beside the reported and official results, under this match's options."""
    out = Comparison()
    spec = match_spec(match)
    length = spec.length
    reported = match.results.filter(state=ResultState.REPORTED).order_by("-reported_at", "-pk").first()
    official = (match.score_a, match.score_b) if match.result_status == ResultStatus.CONFIRMED else None
    if check.kind == "mat" and all(check.players) and match.entry_b_id is not None:
        a, b = match.entry_a.player, match.entry_b.player
        if not any(_likeness(name, player) for name in check.players for player in (a, b)):
            out.problems.append(MATCHFILE.problem(
                "names_differ", first=check.players[0], second=check.players[1],
                a=a.full_name, b=b.full_name,
            ))
    if not first_is:
        out.problems.append(MATCHFILE.problem("mapping_needed", first=check.players[0] or "White"))
        file_score = f"{check.players[0] or 'White'} {check.final[0]} : {check.final[1]} {check.players[1] or 'Black'}"
        out.rows.append({"what": "score", "file": file_score, "reported": "", "official": ""})
        return out
    final, ledger = mapped(check, first_is)
    out.final, out.ledger = final, ledger
    file_score = _score(*final)
    capped = spec.capped(final)
    # The file's raw score (gnubg's 8:4) with the result the match rules keep (5:4) beside it.
    capped_score = _score(*capped) if capped != final else ""
    reported_pair = (reported.score_a, reported.score_b) if reported else None
    same_reported = reported_pair is None or None in reported_pair or spec.same_result(final, reported_pair)
    same_official = official is None or None in official or spec.same_result(final, official)
    reported_score = _score(*reported_pair) if reported_pair else "—"
    official_score = _score(*official) if official else "—"
    out.rows.append(
        {"what": "score", "file": file_score, "capped": capped_score, "reported": reported_score,
         "official": official_score, "same": same_reported and same_official}
    )
    out.rows.append(
        {"what": "length", "file": check.length or "—", "reported": length or "—", "official": length or "—",
         "same": not check.length or not length or check.length == length}
    )
    out.rows.append(
        {"what": "games", "file": len(ledger), "reported": len(reported.games) if reported else "—",
         "official": match.games.count() if official else "—",
         "same": reported is None or not reported.games or len(reported.games) == len(ledger)}
    )
    if check.kind == "mat" and check.length and length and check.length != length:
        out.problems.append(MATCHFILE.problem("length_differs", file_length=check.length, length=length))
    if not same_reported:
        out.problems.append(MATCHFILE.problem("differs_reported", file_score=file_score, match_score=reported_score))
    if not same_official:
        out.problems.append(MATCHFILE.problem("differs_official", file_score=file_score, match_score=official_score))
    if ledger:
        out.problems.extend(validate_result(match, final=final, games=ledger).problems)
    return out


# --------------------------------------------------------------------------- storing


def store(
    check: FileCheck, *, tournament, match: Match | None = None, round=None, user=None,
    side: str = "", batch: str = "", proposed: str = "",
) -> MatchFile:
    """Keep an uploaded file (with what the core found, and its replay) until a person decides."""
    mf = MatchFile.objects.create(
        tournament=tournament,
        round=round or (match.round if match else None),
        match=match,
        batch=batch,
        name=check.name[:200],
        text=check.text,
        kind=check.kind,
        players=list(check.players),
        summary=check.summary(),
        problems=[p.to_data() for p in check.problems],
        proposed=proposed,
        uploaded_by=user if getattr(user, "pk", None) and getattr(user, "is_authenticated", False) else None,
        uploaded_side=side,
    )
    if check.view is not None and check.text:
        replays.keep(mf, check.view, tournament.variant)
    return mf


def stored_check(mf: MatchFile, variant: str) -> FileCheck:
    """A kept file as checked: from its stored replay when the rules have not changed since
    (:mod:`scoring.records.replays`), else replayed again, once."""
    return check_text(mf.text, variant=variant, name=mf.name, view=replays.view_for(mf.text, variant, mf))


class FileRefused(Exception):
    """A decision that cannot be taken (a problem to show; nothing was changed)."""

    def __init__(self, problems: list[Problem]):
        super().__init__(problems)
        self.problems = problems


_attached_hooks: list = []


def on_attach(hook) -> None:
    """Call ``hook(match, user)`` after a file is attached (match analysis registers here)."""
    if hook not in _attached_hooks:
        _attached_hooks.append(hook)


def attach_refusal(check: FileCheck, comparison: Comparison, *, despite: bool, despite_reason: str) -> list[Problem]:
    """Why a file may not be attached as asked ([] if it may).

    A file with no move read is never attached. A file with problems — its own or beside
    the match (a differing score, other players' names) — only by an explicit choice
    with a reason, which the audit log keeps.
    """
    if any(p.code == MATCHFILE.code("no_moves") for p in check.problems) or not check.text.strip():
        return [MATCHFILE.problem("nothing_to_attach")]
    issues = [p for p in [*check.problems, *comparison.problems] if p.code != MATCHFILE.code("mapping_needed")]
    if issues and not (despite and despite_reason.strip()):
        return [MATCHFILE.problem("despite_needed", count=len(issues))]
    return []


def attach(
    mf: MatchFile, user, *, first_is: str, use_result: bool = False, confirm: bool = False,
    reason: str = "", despite: bool = False, despite_reason: str = "",
):
    """Attach a file to its match as the person says; optionally report/enter its score.

    Nothing is attached over another attached file unless this is that decision: the
    previous one is discarded here, in the same transaction, and both steps are audited.
    With ``use_result`` the file's mapped score and ledger go through
    :func:`scoring.workflow.submit_result` (the one workflow; ``confirm`` for officials).
    """
    if first_is not in ("a", "b"):
        raise FileRefused([MATCHFILE.problem("mapping_needed", first=(mf.players or ["White"])[0] or "White")])
    match = mf.match
    tournament = match.round.tournament
    check = stored_check(mf, tournament.variant)
    refused = attach_refusal(check, compare(match, check, first_is), despite=despite, despite_reason=despite_reason)
    if refused:
        raise FileRefused(refused)
    result = None
    with transaction.atomic():
        if use_result:
            final, ledger = mapped(check, first_is)
            result = workflow.submit_result(
                match.pk, user, version=match.version, final=final, games=ledger,
                confirm=confirm, reason=reason,
            )
        previous = list(match.files.filter(state=MatchFileState.ATTACHED).exclude(pk=mf.pk))
        for old in previous:
            _set_state(old, user, MatchFileState.DISCARDED, "record.discard")
        mf.first_is = first_is
        why = despite_reason.strip() if despite else ""
        _set_state(mf, user, MatchFileState.ATTACHED, "record.attach", {"despite_problems": True} if why else None, why)
        for hook in _attached_hooks:
            hook(match, user)
    return result


def discard(mf: MatchFile, user) -> None:
    """The referee (or the uploader, while pending) throws a kept file away (audited)."""
    with transaction.atomic():
        _set_state(mf, user, MatchFileState.DISCARDED, "record.discard")


def _set_state(
    mf: MatchFile, user, state: str, action: str, extra: dict[str, Any] | None = None, reason: str = ""
) -> None:
    before = {"state": mf.state, "first_is": mf.first_is, "match": mf.match_id, "name": mf.name}
    mf.state = state
    mf.decided_at = timezone.now()
    mf.save(update_fields=["state", "first_is", "decided_at", "match"])
    after = {"state": mf.state, "first_is": mf.first_is, "match": mf.match_id, "name": mf.name, **(extra or {})}
    who = user if getattr(user, "is_authenticated", False) and getattr(user, "pk", None) else None
    audit.record(who, mf.tournament, action, mf, before, after, reason)


# --------------------------------------------------------------------------- the match's record


def may_decide(actor, mf: MatchFile) -> bool:
    """Officials who enter results decide on any file; a player on their own pending upload."""
    if allowed(actor, "result.enter", mf.tournament):
        return True
    if mf.match is None or mf.state != MatchFileState.PENDING:
        return False
    if getattr(actor, "pk", None) and mf.uploaded_by_id == actor.pk:
        return True
    return bool(mf.uploaded_side) and side_of(actor, mf.match) == mf.uploaded_side


def pending_files(match: Match, actor) -> list[MatchFile]:
    """The match's uploads waiting for a decision that ``actor`` may decide on (newest first).

    The match page lists them, as the round's records page does for the referee, so a file
    sent from the match page is not lost from sight there (issue 46).
    """
    if actor is None or match.entry_b_id is None:
        return []
    files = match.files.filter(state=MatchFileState.PENDING).select_related("tournament", "match")
    return [mf for mf in files if may_decide(actor, mf)]


def match_record(match: Match) -> tuple[str, MatchFile | None] | None:
    """The record of a match, if it has one: its attached file, else the games' records.

    Returns ``(text, file)`` — ``file`` is None when the text comes from the ledger.
    """
    attached = match.files.filter(state=MatchFileState.ATTACHED).order_by("-decided_at", "-pk").first()
    if attached is not None:
        return attached.text, attached
    records = [r for r in match.games.order_by("number").values_list("record", flat=True) if r.strip()]
    if not records:
        return None
    if all(re.match(r"^\s*Game\s+\d+", r) for r in records):
        length = match_spec(match).length or 0
        return f" {length} point match\n\n" + "\n\n".join(records) + "\n", None
    return records[0], None


def player_names(match: Match, first_is: str, language: str) -> tuple[str, str]:
    """The pairing's names in the order of the file's players (A first when unknown)."""
    names = match.side_names(language)
    a, b = names.get("a", "A"), names.get("b", "B")
    return (b, a) if first_is == "b" else (a, b)


def as_mat(text: str, *, variant: str, length: int, players: tuple[str, str]) -> str:
    """A record as a .mat file: a .mat as it is; a book record replayed and written out."""
    if looks_like_mat(text):
        return text
    record = parse_record(text, variant=variant)
    report = replay(record)
    return export_mat(match_from_reports([(record, report)], length=length, players=players))


def as_book_text(view: RecordView, *, players: tuple[str, str], english: bool) -> str:
    """The record in the book's two-column notation (traditional numbering), game by game.

    Laid out as the book prints cube play (Part 6, game 1): a row starts with a play and
    is numbered; cube actions that come between plays go into an unnumbered continuation
    row in the column of the side that made them (``\tD16. B32\t6–6 …``), so each game reads
    back through the book's reader to the same positions.
    """
    title = "Game {n}" if english else "Партия №{n}"
    words = {"white": "White:" if english else "Белые:", "black": "Black:" if english else "Чёрные:"}
    out: list[str] = []
    if view.kind == "mat" or len(view.games) > 1:
        # The match line the reader takes the names and length from (view_book_match).
        out.append(f"{players[0]} — {players[1]}" + (f", {view.length}" if view.length else ""))
        out.append("")
    autodouble = "Automatic double." if english else "Автодубль."
    for game in view.games:
        heading = title.format(n=game.number)
        if game.winner is not None:
            heading += f" ({players[0] if game.winner == 'white' else players[1]} +{game.points})"
        frames = view.frames[game.first + 1 : game.last + 1]
        first = next((f.side for f in frames if f.kind == "play" and f.side), "white")
        second = "black" if first == "white" else "white"
        out.extend([heading, ""])
        out.extend([autodouble] * game.autodoubles)  # the book's words for a cube turned at the opening
        out.extend([f"{'Move' if english else '№ хода'}\t{words[first]}\t{words[second]}"])
        rows: list[tuple[str, dict[str, str]]] = []
        number = 0
        for frame in frames:
            side = "white" if (frame.side or first) == first else "black"  # columns: first mover left
            text = frame.moves.get("traditional") or frame.printed
            row = rows[-1][1] if rows else None
            if row is not None and side in row and frame.kind == "cube" and side == "white" and "black" not in row:
                row[side] += ". " + text  # "D16. B32": one side's cube actions in one cell
                continue
            if row is None or side in row or (side == "white" and "black" in row) or frame.kind == "play" and row and not rows[-1][0] and side == "white":
                if frame.kind == "play":
                    if side == "white" or number == 0:
                        number += 1
                    label = f"{number}."
                else:
                    label = ""
                rows.append((label, {}))
                row = rows[-1][1]
            row[side] = text
        for label, cells in rows:
            out.append(f"{label}\t{cells.get('white', '...')}\t{cells.get('black', '')}".rstrip("\t"))
        if game.winner is not None and game.points is not None:
            # The result on a line of its own, read back as the .mat's "Wins N points":
            # a resigned game (no bear-off, no pass) keeps its points.
            out.append(result_line(game.winner, game.points, english))
        # (the columns are "first mover" and "second": the book puts whoever rolled first left)
        out.append("")
    return "\n".join(out)


# --------------------------------------------------------------------------- bulk upload


def _names_from_file_name(name: str) -> tuple[str, str]:
    """``Petrov-Ivanov.mat`` / ``Петров vs Иванов.txt`` → the two names (book records have none)."""
    stem = re.sub(r"\.[A-Za-z0-9]{1,4}$", "", name.rsplit("/", 1)[-1])
    parts = [p for p in re.split(r"\s+vs\.?\s+|\s*[-_–—]+\s*", stem, flags=re.IGNORECASE) if p.strip()]
    return (parts[0], parts[1]) if len(parts) == 2 else ("", "")


def bulk_process(rnd, job: str, uploads: list[tuple[str, bytes]], progress=None) -> dict[str, int]:
    """Read every file of a bulk upload, match it to a pairing of ``rnd``, compare, keep it.

    Nothing is attached or overwritten: each file waits for the referee's decision on the
    round's report page. Returns the counts of matched, mismatching and unmatched files.
    """
    tournament = rnd.tournament
    files, archive_problems = unpack(uploads)
    matches = list(rnd.matches.select_related("entry_a__player", "entry_b__player", "round__tournament"))
    counts = {"matched": 0, "mismatch": 0, "unmatched": 0}
    total = len(files)
    for done, (name, raw) in enumerate(files, start=1):
        check = read_file(raw, name=name, variant=tournament.variant)
        players = check.players if any(check.players) else _names_from_file_name(name)
        match, side, problem = (None, "", None)
        if check.text and not any(players):
            problem = MATCHFILE.problem("no_names", file=_prefix(name))
        elif check.text:
            match, side, problem = find_pairing(matches, players, name)
            from_name = _names_from_file_name(name)
            if match is None and any(from_name) and from_name != players:
                # Play sites write nicknames; a file named after the players still finds its pairing.
                match, side, problem = find_pairing(matches, from_name, name)
        compared: list[Problem] = [problem] if problem else []
        verdict = "unmatched"
        if match is not None:
            comparison = compare(match, check, side)
            compared = comparison.problems
            verdict = "matched" if comparison.agrees and not check.problems else "mismatch"
        counts[verdict] += 1
        mf = store(check, tournament=tournament, match=match, round=rnd, batch=job, proposed=side)
        mf.summary = {**mf.summary, "verdict": verdict, "compare": [p.to_data() for p in compared]}
        mf.save(update_fields=["summary"])
        if progress is not None and (done == total or done % 10 == 0):
            progress(done, total)
    for problem in archive_problems:
        counts["unmatched"] += 1
        broken = FileCheck(problem.details.get("file", "").rstrip(": "), "", "text", ("", ""), 0, [], (0, 0), [problem])
        mf = store(broken, tournament=tournament, round=rnd, batch=job)
        mf.summary = {**mf.summary, "verdict": "unmatched", "compare": []}
        mf.save(update_fields=["summary"])
    return counts
