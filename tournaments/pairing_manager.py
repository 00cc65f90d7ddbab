"""The thin bridge between the tournament models and the pure pairing generators.

Everything the organiser does to a round goes through here: read the models,
build the plain input, run a generator from :mod:`tournaments.pairing`, write a
*draft* round (matches, table numbers, match lengths, the explanation), adjust
it by hand under the same no-rematch rule, publish it or throw it away. No
pairing rule lives in this module — it only translates — so the Swiss, TRF,
benchmark and web paths cannot disagree.

Players are identified to the generators by their **draw number** (the number
of the open draw), so the explanation reads as the book does ("player 5 floats
down") and the organiser can follow it on the printed list. A late entry
without a number gets the next free one when it is first paired.

Refusals are :class:`PairingRefused` carrying bilingual
:class:`~scoring.rules.errors.Problem` objects; the views show them in the
page's language next to what the organiser typed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from scoring.rules.errors import Problem, RuleViolation
from tournaments import pairing as core
from tournaments.pairing.checks import check_pairings
from tournaments.pairing.knockout import PLAYABLE, WALKOVER

from .audit import record
from .match_spec import rule_for
from .models import (
    CompetitionSystem,
    Entry,
    EntryStatus,
    Match,
    ResultStatus,
    Round,
    RoundStatus,
    Seat,
    Section,
    Tournament,
    Variant,
)
from .round_flow import close_round, open_matches

Progress = Callable[[int, int], None]

SWISS_OPTION_KEYS = {f.name for f in dataclasses.fields(core.SwissOptions)}
KNOCKOUT_OPTION_KEYS = {f.name for f in dataclasses.fields(core.KnockoutOptions)}


class PairingRefused(Exception):
    """The manager will not do what was asked; ``problems`` say why, in both languages."""

    def __init__(self, problems: Problem | Sequence[Problem]):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(p.en for p in self.problems))

    def messages(self, language: str = "ru") -> list[str]:
        return [p.message(language) for p in self.problems]


def _problem(code: str, en: str, ru: str, **details: Any) -> Problem:
    return Problem(code, en, ru, details=details)


# ---------------------------------------------------------------------------------------------
# audit
# ---------------------------------------------------------------------------------------------


def audit(
    user, tournament: Tournament, action: str, obj, *, before=None, after=None, reason: str = ""
) -> None:
    """Record who changed a round and why, in the shared audit log."""
    record(user, tournament, action, obj, before, after, reason=reason)


# ---------------------------------------------------------------------------------------------
# reading the models
# ---------------------------------------------------------------------------------------------


def _section_filter(section: Section | None) -> dict[str, Any]:
    return {"section": section} if section is not None else {"section__isnull": True}


def rounds_of(tournament: Tournament, section: Section | None = None):
    return Round.objects.filter(tournament=tournament, **_section_filter(section)).order_by(
        "number"
    )


def entries_of(tournament: Tournament, section: Section | None = None):
    qs = tournament.entries.select_related("player")
    if section is not None:
        qs = qs.filter(section=section)
    return qs.order_by("draw_number", "id")


def _ensure_draw_numbers(tournament: Tournament, entries: list[Entry]) -> list[core.Note]:
    """Late entries get the next free draw number, so every paired player has one."""
    missing = [e for e in entries if e.draw_number is None and e.status != EntryStatus.WITHDRAWN]
    if not missing:
        return []
    top = tournament.entries.aggregate(m=Max("draw_number"))["m"] or 0
    notes = []
    for e in sorted(missing, key=lambda e: e.pk):
        top += 1
        e.draw_number = top
        e.save(update_fields=["draw_number"])
        notes.append(
            core.Note(
                "late_entry_number",
                f"Late entry {e.player}: given draw number {top}.",
                f"Поздняя заявка {e.player}: присвоен номер жеребьёвки {top}.",
                {"player": top},
            )
        )
    return notes


def _rating(entry: Entry) -> int:
    value = entry.seed_rating if entry.seed_rating is not None else entry.player.rating
    return int(value or 0)


def _match_points(m: Match) -> tuple[float, float]:
    if m.winner == "a":
        return 1.0, 0.0
    if m.winner == "b":
        return 0.0, 1.0
    if m.result_status == ResultStatus.CONFIRMED and m.score_a is not None:
        return 0.5, 0.5  # a drawn fixed-games match
    return 0.0, 0.0


def history(
    tournament: Tournament, section: Section | None, options: core.SwissOptions
) -> list[core.TableResult]:
    """Every earlier table and bye of this section as plain results (draft rounds excluded)."""
    out: list[core.TableResult] = []
    rounds = list(rounds_of(tournament, section).exclude(status=RoundStatus.DRAFT))
    matches = (
        Match.objects.filter(round__in=rounds)
        .select_related("entry_a", "entry_b", "round")
        .order_by("round__number", "table")
    )
    colours = {r.pk: bool(r.explanation.get("colours")) for r in rounds}
    for m in matches:
        num = m.round.number
        a = m.entry_a.draw_number
        if m.entry_b_id is None:
            out.append(core.TableResult(num, a, None, options.bye_points, kind="pairing"))
            continue
        pa, pb = _match_points(m)
        out.append(
            core.TableResult(
                num,
                a,
                m.entry_b.draw_number,
                pa,
                pb,
                float(m.score_a or 0),
                float(m.score_b or 0),
                white=a if colours[m.round_id] else None,
            )
        )
    for r in rounds:
        for bye in r.explanation.get("byes", []):
            if bye.get("kind") == "requested":
                out.append(
                    core.TableResult(r.number, bye["player"], None, bye["points"], kind="requested")
                )
    return out


def previous_opponents(rnd: Round) -> tuple[set[frozenset[int]], set[int]]:
    """Pairs (entry ids) that already met in this section, and entries that had a pairing bye."""
    earlier = Match.objects.filter(
        round__tournament=rnd.tournament_id,
        round__number__lt=rnd.number,
        **{f"round__{k}": v for k, v in _section_filter(rnd.section).items()},
    ).exclude(round__status=RoundStatus.DRAFT)
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    for a, b in earlier.values_list("entry_a_id", "entry_b_id"):
        if b is None:
            byes.add(a)
        else:
            met.add(frozenset((a, b)))
    return met, byes


def swiss_options(tournament: Tournament) -> core.SwissOptions:
    """The tournament's Swiss options (unknown keys ignored; bad values reported by the core)."""
    raw = dict(tournament.pairing_options or {})
    raw.setdefault(
        "alternate_colours",
        tournament.variant == Variant.LONG_NARDY and tournament.match_format == "games",
    )
    kwargs = {k: v for k, v in raw.items() if k in SWISS_OPTION_KEYS}
    options = core.SwissOptions(**kwargs)
    try:
        options.problems()
    except TypeError as exc:  # e.g. a number option stored as text
        raise PairingRefused(
            _problem(
                "pairing.options",
                f"The tournament's pairing options are not valid ({kwargs}): {exc}.",
                f"Параметры жеребьёвки турнира неверны ({kwargs}): {exc}.",
            )
        ) from exc
    return options


def match_length_for(tournament: Tournament, section: Section | None, number: int) -> int | None:
    """Match length of a round: the section's category table, else the tournament's option."""
    if section is not None:
        try:
            rule = rule_for(section, number)
        except RuleViolation as exc:
            raise PairingRefused(exc.problems) from exc
        if rule is not None:
            return rule.length
    return tournament.match_length if tournament.match_format == "points" else None


# ---------------------------------------------------------------------------------------------
# checks before a new round
# ---------------------------------------------------------------------------------------------


def unconfirmed_matches(rnd: Round):
    """Matches still waiting for a confirmed result (the results workflow's definition)."""
    return open_matches(rnd)


def blockers(tournament: Tournament, section: Section | None = None) -> list[Problem]:
    """Why the next round cannot be paired now; each one an organiser may override with a reason.

    A draft round is not overridable (publish or delete it first) and is
    reported by :func:`hard_blockers`.
    """
    out: list[Problem] = []
    last = rounds_of(tournament, section).last()
    if last is None:
        return out
    open_count = unconfirmed_matches(last).count()
    if open_count:
        out.append(
            _problem(
                "pairing.round_open",
                f"Round {last.number} is not closed: {open_count} result(s) are not confirmed "
                "yet. The next round is paired when all results are confirmed — or give a "
                "reason to pair it now.",
                f"Тур {last.number} не закрыт: не подтверждено результатов: {open_count}. "
                "Следующий тур составляется, когда подтверждены все результаты, — или укажите "
                "причину, чтобы составить его сейчас.",
                round=last.number,
                open=open_count,
            )
        )
    planned = tournament.rounds_planned
    if tournament.system == CompetitionSystem.SWISS and planned and last.number >= planned:
        out.append(
            _problem(
                "pairing.rounds_planned",
                f"All {planned} planned rounds are paired; give a reason to add round "
                f"{last.number + 1}.",
                f"Все запланированные туры ({planned}) уже составлены; укажите причину, чтобы "
                f"добавить тур {last.number + 1}.",
                planned=planned,
            )
        )
    return out


def hard_blockers(tournament: Tournament, section: Section | None = None) -> list[Problem]:
    out = []
    draft = rounds_of(tournament, section).filter(status=RoundStatus.DRAFT).first()
    if draft is not None:
        out.append(
            _problem(
                "pairing.draft_exists",
                f"Round {draft.number} is still a draft: publish it or delete it before pairing "
                "another round.",
                f"Тур {draft.number} ещё черновик: опубликуйте или удалите его, прежде чем "
                "составлять следующий.",
                round=draft.number,
            )
        )
    if tournament.sections.exists() and section is None:
        out.append(
            _problem(
                "pairing.section_required",
                "This tournament plays in sections: choose the section to pair.",
                "Турнир играется по категориям: выберите категорию для жеребьёвки.",
            )
        )
    return out


def _check_can_generate(
    tournament: Tournament, section: Section | None, reason: str
) -> list[Problem]:
    """Raise on what cannot be overridden; return the overridden problems (to record)."""
    hard = hard_blockers(tournament, section)
    if hard:
        raise PairingRefused(hard)
    soft = blockers(tournament, section)
    if soft and not reason.strip():
        raise PairingRefused(soft)
    return soft


def _close_finished(tournament: Tournament, section: Section | None, user) -> None:
    """A published round whose results are all confirmed is closed (as the results desk does)."""
    for rnd in rounds_of(tournament, section).filter(status=RoundStatus.PUBLISHED):
        close_round(rnd, user)


# ---------------------------------------------------------------------------------------------
# writing a draft round
# ---------------------------------------------------------------------------------------------


def _note(n: core.Note) -> dict[str, Any]:
    return {"code": n.code, "en": n.en, "ru": n.ru, "details": n.details}


def _problem_dict(p: Problem) -> dict[str, Any]:
    return {"code": p.code, "en": p.en, "ru": p.ru, "details": p.details}


@dataclass
class _Table:
    a: Entry
    b: Entry | None
    length: int | None
    info: dict[str, Any]  # the explanation row for this table


def _write_round(
    tournament: Tournament,
    section: Section | None,
    number: int,
    tables: list[_Table],
    explanation: dict[str, Any],
    progress: Progress | None = None,
    length: int | None = None,
) -> Round:
    """One draft round with its matches and seats, written in bulk (big fields stay fast)."""
    rnd = Round.objects.create(
        tournament=tournament,
        section=section,
        number=number,
        status=RoundStatus.DRAFT,
        match_length=length,
        explanation={},
    )
    matches = []
    for i, t in enumerate(tables, start=1):
        bye = t.b is None
        matches.append(
            Match(
                round=rnd,
                table=i,
                entry_a=t.a,
                entry_b=t.b,
                match_length=t.length,
                result_status=ResultStatus.CONFIRMED if bye else ResultStatus.PENDING,
                winner="a" if bye else "",
            )
        )
        t.info["table"] = i
    total = len(matches)
    chunk = 500
    done = 0
    for start in range(0, total, chunk):
        part = matches[start : start + chunk]
        Match.objects.bulk_create(part)
        seats = []
        for m in part:
            seats.append(Seat(round=rnd, match=m, entry_id=m.entry_a_id, side="a"))
            if m.entry_b_id is not None:
                seats.append(Seat(round=rnd, match=m, entry_id=m.entry_b_id, side="b"))
        Seat.objects.bulk_create(seats)
        done += len(part)
        if progress is not None:
            progress(done, total)
    explanation["pairings"] = [t.info for t in tables]
    rnd.explanation = explanation
    rnd.save(update_fields=["explanation"])
    return rnd


def _base_explanation(system: str, user, reason: str, overridden: list[Problem]) -> dict:
    return {
        "system": system,
        "generated_at": timezone.now().isoformat(),
        "generated_by": getattr(user, "username", "") or "",
        "override_reason": reason.strip(),
        "overridden": [_problem_dict(p) for p in overridden],
        "notes": [],
        "byes": [],
        "groups": [],
        "problems": [],
        "manual": [],
    }


# ---------------------------------------------------------------------------------------------
# Swiss
# ---------------------------------------------------------------------------------------------


def swiss_input(
    tournament: Tournament,
    section: Section | None,
    number: int,
    *,
    absent: Iterable[int] = (),
    half_bye: Iterable[int] = (),
) -> tuple[core.PairingInput, dict[int, Entry], list[core.Note]]:
    """The Swiss generator's input for round ``number``; ``absent``/``half_bye`` are entry ids."""
    options = swiss_options(tournament)
    entries = list(entries_of(tournament, section))
    late = _ensure_draw_numbers(tournament, entries)
    absent, half_bye = set(absent), set(half_bye)
    statuses: dict[int, str] = {}
    entrants = []
    by_id: dict[int, Entry] = {}
    for e in entries:
        if e.draw_number is None:
            continue  # withdrawn before ever getting a number
        by_id[e.draw_number] = e
        entrants.append(core.Entrant(e.draw_number, e.draw_number, _rating(e)))
        if e.status == EntryStatus.WITHDRAWN:
            statuses[e.draw_number] = "withdrawn"
        elif e.pk in absent:
            statuses[e.draw_number] = "absent"
        elif e.pk in half_bye:
            statuses[e.draw_number] = "half_bye"
    players = core.build_players(
        entrants, history(tournament, section, options), statuses, score=options.score
    )
    return core.PairingInput(number, players, options), by_id, late


def generate_swiss(
    tournament: Tournament,
    section: Section | None = None,
    *,
    user=None,
    reason: str = "",
    absent: Iterable[int] = (),
    half_bye: Iterable[int] = (),
    progress: Progress | None = None,
) -> Round:
    """Pair the next Swiss round of a section as a draft (see module docstring)."""
    overridden = _check_can_generate(tournament, section, reason)
    last = rounds_of(tournament, section).last()
    number = (last.number if last else 0) + 1
    inp, by_id, late = swiss_input(tournament, section, number, absent=absent, half_bye=half_bye)
    result = core.pair_swiss(inp)
    if result.status == "invalid":
        raise PairingRefused(result.problems)
    if result.status == "no_rematch_free" and not reason.strip():
        raise PairingRefused(
            [
                *result.problems,
                _problem(
                    "pairing.rematch_needs_reason",
                    "To accept the proposed rematches, give a reason; it is recorded.",
                    "Чтобы принять предложенные повторные встречи, укажите причину; она "
                    "записывается.",
                ),
            ]
        )
    length = match_length_for(tournament, section, number)
    expl = _base_explanation("swiss", user, reason, overridden)
    expl["status"] = result.status
    expl["colours"] = inp.options.alternate_colours
    expl["options"] = dataclasses.asdict(inp.options)
    expl["notes"] = [_note(n) for n in (*late, *result.notes)]
    expl["problems"] = [_problem_dict(p) for p in result.problems]
    expl["groups"] = [
        {
            "score": g.score,
            "players": list(g.players),
            "floated_in": list(g.floated_in),
            "floated_out": list(g.floated_out),
        }
        for g in result.groups
    ]
    tables: list[_Table] = []
    for p in result.pairings:
        a, b = p.a, p.b
        if p.white is not None and p.white != a:
            a, b = b, a  # with colours, entry A plays White
        tables.append(
            _Table(
                by_id[a],
                by_id[b],
                length,
                {
                    "a": a,
                    "b": b,
                    "white": p.white,
                    "rematch": p.rematch,
                    "notes": [_note(n) for n in p.notes],
                },
            )
        )
    for bye in result.byes:
        row = {
            "player": bye.player,
            "kind": bye.kind,
            "points": bye.points,
            "notes": [_note(n) for n in bye.notes],
        }
        expl["byes"].append(row)
        if bye.kind == "pairing":
            tables.append(
                _Table(
                    by_id[bye.player],
                    None,
                    None,
                    {
                        "a": bye.player,
                        "b": None,
                        "bye": True,
                        "rematch": False,
                        "notes": row["notes"],
                    },
                )
            )
    with transaction.atomic():
        _close_finished(tournament, section, user)
        rnd = _write_round(tournament, section, number, tables, expl, progress, length)
        audit(
            user,
            tournament,
            "round.generate",
            rnd,
            after={"number": number, "tables": len(tables), "status": result.status},
            reason=reason.strip(),
        )
    return rnd


# ---------------------------------------------------------------------------------------------
# round robin
# ---------------------------------------------------------------------------------------------


def generate_round_robin(
    tournament: Tournament,
    section: Section | None = None,
    *,
    user=None,
    progress: Progress | None = None,
) -> list[Round]:
    """Every round of every cycle at once (FIDE Berger tables), all as drafts."""
    hard = hard_blockers(tournament, section)
    if rounds_of(tournament, section).exists():
        hard.append(
            _problem(
                "pairing.round_robin_exists",
                "The round robin schedule already exists; delete its draft rounds to draw it again.",
                "Расписание кругового турнира уже составлено; удалите черновики туров, чтобы "
                "составить его заново.",
            )
        )
    if hard:
        raise PairingRefused(hard)
    entries = [e for e in entries_of(tournament, section) if e.status != EntryStatus.WITHDRAWN]
    late = _ensure_draw_numbers(tournament, entries)
    entries.sort(key=lambda e: e.draw_number)
    opts = tournament.pairing_options or {}
    try:
        schedule = core.round_robin(
            [e.draw_number for e in entries],
            cycles=int(opts.get("cycles", 1)),
            swap_last_two_rounds=bool(opts.get("swap_last_two_rounds", False)),
        )
    except (RuleViolation, ValueError) as exc:
        raise PairingRefused(
            getattr(exc, "problems", None) or _problem("pairing.options", str(exc), str(exc))
        ) from exc
    by_id = {e.draw_number: e for e in entries}
    rounds = []
    with transaction.atomic():
        for i, rr in enumerate(schedule):
            length = match_length_for(tournament, section, rr.round)
            expl = _base_explanation("round_robin", user, "", [])
            expl["cycle"] = rr.cycle
            expl["colours"] = True
            if i == 0:
                expl["notes"] = [_note(n) for n in late]
            tables = [
                _Table(
                    by_id[p.a],
                    by_id[p.b],
                    length,
                    {
                        "a": p.a,
                        "b": p.b,
                        "white": p.white,
                        "rematch": False,
                        "notes": [_note(n) for n in p.notes],
                    },
                )
                for p in rr.pairings
            ]
            if rr.bye is not None:
                expl["byes"].append(
                    {"player": rr.bye, "kind": "pairing", "points": 1.0, "notes": []}
                )
                tables.append(
                    _Table(
                        by_id[rr.bye],
                        None,
                        None,
                        {"a": rr.bye, "b": None, "bye": True, "rematch": False, "notes": []},
                    )
                )
            rounds.append(_write_round(tournament, section, rr.round, tables, expl, None, length))
            if progress is not None:
                progress(i + 1, len(schedule))
        audit(
            user,
            tournament,
            "round.generate_all",
            rounds[0] if rounds else tournament,
            after={"rounds": len(rounds)},
        )
    return rounds


# ---------------------------------------------------------------------------------------------
# knockout
# ---------------------------------------------------------------------------------------------


def knockout_options(tournament: Tournament) -> core.KnockoutOptions:
    raw = dict((tournament.pairing_options or {}).get("knockout", {}))
    raw.setdefault("match_lengths", [tournament.match_length or 5])
    kwargs = {k: v for k, v in raw.items() if k in KNOCKOUT_OPTION_KEYS}
    if "match_lengths" in kwargs:
        kwargs["match_lengths"] = tuple(int(x) for x in kwargs["match_lengths"])
    return core.KnockoutOptions(**kwargs)


def _stored_bracket(first: Round) -> core.Bracket:
    """Rebuild the bracket from the seed order stored with round 1 (entries may change later)."""
    data = first.explanation["bracket"]
    opts = dict(data["options"])
    opts["match_lengths"] = tuple(opts["match_lengths"])
    opts["seed_by"] = "draw_number"
    entrants = [core.KnockoutEntrant(pid, draw_number=i + 1) for i, pid in enumerate(data["seeds"])]
    return core.build_knockout(entrants, core.KnockoutOptions(**opts))


def knockout_state(tournament: Tournament, section: Section | None = None):
    """The bracket, the winners recorded so far ``{match id: draw number}`` and scheduled ids."""
    rounds = list(rounds_of(tournament, section))
    if not rounds or "bracket" not in rounds[0].explanation:
        return None, {}, set()
    bracket = _stored_bracket(rounds[0])
    results: dict[str, int] = {}
    scheduled: set[str] = set()
    for rnd in rounds:
        ids = {row["table"]: row.get("match_id") for row in rnd.explanation.get("pairings", [])}
        for m in rnd.matches.select_related("entry_a", "entry_b"):
            mid = ids.get(m.table)
            if not mid:
                continue
            scheduled.add(mid)
            if m.entry_b_id is None or m.result_status != ResultStatus.CONFIRMED:
                continue
            if m.winner in ("a", "b"):
                results[mid] = (m.entry_a if m.winner == "a" else m.entry_b).draw_number
    return bracket, results, scheduled


def generate_knockout(
    tournament: Tournament,
    section: Section | None = None,
    *,
    user=None,
    reason: str = "",
    progress: Progress | None = None,
) -> Round:
    """The bracket and its first stage, or the next stage from the confirmed results."""
    overridden = _check_can_generate(tournament, section, reason)
    bracket, results, scheduled = knockout_state(tournament, section)
    expl = _base_explanation("knockout", user, reason, overridden)
    entries = [e for e in entries_of(tournament, section) if e.status != EntryStatus.WITHDRAWN]
    if bracket is None:
        late = _ensure_draw_numbers(tournament, entries)
        try:
            options = knockout_options(tournament)
            bracket = core.build_knockout(
                [core.KnockoutEntrant(e.draw_number, _rating(e), e.draw_number) for e in entries],
                options,
            )
        except (RuleViolation, TypeError, ValueError) as exc:
            raise PairingRefused(
                getattr(exc, "problems", None) or _problem("pairing.options", str(exc), str(exc))
            ) from exc
        opts = dataclasses.asdict(options)
        expl["bracket"] = {"seeds": list(bracket.seeds), "options": opts}
        expl["notes"] = [_note(n) for n in late]
    by_id = {e.draw_number: e for e in tournament.entries.all() if e.draw_number is not None}
    states = core.resolve(bracket, results)
    stage = [s for s in states.values() if s.status == PLAYABLE and s.match.id not in scheduled]
    if not scheduled:
        stage += [
            s
            for s in states.values()
            if s.status == WALKOVER and s.match.round == 1 and s.match.bracket == "main"
        ]
    busy: set[int] = set()
    tables: list[_Table] = []
    for s in sorted(
        stage, key=lambda s: (s.match.bracket != "main", s.match.round, s.match.position)
    ):
        players = [p for p in (s.a, s.b) if p is not None]
        if busy & set(players):
            continue  # the player is already busy this stage; the match waits for the next
        busy.update(players)
        a, b = (players[0], players[1]) if len(players) == 2 else (players[0], None)
        notes = [_note(n) for n in s.match.notes]
        tables.append(
            _Table(
                by_id[a],
                by_id[b] if b else None,
                s.match.length,
                {
                    "a": a,
                    "b": b,
                    "bye": b is None,
                    "match_id": s.match.id,
                    "bracket": s.match.bracket,
                    "bracket_round": s.match.round,
                    "rematch": False,
                    "notes": notes,
                },
            )
        )
    if not tables:
        winner = core.champion(bracket, results)
        if winner is not None:
            raise PairingRefused(
                _problem(
                    "pairing.knockout_over",
                    f"The knockout is over: player {winner} has won it.",
                    f"Кубковый турнир окончен: победил игрок {winner}.",
                    champion=winner,
                )
            )
        raise PairingRefused(
            _problem(
                "pairing.knockout_waiting",
                "No match can be played yet: the results that decide the next matches are not "
                "confirmed.",
                "Ни один матч пока нельзя сыграть: результаты, от которых зависят следующие матчи, "
                "не подтверждены.",
            )
        )
    last = rounds_of(tournament, section).last()
    number = (last.number if last else 0) + 1
    lengths = {t.length for t in tables if t.b is not None}
    with transaction.atomic():
        _close_finished(tournament, section, user)
        rnd = _write_round(
            tournament,
            section,
            number,
            tables,
            expl,
            progress,
            lengths.pop() if len(lengths) == 1 else None,
        )
        audit(
            user,
            tournament,
            "round.generate",
            rnd,
            after={"number": number, "matches": [t.info["match_id"] for t in tables]},
            reason=reason.strip(),
        )
    return rnd


# ---------------------------------------------------------------------------------------------
# Scheveningen
# ---------------------------------------------------------------------------------------------


def generate_scheveningen(
    tournament: Tournament, *, user=None, progress: Progress | None = None
) -> list[Round]:
    """Scheveningen rounds: two teams play all n rounds at once; more teams a knockout of teams.

    With four or more teams (an even number, book Part 9) every stage is a
    Scheveningen match of each team pairing (n rounds, written together); the
    next stage is drawn when every result of the stage is confirmed and each
    team match has a winner (individual wins, then points).
    """
    hard = hard_blockers(tournament, None)
    teams = {t.pk: t for t in tournament.teams.order_by("pk")}
    existing = list(rounds_of(tournament, None))
    if len(teams) < 2 or len(teams) % 2:
        hard.append(
            _problem(
                "pairing.scheveningen_teams",
                f"The Scheveningen system needs an even number of teams (2, 4, 6, …); this "
                f"tournament has {len(teams)}.",
                f"Для шевенингенской системы нужно чётное число команд (2, 4, 6, …); в турнире "
                f"их {len(teams)}.",
                teams=len(teams),
            )
        )
    elif len(teams) == 2 and existing:
        hard.append(
            _problem(
                "pairing.scheveningen_exists",
                "The Scheveningen schedule already exists; delete its draft rounds to draw it again.",
                "Расписание по шевенингенской системе уже составлено; удалите черновики туров, "
                "чтобы составить его заново.",
            )
        )
    if hard:
        raise PairingRefused(hard)
    first_extra: dict[str, Any] = {}
    if len(teams) == 2:
        a_id, b_id = list(teams)
        stage: list[tuple[str | None, int, int]] = [(None, a_id, b_id)]
    else:
        stage, first_extra = _team_stage(tournament, teams, existing)
    lineups = {
        pk: [m.entry for m in t.members.select_related("entry__player").order_by("board")]
        for pk, t in teams.items()
    }
    late = _ensure_draw_numbers(tournament, [e for line in lineups.values() for e in line])
    by_id = {e.draw_number: e for line in lineups.values() for e in line}
    schedules = []
    for _mid, a_id, b_id in stage:
        try:
            schedules.append(
                core.scheveningen(
                    [e.draw_number for e in lineups[a_id]], [e.draw_number for e in lineups[b_id]]
                )
            )
        except RuleViolation as exc:
            raise PairingRefused(exc.problems) from exc
    start = (existing[-1].number if existing else 0) + 1
    count = len(schedules[0])
    rounds = []
    with transaction.atomic():
        _close_finished(tournament, None, user)
        for r in range(count):
            number = start + r
            length = match_length_for(tournament, None, number)
            expl = _base_explanation("scheveningen", user, "", [])
            expl["colours"] = True
            expl["team_matches"] = []
            if r == 0:
                expl["notes"] = [_note(n) for n in late]
                expl.update(first_extra)
            tables: list[_Table] = []
            for (mid, a_id, b_id), schedule in zip(stage, schedules, strict=True):
                first_table = len(tables) + 1
                for p in schedule[r].pairings:
                    a, b = (p.a, p.b) if p.white in (None, p.a) else (p.b, p.a)
                    notes = [_note(n) for n in p.notes]
                    tables.append(
                        _Table(
                            by_id[a],
                            by_id[b],
                            length,
                            {"a": a, "b": b, "white": p.white, "rematch": False, "notes": notes},
                        )
                    )
                expl["team_matches"].append(
                    {
                        "match_id": mid,
                        "teams": [a_id, b_id],
                        "names": [teams[a_id].name, teams[b_id].name],
                        "tables": list(range(first_table, len(tables) + 1)),
                    }
                )
            rounds.append(_write_round(tournament, None, number, tables, expl, None, length))
            if progress is not None:
                progress(r + 1, count)
        audit(user, tournament, "round.generate_all", rounds[0], after={"rounds": len(rounds)})
    return rounds


def _team_stage(
    tournament: Tournament, teams: dict[int, Any], existing: list[Round]
) -> tuple[list[tuple[str | None, int, int]], dict[str, Any]]:
    """The next stage of a knockout of teams: ``[(match id, team A pk, team B pk)]``."""
    if not existing:
        bracket = core.team_knockout(
            [core.KnockoutEntrant(pk, draw_number=i + 1) for i, pk in enumerate(teams)]
        )
        extra = {"team_bracket": {"seeds": list(bracket.seeds)}}
        results: dict[str, int] = {}
        scheduled: set[str] = set()
    else:
        seeds = existing[0].explanation["team_bracket"]["seeds"]
        bracket = core.team_knockout(
            [core.KnockoutEntrant(pk, draw_number=i + 1) for i, pk in enumerate(seeds)]
        )
        extra = {}
        open_rounds = [r.number for r in existing if unconfirmed_matches(r).exists()]
        if open_rounds:
            raise PairingRefused(
                _problem(
                    "pairing.team_stage_open",
                    f"The team matches are not finished: rounds {open_rounds} have results "
                    "that are not confirmed.",
                    f"Командные матчи не окончены: в турах {open_rounds} есть неподтверждённые "
                    "результаты.",
                    rounds=open_rounds,
                )
            )
        results, scheduled = _team_results(tournament, existing, teams)
    states = core.resolve(bracket, results)
    stage = [
        (s.match.id, s.a, s.b)
        for s in states.values()
        if s.status == PLAYABLE and s.match.id not in scheduled
    ]
    if not stage:
        winner = core.champion(bracket, results)
        name = teams[winner].name if winner in teams else "—"
        raise PairingRefused(
            _problem(
                "pairing.knockout_over",
                f"The team knockout is over: {name} has won it.",
                f"Командный турнир окончен: победила команда {name}.",
                champion=winner,
            )
        )
    return stage, extra


def _team_results(
    tournament: Tournament, existing: list[Round], teams: dict[int, Any]
) -> tuple[dict[str, int], set[str]]:
    """Winning team of every team match played so far (individual wins, then points)."""
    individual: dict[str, list[core.IndividualResult]] = {}
    sides: dict[str, tuple[int, int]] = {}
    for rnd in existing:
        matches = {m.table: m for m in rnd.matches.select_related("entry_a", "entry_b")}
        for tm in rnd.explanation.get("team_matches", []):
            mid = tm["match_id"]
            sides[mid] = tuple(tm["teams"])
            for table in tm["tables"]:
                m = matches[table]
                individual.setdefault(mid, []).append(
                    core.IndividualResult(
                        m.entry_a.draw_number,
                        m.entry_b.draw_number,
                        float(m.score_a or 0),
                        float(m.score_b or 0),
                    )
                )
    results: dict[str, int] = {}
    for mid, (a_id, b_id) in sides.items():
        members = {
            pk: [m.entry.draw_number for m in teams[pk].members.select_related("entry")]
            for pk in (a_id, b_id)
        }
        score = core.team_score(individual[mid], members[a_id], members[b_id])
        if score.winner is None:
            raise PairingRefused(
                _problem(
                    "pairing.team_tie",
                    f"Team match {teams[a_id].name} – {teams[b_id].name} is level on wins and "
                    "points; the organiser must arrange a play-off before the next stage.",
                    f"Командный матч {teams[a_id].name} – {teams[b_id].name} закончился вничью "
                    "по победам и очкам; до следующей стадии организатор назначает "
                    "дополнительный матч.",
                    match=mid,
                )
            )
        results[mid] = a_id if score.winner == "A" else b_id
    return results, set(sides)


# ---------------------------------------------------------------------------------------------
# one entry point for the views and the task
# ---------------------------------------------------------------------------------------------


def generate_next(
    tournament: Tournament,
    section: Section | None = None,
    *,
    user=None,
    reason: str = "",
    absent: Iterable[int] = (),
    half_bye: Iterable[int] = (),
    progress: Progress | None = None,
) -> list[Round]:
    """What "generate" means for the tournament's system: one round, or the whole schedule."""
    system = tournament.system
    if system == CompetitionSystem.SWISS:
        return [
            generate_swiss(
                tournament,
                section,
                user=user,
                reason=reason,
                absent=absent,
                half_bye=half_bye,
                progress=progress,
            )
        ]
    if system == CompetitionSystem.ROUND_ROBIN:
        return generate_round_robin(tournament, section, user=user, progress=progress)
    if system == CompetitionSystem.KNOCKOUT:
        return [generate_knockout(tournament, section, user=user, reason=reason, progress=progress)]
    return generate_scheveningen(tournament, user=user, progress=progress)


# ---------------------------------------------------------------------------------------------
# changing a draft by hand
# ---------------------------------------------------------------------------------------------


def _editable(rnd: Round, *, by_hand: bool = False) -> None:
    if by_hand and rnd.tournament.system != CompetitionSystem.SWISS:
        raise PairingRefused(
            _problem(
                "pairing.fixed_schedule",
                "Only Swiss pairings are changed by hand: in a round robin, knockout or "
                "Scheveningen event the schedule or the bracket decides who meets whom.",
                "Вручную меняются только пары швейцарской системы: в круговом, кубковом и "
                "шевенингенском турнирах соперников определяет расписание или сетка.",
            )
        )
    if rnd.status != RoundStatus.DRAFT:
        raise PairingRefused(
            _problem(
                "pairing.not_draft",
                f"Round {rnd.number} is {rnd.status}: only a draft round can be changed.",
                f"Тур {rnd.number} уже {_STATUS_RU.get(rnd.status, rnd.status)}: менять можно "
                "только черновик.",
                round=rnd.number,
            )
        )


_STATUS_RU = {"published": "опубликован", "finished": "завершён", "draft": "черновик"}


def _seat_of(rnd: Round, entry_id: int) -> tuple[Match, str]:
    for m in rnd.matches.select_related("entry_a__player", "entry_b__player"):
        if m.entry_a_id == entry_id:
            return m, "a"
        if m.entry_b_id == entry_id:
            return m, "b"
    entry = Entry.objects.filter(pk=entry_id).select_related("player").first()
    name = str(entry.player) if entry else str(entry_id)
    raise PairingRefused(
        _problem(
            "pairing.not_in_round",
            f"{name} is not paired in round {rnd.number}.",
            f"{name} не участвует в туре {rnd.number}.",
            entry=entry_id,
        )
    )


def _name(entry: Entry | None) -> str:
    if entry is None:
        return "—"
    return f"№{entry.draw_number} {entry.player}" if entry.draw_number else str(entry.player)


def check_tables(rnd: Round, tables: Iterable[tuple[int, int | None]]) -> list[Problem]:
    """Rule problems of proposed tables (entry ids): rematches and second pairing byes."""
    met, byes = previous_opponents(rnd)
    names = {
        e.pk: _name(e)
        for e in Entry.objects.filter(tournament=rnd.tournament_id).select_related("player")
    }
    return check_pairings(
        tables, met, byes, names, byes_limited=rnd.tournament.system == CompetitionSystem.SWISS
    )


def _rewrite(
    rnd: Round,
    changes: list[tuple[Match, int, int | None]],
    note: dict,
    reason: str,
    user,
    action: str,
) -> Round:
    """Apply new (entry A, entry B) to matches, re-check, record; all or nothing."""
    proposed = [(a, b) for _, a, b in changes]
    problems = check_tables(rnd, proposed)
    if problems and not reason.strip():
        raise PairingRefused(problems)
    before = [[m.table, m.entry_a_id, m.entry_b_id] for m, _, _ in changes]
    with transaction.atomic():
        # Free the seats first, so the one-seat-per-round index never sees a transient clash.
        Seat.objects.filter(match__in=[m for m, _, _ in changes]).delete()
        for m, a, b in changes:
            m.entry_a_id, m.entry_b_id = a, b
            bye = b is None
            m.result_status = ResultStatus.CONFIRMED if bye else ResultStatus.PENDING
            m.winner = "a" if bye else ""
            m.score_a = m.score_b = None
            m.match_length = None if bye else (m.match_length or rnd.match_length)
            m.version += 1
            m.save()
        draws = dict(
            Entry.objects.filter(pk__in=[x for p in proposed for x in p if x]).values_list(
                "pk", "draw_number"
            )
        )
        rematch_pairs = {
            frozenset((p.details["a"], p.details["b"]))
            for p in problems
            if p.code == "pairing.rematch"
        }
        expl = dict(rnd.explanation or {})
        rows = {r.get("table"): r for r in expl.get("pairings", [])}
        for m, a, b in changes:
            row = rows.setdefault(m.table, {"table": m.table})
            row.update(
                {
                    "a": draws.get(a),
                    "b": draws.get(b) if b else None,
                    "bye": b is None,
                    "white": draws.get(a) if expl.get("colours") else None,
                    "rematch": b is not None and frozenset((a, b)) in rematch_pairs,
                    "notes": [note],
                }
            )
        expl["pairings"] = sorted(rows.values(), key=lambda r: r.get("table") or 0)
        expl.setdefault("manual", []).append(
            {
                "action": action,
                "by": getattr(user, "username", "") or "",
                "reason": reason.strip(),
                "at": timezone.now().isoformat(),
                "overridden": [_problem_dict(p) for p in problems],
                "before": before,
            }
        )
        rnd.explanation = expl
        rnd.save(update_fields=["explanation"])
        audit(
            user,
            rnd.tournament,
            action,
            rnd,
            before={"tables": before},
            after={
                "tables": [[m.table, a, b] for m, a, b in changes],
                "overridden": [p.code for p in problems],
            },
            reason=reason.strip(),
        )
    return rnd


def swap_players(rnd: Round, entry_x: int, entry_y: int, *, user=None, reason: str = "") -> Round:
    """Players ``x`` and ``y`` (entry ids) exchange places: each takes the other's opponent."""
    _editable(rnd, by_hand=True)
    if entry_x == entry_y:
        raise PairingRefused(
            _problem(
                "pairing.same_player",
                "Choose two different players to swap.",
                "Выберите двух разных игроков для обмена.",
            )
        )
    mx, sx = _seat_of(rnd, entry_x)
    my, sy = _seat_of(rnd, entry_y)
    if mx.pk == my.pk:
        raise PairingRefused(
            _problem(
                "pairing.same_table",
                f"Both players already play each other at table {mx.table}: nothing to swap.",
                f"Эти игроки и так играют друг с другом за столом {mx.table}: менять нечего.",
                table=mx.table,
            )
        )
    seats_x = {"a": mx.entry_a_id, "b": mx.entry_b_id}
    seats_y = {"a": my.entry_a_id, "b": my.entry_b_id}
    seats_x[sx], seats_y[sy] = entry_y, entry_x
    changes = [(mx, *_ordered(seats_x)), (my, *_ordered(seats_y))]
    note = _manual_note("swap", mx.table, my.table, reason)
    return _rewrite(rnd, changes, note, reason, user, "round.swap")


def set_pairing(rnd: Round, entry_x: int, entry_y: int, *, user=None, reason: str = "") -> Round:
    """Make ``x`` and ``y`` play each other; their former opponents then meet (or take the bye)."""
    _editable(rnd, by_hand=True)
    if entry_x == entry_y:
        raise PairingRefused(
            _problem(
                "pairing.same_player",
                "A player cannot be paired with themselves.",
                "Игрока нельзя поставить в пару с самим собой.",
            )
        )
    mx, sx = _seat_of(rnd, entry_x)
    my, sy = _seat_of(rnd, entry_y)
    if mx.pk == my.pk:
        raise PairingRefused(
            _problem(
                "pairing.same_table",
                f"These players already meet at table {mx.table}.",
                f"Эти игроки и так встречаются за столом {mx.table}.",
                table=mx.table,
            )
        )
    px = mx.entry_b_id if sx == "a" else mx.entry_a_id
    py = my.entry_b_id if sy == "a" else my.entry_a_id
    rest = [p for p in (px, py) if p is not None]
    if not rest:
        raise PairingRefused(
            _problem(
                "pairing.two_byes",
                "Both players have byes; there is nobody to pair.",
                "У обоих игроков свободный тур; составлять пару не из кого.",
            )
        )
    # Bye rows are always the higher tables; keep the real pair at the lower table.
    low, high = sorted((mx, my), key=lambda m: (m.entry_b_id is None, m.table))
    other = (rest[0], rest[1] if len(rest) > 1 else None)
    changes = [(low, entry_x, entry_y), (high, *other)]
    note = _manual_note("fix", mx.table, my.table, reason)
    return _rewrite(rnd, changes, note, reason, user, "round.set_pairing")


def _ordered(seats: dict[str, int | None]) -> tuple[int, int | None]:
    a, b = seats["a"], seats["b"]
    return (b, None) if a is None else (a, b)


def _manual_note(kind: str, t1: int, t2: int, reason: str) -> dict[str, Any]:
    why_en = f" Reason: {reason.strip()}" if reason.strip() else ""
    why_ru = f" Причина: {reason.strip()}" if reason.strip() else ""
    if kind == "swap":
        en = f"Changed by hand: players swapped between tables {t1} and {t2}.{why_en}"
        ru = f"Изменено вручную: игроки столов {t1} и {t2} поменяны местами.{why_ru}"
    else:
        en = f"Set by hand (tables {t1} and {t2}).{why_en}"
        ru = f"Пара назначена вручную (столы {t1} и {t2}).{why_ru}"
    return {"code": f"manual_{kind}", "en": en, "ru": ru, "details": {"tables": [t1, t2]}}


# ---------------------------------------------------------------------------------------------
# publish, delete
# ---------------------------------------------------------------------------------------------


def publish_round(rnd: Round, *, user=None) -> Round:
    """Publish a draft: players and the public see it; earlier drafts must go first."""
    _editable(rnd)
    earlier = (
        rounds_of(rnd.tournament, rnd.section)
        .filter(number__lt=rnd.number, status=RoundStatus.DRAFT)
        .first()
    )
    if earlier is not None:
        raise PairingRefused(
            _problem(
                "pairing.publish_order",
                f"Publish round {earlier.number} before round {rnd.number}.",
                f"Сначала опубликуйте тур {earlier.number}, затем тур {rnd.number}.",
                round=earlier.number,
            )
        )
    with transaction.atomic():
        rnd.status = RoundStatus.PUBLISHED
        rnd.published_at = timezone.now()
        rnd.save(update_fields=["status", "published_at"])
        audit(
            user,
            rnd.tournament,
            "round.publish",
            rnd,
            before={"status": "draft"},
            after={"status": "published"},
        )
    return rnd


def delete_draft(rnd: Round, *, user=None) -> None:
    """Throw a draft away (only drafts: a published round has been seen by the players)."""
    _editable(rnd)
    later = (
        rounds_of(rnd.tournament, rnd.section)
        .filter(number__gt=rnd.number)
        .exclude(status=RoundStatus.DRAFT)
        .exists()
    )
    if later:
        raise PairingRefused(
            _problem(
                "pairing.delete_order",
                f"Round {rnd.number} cannot be deleted: a later round is already published.",
                f"Тур {rnd.number} нельзя удалить: более поздний тур уже опубликован.",
            )
        )
    with transaction.atomic():
        snapshot = {
            "number": rnd.number,
            "tables": list(rnd.matches.values_list("table", "entry_a_id", "entry_b_id")),
        }
        audit(user, rnd.tournament, "round.delete_draft", rnd, before=snapshot)
        rnd.delete()
