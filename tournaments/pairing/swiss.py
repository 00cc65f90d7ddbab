"""Swiss pairing (book Part 9: players with equal scores meet; 1–2, 3–4, … in round 1).

Rules, strongest first:

1. absolute: no rematch; at most one pairing bye per player, given to the
   lowest-ranked player who has not had one;
2. as few players floated out of their score group as possible;
3. the smallest score differences;
4. nobody floated down (or up) two rounds in a row;
5. inside a group, top half against bottom half by rank.

How it stays fast: groups are paired top-down, each on its own, carrying its
floaters into the next. A group is first paired greedily (top half v bottom
half, skipping former opponents); only when that leaves someone out does the
exact matcher (Edmonds) take over for that group, deciding the minimum number
of floaters and who they are. Only if the bottom of the field cannot be
completed are the lowest groups merged and re-paired, growing the merged part
until it works or the whole field proves that no rematch-free pairing exists —
in which case the result is a flagged proposal, never an exception or a loop.
So big fields cost little more than a sort, and the exact search runs only
where it is needed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from scoring.rules.errors import Problem
from tournaments.pairing import explain
from tournaments.pairing.matching import Matcher
from tournaments.pairing.problems import SWISS
from tournaments.pairing.swiss_input import (
    ABSENT,
    ACTIVE,
    FIRST_ROUND_ADJACENT,
    FLOAT_DOWN,
    FLOAT_UP,
    HALF_BYE,
    INVALID,
    NO_REMATCH_FREE,
    OK,
    SCORE_GAME_POINTS,
    SEED_RATING,
    STATUSES,
    PairingInput,
    ScoreGroupReport,
    SwissOptions,
    SwissPlayer,
    SwissResult,
)
from tournaments.pairing.types import BYE_ABSENT, BYE_PAIRING, BYE_REQUESTED, Bye, Pairing

Pair = tuple[int, int]


@dataclass
class _Ctx:
    """Per-section lookups shared by the helpers (built once, read everywhere)."""

    players: dict[int, SwissPlayer]
    score: dict[int, float]
    rank: dict[int, int]
    opp: dict[int, set[int]]
    options: SwissOptions
    float_reason: dict[int, str] = field(default_factory=dict)
    pair_notes: dict[int, list[Problem]] = field(default_factory=dict)
    notes: list[Problem] = field(default_factory=list)

    def ok(self, a: int, b: int) -> bool:
        return b not in self.opp[a]

    def last_float(self, pid: int) -> str | None:
        return self.players[pid].last_float


# ---------------------------------------------------------------------------------------------
# public entry point
# ---------------------------------------------------------------------------------------------


def pair_swiss(inp: PairingInput) -> SwissResult:
    """Pair the next round, section by section; never raises on a valid input."""
    problems = inp.options.problems() + input_problems(inp)
    if problems:
        return SwissResult(inp.round_number, INVALID, (), (), problems=tuple(problems))
    sections = sorted({p.section for p in inp.players})
    pairings: list[Pairing] = []
    byes: list[Bye] = []
    groups: list[ScoreGroupReport] = []
    notes: list[Problem] = []
    problems_out: list[Problem] = []
    status = OK
    for section in sections:
        res = _pair_section(inp, section)
        offset = len(pairings)
        pairings.extend(_renumber(p, p.table + offset) for p in res.pairings)
        byes.extend(res.byes)
        groups.extend(res.groups)
        notes.extend(res.notes)
        problems_out.extend(res.problems)
        if res.status != OK:
            status = res.status
    return SwissResult(
        inp.round_number,
        status,
        tuple(pairings),
        tuple(byes),
        tuple(groups),
        tuple(notes),
        tuple(problems_out),
    )


def input_problems(inp: PairingInput) -> list[Problem]:
    """Input mistakes the caller must fix before any pairing makes sense."""
    out: list[Problem] = []
    if inp.round_number < 1:
        out.append(SWISS.problem("round_invalid", round=inp.round_number))
    seen: set[int] = set()
    numbers: set[tuple[str, int]] = set()
    for p in inp.players:
        if p.id in seen:
            out.append(SWISS.problem("duplicate_player", player=p.id))
        seen.add(p.id)
        if (p.section, p.draw_number) in numbers:
            out.append(
                SWISS.problem(
                    "duplicate_draw_number",
                    player=p.id,
                    draw_number=p.draw_number,
                    section=p.section,
                )
            )
        numbers.add((p.section, p.draw_number))
        if p.status not in STATUSES:
            out.append(SWISS.problem("status_invalid", player=p.id, status=p.status))
        if p.id in p.opponents:
            out.append(SWISS.problem("self_opponent", player=p.id))
    return out


def score_of(p: SwissPlayer, options: SwissOptions) -> float:
    return p.game_points if options.score == SCORE_GAME_POINTS else p.match_points


def seed_key(p: SwissPlayer, options: SwissOptions) -> tuple[int, ...]:
    """Order inside a score group: draw number (the book) or rating, then draw number."""
    if options.seed_by == SEED_RATING:
        return (-p.rating, p.draw_number)
    return (p.draw_number,)


# ---------------------------------------------------------------------------------------------
# one section
# ---------------------------------------------------------------------------------------------


def _pair_section(inp: PairingInput, section: str) -> SwissResult:
    opts = inp.options
    members = [p for p in inp.players if p.section == section and p.status != "withdrawn"]
    members.sort(key=lambda p: (-score_of(p, opts), *seed_key(p, opts)))
    byes: list[Bye] = []
    for p in members:
        if p.status == HALF_BYE:
            note = explain.bye_requested(p.id, opts.half_bye_points)
            byes.append(Bye(p.id, BYE_REQUESTED, opts.half_bye_points, section, (note,)))
        elif p.status == ABSENT:
            byes.append(Bye(p.id, BYE_ABSENT, 0.0, section, (explain.bye_absent(p.id),)))
    active = [p for p in members if p.status == ACTIVE]
    ids = [p.id for p in active]
    id_set = set(ids)
    ctx = _Ctx(
        players={p.id: p for p in active},
        score={p.id: score_of(p, opts) for p in active},
        rank={pid: i for i, pid in enumerate(ids)},
        opp={p.id: set(p.opponents) & id_set for p in active},
        options=opts,
    )
    problems: list[Problem] = []
    feasible = True
    if len(ids) % 2 == 1:
        bye_id, bye_ok, bye_problem = _choose_bye(ids, ctx)
        if bye_problem is not None:
            problems.append(bye_problem)
        feasible = feasible and bye_ok
        ids.remove(bye_id)
        note = explain.bye_pairing(bye_id, ctx.score[bye_id], opts.bye_points)
        byes.insert(0, Bye(bye_id, BYE_PAIRING, opts.bye_points, section, (note,)))

    pairs: list[Pair] | None = None
    if inp.round_number == 1:
        pairs = _first_round(ids, ctx)
    if pairs is None:
        pairs, unmatched = _pair_groups(ids, ctx)
        if unmatched:
            feasible = False
            pairs.extend(_pair_leftovers(unmatched, ctx))
    status = OK
    rematches = [(a, b) for a, b in pairs if not ctx.ok(a, b)]
    if rematches:
        feasible = False
        problems.append(
            SWISS.problem(
                "no_rematch_free",
                round=inp.round_number,
                section=section,
                rematches=[list(r) for r in rematches],
            )
        )
    if not feasible and not opts.allow_rematches:
        status = NO_REMATCH_FREE
    pairings = _finish(pairs, ctx, section, rematch_allowed=opts.allow_rematches)
    groups = _group_reports(pairs, ctx, section)
    return SwissResult(
        inp.round_number,
        status,
        tuple(pairings),
        tuple(byes),
        tuple(groups),
        tuple(ctx.notes),
        tuple(problems),
    )


def _renumber(p: Pairing, table: int) -> Pairing:
    return Pairing(table, p.a, p.b, p.white, p.section, p.rematch, p.notes)


# ---------------------------------------------------------------------------------------------
# the bye
# ---------------------------------------------------------------------------------------------


def _choose_bye(ids: list[int], ctx: _Ctx) -> tuple[int, bool, Problem | None]:
    """The pairing bye: lowest-ranked player without one, if the rest stays pairable.

    Returns the player, whether the rest can be paired without rematches, and
    a problem when the absolute bye rule itself cannot be kept.
    """
    eligible = [pid for pid in reversed(ids) if not ctx.players[pid].bye_rounds]
    problem = None
    if not eligible:
        eligible = list(reversed(ids))
        problem = SWISS.problem("no_bye_candidate", player=eligible[0])
    n = len(ids)
    worst_missing = max(len(ctx.opp[pid]) for pid in ids)
    # Dirac: if everyone can still meet at least half of the others, any bye leaves a perfect
    # rematch-free pairing, so the exact check is only needed for small or late fields.
    if n - 2 - worst_missing >= (n - 1) / 2:
        return eligible[0], problem is None, problem
    index = {pid: i for i, pid in enumerate(ids)}
    matcher = _matcher(ids, ctx)
    if matcher.maximise() < (n - 1) // 2:
        return eligible[0], False, problem
    for pid in eligible:
        if matcher.release(index[pid]):
            return pid, problem is None, problem
    return eligible[0], False, problem


def _matcher(verts: list[int], ctx: _Ctx, mate: list[int] | None = None) -> Matcher:
    """A matcher over local indices whose edges are the games still allowed (no rematch)."""
    opp = ctx.opp

    def neighbours(v: int) -> Iterable[int]:
        played = opp[verts[v]]
        return (u for u in range(len(verts)) if u != v and verts[u] not in played)

    def adjacent(u: int, v: int) -> bool:
        return u != v and verts[v] not in opp[verts[u]]

    return Matcher(len(verts), neighbours, adjacent, mate)


# ---------------------------------------------------------------------------------------------
# round 1
# ---------------------------------------------------------------------------------------------


def _first_round(ids: list[int], ctx: _Ctx) -> list[Pair] | None:
    """1–2, 3–4, … (the book) or top half v bottom half; ``None`` if history forbids it."""
    rule = ctx.options.first_round
    if rule == FIRST_ROUND_ADJACENT:
        pairs = [(ids[i], ids[i + 1]) for i in range(0, len(ids) - 1, 2)]
    else:
        h = len(ids) // 2
        pairs = [(ids[i], ids[i + h]) for i in range(h)]
    if any(not ctx.ok(a, b) for a, b in pairs):
        return None
    ctx.notes.append(explain.first_round(rule))
    for a, _ in pairs:
        ctx.pair_notes.setdefault(a, []).append(explain.first_round(rule))
    return pairs


# ---------------------------------------------------------------------------------------------
# later rounds: score groups top-down
# ---------------------------------------------------------------------------------------------


def _pair_groups(ids: list[int], ctx: _Ctx) -> tuple[list[Pair], list[int]]:
    """Pair group by group; return the pairs and anyone left without a rematch-free opponent."""
    groups: list[list[int]] = []
    for pid in ids:
        if groups and ctx.score[groups[-1][0]] == ctx.score[pid]:
            groups[-1].append(pid)
        else:
            groups.append([pid])
    per_group: list[list[Pair]] = []
    carried: list[int] = []
    for group in groups:
        pairs, carried = _pair_bracket(carried, group, ctx)
        per_group.append(pairs)
    if not carried:
        return [p for ps in per_group for p in ps], []
    return _repair_bottom(per_group, carried, ctx)


def _pair_bracket(down: list[int], residents: list[int], ctx: _Ctx) -> tuple[list[Pair], list[int]]:
    """Pair one score group plus the floaters it received; return pairs and new floaters."""
    total = len(down) + len(residents)
    pairs, left, odd = _greedy_bracket(down, residents, ctx)
    if not left:
        floaters = [odd] if odd is not None else []
        for f in floaters:
            ctx.float_reason.setdefault(f, explain.REASON_ODD)
        return pairs, floaters
    return _exact_bracket(down, residents, pairs, total, ctx)


def _pick_odd_floater(residents: list[int], down: list[int], ctx: _Ctx) -> int:
    """Lowest-ranked resident who did not float down last round (rule 4), else the lowest."""
    for pid in reversed(residents):
        if ctx.last_float(pid) != FLOAT_DOWN:
            return pid
    return residents[-1] if residents else down[-1]


def _greedy_bracket(
    down: list[int], residents: list[int], ctx: _Ctx
) -> tuple[list[Pair], list[int], int | None]:
    """The fast path: floaters take the top residents, then top half v bottom half."""
    odd = None
    res = list(residents)
    if (len(down) + len(res)) % 2 == 1:
        odd = _pick_odd_floater(res, down, ctx)
        if odd in res:
            res.remove(odd)
        else:
            down = [d for d in down if d != odd]
    pairs: list[Pair] = []
    left: list[int] = []
    taken: set[int] = set()
    for d in down:
        # Prefer a resident who did not float up last round (rule 4), else any.
        choice = None
        for pid in res:
            if pid in taken or not ctx.ok(d, pid):
                continue
            if ctx.last_float(pid) != FLOAT_UP:
                choice = pid
                break
            if choice is None:
                choice = pid
        if choice is None:
            left.append(d)
        else:
            taken.add(choice)
            pairs.append((d, choice))
    rest = [pid for pid in res if pid not in taken] if taken else res
    h = len(rest) // 2
    s1, s2 = rest[:h], rest[h:]
    used = [False] * len(s2)
    ptr = 0
    unpaired: list[int] = []
    for p in s1:
        played = ctx.opp[p]
        while ptr < len(s2) and used[ptr]:
            ptr += 1
        j = ptr
        skipped: list[int] = []
        while j < len(s2):
            if not used[j]:
                if s2[j] not in played:
                    break
                skipped.append(s2[j])
            j += 1
        if j < len(s2):
            used[j] = True
            pairs.append((p, s2[j]))
            if skipped:
                ctx.pair_notes.setdefault(p, []).append(explain.rematch_avoided(p, skipped))
        else:
            unpaired.append(p)
    unpaired.extend(s2[j] for j in range(len(s2)) if not used[j])
    unpaired.extend(left)
    left = []
    if unpaired:
        unpaired.sort(key=ctx.rank.__getitem__)
        while unpaired:
            p = unpaired.pop(0)
            for k, q in enumerate(unpaired):
                if ctx.ok(p, q):
                    pairs.append((p, q))
                    del unpaired[k]
                    break
            else:
                left.append(p)
    return pairs, left, odd


def _exact_bracket(
    down: list[int], residents: list[int], greedy_pairs: list[Pair], total: int, ctx: _Ctx
) -> tuple[list[Pair], list[int]]:
    """The exact path: fewest floaters (maximum matching), then preferences under guard."""
    verts = list(down) + list(residents)
    index = {pid: i for i, pid in enumerate(verts)}
    mate = [-1] * len(verts)
    for a, b in greedy_pairs:
        mate[index[a]], mate[index[b]] = index[b], index[a]
    matcher = _matcher(verts, ctx, mate)
    size = matcher.maximise()
    need = total - 2 * size
    # Who floats: lowest residents first (not those who floated down last round), then the
    # floaters received from above, lowest first.
    order = [pid for pid in reversed(residents) if ctx.last_float(pid) != FLOAT_DOWN]
    order += [pid for pid in reversed(residents) if ctx.last_float(pid) == FLOAT_DOWN]
    order += list(reversed(down))
    floaters: list[int] = []
    for pid in order:
        if len(floaters) == need:
            break
        if matcher.release(index[pid]):
            floaters.append(pid)
    for f in floaters:
        alone = all(not ctx.ok(f, q) for q in verts if q != f and q not in floaters)
        if alone:
            reason = explain.REASON_NO_OPPONENT
        elif need == total % 2:
            reason = explain.REASON_ODD
        else:
            reason = explain.REASON_UNPAIRABLE
        ctx.float_reason.setdefault(f, reason)
    if len(verts) - len(floaters) <= ctx.options.repair_limit:
        pairs = _preference_pass(matcher, verts, down, residents, ctx)
    else:
        pairs = _mate_pairs(matcher.mate, verts)
    return pairs, floaters


def _mate_pairs(mate: list[int], verts: list[int]) -> list[Pair]:
    return [(verts[v], verts[u]) for v, u in enumerate(mate) if u > v]


def _preference_pass(
    matcher: Matcher, verts: list[int], down: list[int], residents: list[int], ctx: _Ctx
) -> list[Pair]:
    """Fix pairs in the order of the rules, each only if the rest can still be completed."""
    index = {pid: i for i, pid in enumerate(verts)}
    live = [pid for pid in verts if matcher.active[index[pid]]]
    live_set = set(live)
    pairs: list[Pair] = []

    def commit(p: int, prefs: list[int]) -> None:
        for q in prefs:
            if q in live_set and ctx.ok(p, q) and matcher.fix_pair(index[p], index[q]):
                live_set.discard(p)
                live_set.discard(q)
                pairs.append((p, q))
                return

    for d in down:
        if d in live_set:
            res = [r for r in residents if r in live_set]
            prefs = [r for r in res if ctx.last_float(r) != FLOAT_UP]
            prefs += [r for r in res if ctx.last_float(r) == FLOAT_UP]
            prefs += [x for x in down if x in live_set and x != d]
            commit(d, prefs)
    while True:
        rem = [r for r in residents if r in live_set]
        if not rem:
            break
        p, others = rem[0], rem[1:]
        h = (len(others) + 1) // 2
        s1_rest, s2 = others[: h - 1], others[h - 1 :]
        before = len(pairs)
        commit(p, s2 + list(reversed(s1_rest)))
        if len(pairs) == before:  # cannot happen with a perfect matching; stay safe
            live_set.discard(p)
            continue
        partner = pairs[-1][1]
        upto = s2.index(partner) if partner in s2 else len(s2)
        skipped = [q for q in s2[:upto] if not ctx.ok(p, q)]
        if skipped:
            ctx.pair_notes.setdefault(p, []).append(explain.rematch_avoided(p, skipped))
    return pairs


def _repair_bottom(
    per_group: list[list[Pair]], carried: list[int], ctx: _Ctx
) -> tuple[list[Pair], list[int]]:
    """Merge the lowest groups with the leftovers until a rematch-free completion exists."""
    j = len(per_group) - 1
    step = 1
    while True:
        suffix = [p for ps in per_group[j:] for p in ps]
        verts = sorted(
            {x for pr in suffix for x in pr} | set(carried),
            key=lambda pid: (-ctx.score[pid], ctx.rank[pid]),
        )
        index = {pid: i for i, pid in enumerate(verts)}
        mate = [-1] * len(verts)
        for a, b in suffix:
            mate[index[a]], mate[index[b]] = index[b], index[a]
        matcher = _matcher(verts, ctx, mate)
        size = matcher.maximise()
        perfect = 2 * size == len(verts)
        if perfect or j == 0:
            free = [verts[v] for v in matcher.free_vertices()]
            for pid in free:
                matcher.release(index[pid])
            if len(verts) <= ctx.options.repair_limit:
                new_pairs = _closest_score_pass(matcher, verts, ctx)
            else:
                new_pairs = _mate_pairs(matcher.mate, verts)
            old = set(suffix)
            for a, b in new_pairs:
                if (a, b) not in old and (b, a) not in old:
                    for x in (a, b):
                        ctx.float_reason[x] = explain.REASON_REPAIR
            ctx.notes.append(explain.fallback_used(len(verts)))
            kept = [p for ps in per_group[:j] for p in ps]
            return kept + new_pairs, free
        j = max(0, j - step)
        step *= 2


def _closest_score_pass(matcher: Matcher, verts: list[int], ctx: _Ctx) -> list[Pair]:
    """Guarded greedy: highest first, each takes the closest score it may still meet."""
    index = {pid: i for i, pid in enumerate(verts)}
    live = [pid for pid in verts if matcher.active[index[pid]]]
    live_set = set(live)
    pairs: list[Pair] = []
    for p in live:
        if p not in live_set:
            continue
        sp = ctx.score[p]
        prefs = sorted(
            (q for q in live_set if q != p and ctx.ok(p, q)),
            key=lambda q: (abs(sp - ctx.score[q]), ctx.rank[q]),
        )
        for q in prefs:
            if matcher.fix_pair(index[p], index[q]):
                live_set.discard(p)
                live_set.discard(q)
                pairs.append((p, q))
                break
        else:
            live_set.discard(p)
    return pairs


def _pair_leftovers(unmatched: list[int], ctx: _Ctx) -> list[Pair]:
    """No rematch-free pairing: pair the rest in rank order; each table is flagged."""
    rest = sorted(unmatched, key=lambda pid: (-ctx.score[pid], ctx.rank[pid]))
    return [(rest[i], rest[i + 1]) for i in range(0, len(rest) - 1, 2)]


# ---------------------------------------------------------------------------------------------
# finishing: order, tables, colours, explanations
# ---------------------------------------------------------------------------------------------


def _finish(pairs: list[Pair], ctx: _Ctx, section: str, rematch_allowed: bool) -> list[Pairing]:
    score, rank = ctx.score, ctx.rank
    ordered = []
    for a, b in pairs:
        if (score[b], -rank[b]) > (score[a], -rank[a]):
            a, b = b, a
        ordered.append((a, b))
    ordered.sort(key=lambda ab: (-score[ab[0]], -score[ab[1]], rank[ab[0]]))
    group_size: dict[float, int] = {}
    for pid in ctx.score:
        group_size[score[pid]] = group_size.get(score[pid], 0) + 1
    out: list[Pairing] = []
    for table, (a, b) in enumerate(ordered, start=1):
        notes: list[Problem] = []
        rematch = not ctx.ok(a, b)
        if score[a] == score[b]:
            notes.append(explain.same_group(score[a], group_size[score[a]]))
        else:
            reason = ctx.float_reason.get(a, explain.REASON_REPAIR)
            notes.append(explain.floated_down(a, score[a], score[b], reason))
            notes.append(explain.floated_up(b, score[b], score[a]))
            if ctx.last_float(a) == FLOAT_DOWN:
                notes.append(explain.float_repeat(a, FLOAT_DOWN))
            if ctx.last_float(b) == FLOAT_UP:
                notes.append(explain.float_repeat(b, FLOAT_UP))
        for pid in (a, b):
            notes.extend(ctx.pair_notes.get(pid, ()))
        white = None
        if ctx.options.alternate_colours:
            white, why = _colour(a, b, table, ctx)
            notes.append(explain.colour(white, why))
        if rematch:
            notes.append(explain.rematch_forced(a, b, rematch_allowed))
        out.append(Pairing(table, a, b, white, section, rematch, tuple(notes)))
    return out


def _colour(a: int, b: int, table: int, ctx: _Ctx) -> tuple[int, str]:
    """Who is White when the format fixes sides (long nardy with a set number of games)."""

    def balance(pid: int) -> int:
        cs = ctx.players[pid].colours
        return sum(1 for c in cs if c == "w") - sum(1 for c in cs if c == "b")

    def last(pid: int) -> str | None:
        for c in reversed(ctx.players[pid].colours):
            if c is not None:
                return c
        return None

    ba, bb = balance(a), balance(b)
    if ba != bb:
        return (a if ba < bb else b), "balance"
    la, lb = last(a), last(b)
    if la != lb and (la == "b" or lb == "b"):
        return (a if la == "b" else b), "alternate"
    if la is not None:
        return (b if la == "w" else a), "alternate"
    return (a if table % 2 == 1 else b), "seed"


def _group_reports(pairs: list[Pair], ctx: _Ctx, section: str) -> list[ScoreGroupReport]:
    score = ctx.score
    members: dict[float, list[int]] = {}
    for pid in sorted(score, key=ctx.rank.__getitem__):
        members.setdefault(score[pid], []).append(pid)
    down_in: dict[float, list[int]] = {s: [] for s in members}
    down_out: dict[float, list[int]] = {s: [] for s in members}
    for a, b in pairs:
        if score[a] == score[b]:
            continue
        hi, lo = (a, b) if score[a] > score[b] else (b, a)
        down_out[score[hi]].append(hi)
        down_in[score[lo]].append(hi)
    return [
        ScoreGroupReport(
            section, s, tuple(members[s]), tuple(down_in[s]), tuple(sorted(down_out[s]))
        )
        for s in sorted(members, reverse=True)
    ]


def score_difference(pairings: Iterable[Pairing], scores: dict[int, float]) -> float:
    """Sum of score differences across tables (a quality figure for the benchmark and UI)."""
    return sum(abs(scores[p.a] - scores[p.b]) for p in pairings)
