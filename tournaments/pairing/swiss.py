"""Swiss pairing (book Part 9: players with equal scores meet; 1–2, 3–4, … in round 1).

The criteria, stated once, strongest first (:mod:`tournaments.pairing.criteria`
measures 2 and 3; the manual repeats this list: docs/manual/*/organiser/systems.md):

1. absolute: no rematch; no forbidden pair (``PairingInput.forbidden_pairs``);
   each player once; the pairing bye goes to a player who has not had one, in
   the lowest score group where such a player leaves a rematch-free pairing
   (requested half-point byes and known absences are the organiser's; if no
   pairing keeps these rules the result is a flagged proposal, never an
   exception);
2. going down the score groups from the top, as few players as possible float
   out of each group — counted as players crossing the boundary below it, so a
   player floated two groups down counts for both;
3. then, group by group from the top, the smallest score differences for the
   players who float (fewest tables with the largest difference first);
4. then the book's order: nobody floats the same way two rounds in a row if
   avoidable, the lowest-ranked player floats and meets the top of the group
   below, and inside a group the top half meets the bottom half (by draw number
   or rating); round 1 is 1–2, 3–4, … changed only where a pair may not meet
   (:mod:`tournaments.pairing.first_round`). Colours play no part (backgammon has none; long nardy's sides
   are only assigned afterwards).

How it is optimal and still fast: the whole round is one matching problem,
but most of it is easy. The top-down pass (each group greedily, top half v
bottom half, its odd player floating into the next) is kept only when a lower
bound proves it cannot be beaten on 2 and 3 (:func:`_certified`: every
boundary crossed by no more players than parity or a maximum matching of
either side forces, and every floater meeting the next group). Otherwise the
groups around the trouble are paired by one maximum-weight matching
(:mod:`tournaments.pairing.weighted`, Edmonds) whose integer weights spell
the criteria as digits, most significant first; the window doubles until the
certificate holds or it spans the section, where the matching is optimal by
construction. Only allowed games are edges, and only the window's players are
vertices, so a 10,000-player round costs about a sort.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from scoring.rules.errors import Problem
from tournaments.pairing import explain
from tournaments.pairing.criteria import parity_bound, quality
from tournaments.pairing.first_round import first_round
from tournaments.pairing.matching import Matcher
from tournaments.pairing.problems import SWISS
from tournaments.pairing.swiss_input import (
    ABSENT,
    ACTIVE,
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
from tournaments.pairing.weighted import max_weight_matching

Pair = tuple[int, int]

#: How many other players of the bye's score group are tried when the default bye is not
#: provably best (each trial is one pairing of the round; only small or late fields get here).
BYE_TRIALS = 24
#: Largest side whose maximum matching the certificate computes (a proof costs O(side²) when
#: it fails); beyond it the window grows instead.
BOUND_LIMIT = 600


@dataclass
class _Ctx:
    """Per-section lookups shared by the helpers (built once, read everywhere)."""

    players: dict[int, SwissPlayer]
    score: dict[int, float]
    rank: dict[int, int]
    opp: dict[int, set[int]]  # may not meet: former opponents and forbidden pairs
    options: SwissOptions
    met: dict[int, set[int]] = field(default_factory=dict)  # former opponents only
    forbidden: dict[int, set[int]] = field(default_factory=dict)
    bye: int | None = None
    bye_score: float | None = None
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
    for pair in sorted(inp.forbidden_pairs, key=sorted):
        if len(pair) != 2 or not pair <= seen:
            out.append(SWISS.problem("forbidden_invalid", players=sorted(pair)))
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
    forbidden: dict[int, set[int]] = {}
    for pair in inp.forbidden_pairs:
        a, b = sorted(pair)
        if a in id_set and b in id_set:
            forbidden.setdefault(a, set()).add(b)
            forbidden.setdefault(b, set()).add(a)
    met = {p.id: set(p.opponents) & id_set for p in active}
    ctx = _Ctx(
        players={p.id: p for p in active},
        score={p.id: score_of(p, opts) for p in active},
        rank={pid: i for i, pid in enumerate(ids)},
        opp={pid: met[pid] | forbidden.get(pid, set()) for pid in ids},
        options=opts,
        met=met,
        forbidden=forbidden,
    )
    problems: list[Problem] = []
    feasible = True
    bye_id: int | None = None
    if len(ids) % 2 == 1:
        bye_id, bye_ok, bye_problem = _choose_bye(ids, ctx)
        if bye_problem is not None:
            problems.append(bye_problem)
        feasible = feasible and bye_ok

    pairs: list[Pair] | None = None
    rest = [pid for pid in ids if pid != bye_id]
    if inp.round_number == 1:
        ctx.bye = bye_id
        pairs = _first_round(rest, ctx)
    if pairs is None:
        ctx.bye = bye_id
        ctx.bye_score = ctx.score[bye_id] if bye_id is not None else None
        mark = len(ctx.notes)
        pairs, unmatched = _pair_groups(rest, ctx)
        if bye_id is not None and feasible and not unmatched:
            better = _better_bye(ids, bye_id, pairs, ctx)
            if better is not None:
                bye_id = better
                ctx.bye, ctx.bye_score = bye_id, ctx.score[bye_id]
                del ctx.notes[mark:]
                pairs, unmatched = _pair_groups([pid for pid in ids if pid != bye_id], ctx)
        if unmatched:
            feasible = False
            pairs.extend(_pair_leftovers(unmatched, ctx))
    if bye_id is not None:
        note = explain.bye_pairing(bye_id, ctx.score[bye_id], opts.bye_points)
        byes.insert(0, Bye(bye_id, BYE_PAIRING, opts.bye_points, section, (note,)))
    status = OK
    rematches = [(a, b) for a, b in pairs if not ctx.ok(a, b)]  # a rematch or a forbidden pair
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


def _better_bye(ids: list[int], bye_id: int, pairs: list[Pair], ctx: _Ctx) -> int | None:
    """Another player of the bye's score group whose bye lets the rest pair better, if any.

    The bye rule fixes the score group (the lowest one with an eligible player
    whose absence leaves a rematch-free pairing); inside it, a different player
    can sometimes save a float higher up (the Dutch system chooses the same
    way). Ties keep the lowest-ranked player. When the default bye already
    pairs at the parity bound no other player of the group can do better (the
    group sizes, hence the bound, are the same), so nothing is tried;
    otherwise up to ``BYE_TRIALS`` candidates are, lowest-ranked first.
    """
    if _at_parity(pairs, _score_groups([pid for pid in ids if pid != bye_id], ctx)):
        return None
    best, best_quality = None, quality(pairs, ctx.score)
    candidates = [
        pid
        for pid in reversed(ids)
        if pid != bye_id
        and ctx.score[pid] == ctx.score[bye_id]
        and not ctx.players[pid].bye_rounds
    ]
    notes = len(ctx.notes)
    for pid in candidates[:BYE_TRIALS]:
        tried, unmatched = _pair_groups([x for x in ids if x != pid], ctx)
        del ctx.notes[notes:]
        if not unmatched:
            q = quality(tried, ctx.score)
            if q < best_quality:
                best, best_quality = pid, q
    return best


def _at_parity(pairs: list[Pair], groups: list[list[int]]) -> bool:
    """Every floater meets the next group and each boundary is crossed at most by parity."""
    index = {pid: i for i, g in enumerate(groups) for pid in g}
    cross = [0] * len(groups)
    for a, b in pairs:
        i, j = sorted((index[a], index[b]))
        if j - i > 1:
            return False
        if j > i:
            cross[i] += 1
    bound = parity_bound([len(g) for g in groups])
    return all(c <= b for c, b in zip(cross, bound, strict=False))


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
    """1–2, 3–4, … (the book) or top half v bottom half, changed only where a pair may not meet
    (:mod:`tournaments.pairing.first_round`); ``None`` if no valid pairing exists at all."""
    rule = ctx.options.first_round
    got = first_round(ids, rule, ctx.ok)
    if got is None:
        return None
    ctx.notes.append(explain.first_round(rule))
    for a, _ in got.pairs:
        ctx.pair_notes.setdefault(a, []).append(explain.first_round(rule))
    for repair in got.repairs:
        note = explain.first_round_changed(rule, repair.book, repair.blocked, repair.made)
        ctx.notes.append(note)
        for a, _ in repair.made:
            ctx.pair_notes.setdefault(a, []).append(note)
    return list(got.pairs)


# ---------------------------------------------------------------------------------------------
# later rounds: the fast path, its certificate, and the exact window
# ---------------------------------------------------------------------------------------------


def _score_groups(ids: list[int], ctx: _Ctx) -> list[list[int]]:
    groups: list[list[int]] = []
    for pid in ids:
        if groups and ctx.score[groups[-1][0]] == ctx.score[pid]:
            groups[-1].append(pid)
        else:
            groups.append([pid])
    return groups


def _pair_groups(ids: list[int], ctx: _Ctx) -> tuple[list[Pair], list[int]]:
    """The optimal pairing of the round; returns the pairs and anyone left without a partner.

    First the fast path; if it is certified optimal (see :func:`_certified`) it
    stands. Otherwise the groups around the first trouble are paired exactly
    (:func:`_exact`), the rest by the fast path, and the window doubles until
    the whole is certified or the window is the whole section — where the
    exact matching is optimal by construction. Nothing greedy is kept unless
    the certificate proves no pairing is better.
    """
    ctx.float_reason.clear()
    ctx.pair_notes.clear()
    groups = _score_groups(ids, ctx)
    k = len(groups)
    pairs, carried, fail = _fast(groups, 0, k, [], ctx)
    if fail is None and not carried and _certified(pairs, groups, ctx):
        return pairs, []
    first = fail if fail is not None else k - 1
    lo, hi = max(0, first - 1), min(k - 1, first + 1)
    while True:
        ctx.float_reason.clear()
        ctx.pair_notes.clear()
        if lo == 0 and hi == k - 1:
            pairs, left = _exact(groups, [], None, ctx)
            ctx.notes.append(explain.exact_window(ctx.score[ids[0]], ctx.score[ids[-1]], len(ids)))
            return pairs, left
        top, carried, _ = _fast(groups, 0, lo, [], ctx)
        below = ctx.score[groups[hi + 1][0]] if hi + 1 < k else None
        mid, floaters = _exact(groups[lo : hi + 1], carried, below, ctx)
        bottom, rest, fail = _fast(groups, hi + 1, k, floaters, ctx)
        total = top + mid + bottom
        if fail is None and not rest and _certified(total, groups, ctx):
            size = len(carried) + sum(len(g) for g in groups[lo : hi + 1])
            hi_score, lo_score = ctx.score[groups[lo][0]], ctx.score[groups[hi][0]]
            ctx.notes.append(explain.exact_window(hi_score, lo_score, size))
            return total, []
        span = hi - lo + 1
        lo, hi = max(0, lo - span), min(k - 1, hi + span)


def _fast(
    groups: list[list[int]], start: int, stop: int, carried: list[int], ctx: _Ctx
) -> tuple[list[Pair], list[int], int | None]:
    """Groups ``start..stop-1`` top-down, each paired greedily with the floaters it received.

    Returns the pairs, the floaters out of the last group, and the index of the
    first group the greedy pass could not pair completely (``None`` if none).
    """
    pairs: list[Pair] = []
    for i in range(start, stop):
        got, left, odd = _greedy_bracket(carried, groups[i], ctx)
        if left:
            matched = _bracket_matching(carried, groups[i], got, left, ctx)
            if matched is None:
                return pairs, carried, i
            got, odd = matched
        pairs.extend(got)
        carried = [odd] if odd is not None else []
        for f in carried:
            ctx.float_reason.setdefault(f, explain.REASON_ODD)
    return pairs, carried, None


def _bracket_matching(
    down: list[int], residents: list[int], greedy: list[Pair], left: list[int], ctx: _Ctx
) -> tuple[list[Pair], int | None] | None:
    """Complete a group the greedy pass left unfinished with an exact maximum matching.

    Seeded with the greedy pairs, Edmonds' augmenting paths usually fix the few
    players left over at once. The group counts as done only if everyone who
    floated in is paired here and at most one resident (by parity) floats on —
    the fast path's own standard; otherwise ``None`` and the exact window takes over.
    """
    verts = list(down) + list(residents)
    index = {pid: i for i, pid in enumerate(verts)}
    mate = [-1] * len(verts)
    for a, b in greedy:
        mate[index[a]], mate[index[b]] = index[b], index[a]
    matcher = _matcher(verts, ctx, mate)
    if len(verts) - 2 * matcher.maximise() > len(verts) % 2:
        return None
    odd = None
    if len(verts) % 2:
        order = [pid for pid in reversed(residents) if ctx.last_float(pid) != FLOAT_DOWN]
        order += [pid for pid in reversed(residents) if ctx.last_float(pid) == FLOAT_DOWN]
        odd = next((pid for pid in order if matcher.release(index[pid])), None)
        if odd is None:
            return None
    _floaters_take_the_top(down, residents, odd, matcher, index, ctx)
    pairs = _mate_pairs(matcher.mate, verts)
    return _book_order(pairs, [residents], ctx), odd


def _floaters_take_the_top(
    down: list[int],
    residents: list[int],
    odd: int | None,
    matcher: Matcher,
    index: dict[int, int],
    ctx: _Ctx,
) -> None:
    """Fix each floater with the resident the fast path prefers, while the rest stays pairable.

    The augmenting paths that completed the group may have moved a floater off the top of
    the group just to free two residents who may not meet; the book's order (rule 4: the
    floater meets the top of the group below, one who did not float up last round first)
    is restored here, so a forbidden pair or a rematch inside the group changes only the
    tables it must (:func:`_book_order` then re-pairs the residents left, top half v
    bottom half).
    """
    taken: set[int] = set()
    for d in down:
        if d == odd:
            continue
        free = [pid for pid in residents if pid != odd and pid not in taken]
        order = [pid for pid in free if ctx.last_float(pid) != FLOAT_UP]
        order += [pid for pid in free if ctx.last_float(pid) == FLOAT_UP]
        for q in order:
            if ctx.ok(d, q) and matcher.fix_pair(index[d], index[q]):
                taken.add(q)
                break


def _mate_pairs(mate: list[int], verts: list[int]) -> list[Pair]:
    return [(verts[v], verts[u]) for v, u in enumerate(mate) if u > v]


def _certified(pairs: list[Pair], groups: list[list[int]], ctx: _Ctx) -> bool:
    """Whether ``pairs`` provably can't be beaten on the quality criteria (a lower-bound proof).

    Boundary ``j`` (below group ``j``) must be crossed by at least as many
    players as cannot be paired among the groups above it, nor among the groups
    below it (a maximum matching of each side; by parity alone when every pair
    stays inside its group). If every boundary is crossed by exactly that
    minimum, no pairing floats fewer players out of any group; and if every
    floater meets the next group, the score differences are the smallest
    possible too (merging two crossings into one longer float only makes the
    largest difference larger).
    """
    index = {pid: i for i, g in enumerate(groups) for pid in g}
    cross = [0] * len(groups)
    for a, b in pairs:
        i, j = sorted((index[a], index[b]))
        if j - i > 1:
            return False
        if j > i:
            cross[i] += 1
    above = 0
    for j in range(len(groups) - 1):
        above += len(groups[j])
        if cross[j] <= above % 2:
            continue
        sides = sorted(
            ([p for g in groups[: j + 1] for p in g], [p for g in groups[j + 1 :] for p in g]),
            key=len,
        )
        if not any(
            len(side) <= BOUND_LIMIT and cross[j] <= _unpairable(side, pairs, ctx)
            for side in sides
        ):
            return False
    return True


def _unpairable(verts: list[int], pairs: list[Pair], ctx: _Ctx) -> int:
    """How many of ``verts`` stay single in a maximum rematch-free matching among themselves."""
    index = {pid: i for i, pid in enumerate(verts)}
    mate = [-1] * len(verts)
    for a, b in pairs:
        if a in index and b in index:
            mate[index[a]], mate[index[b]] = index[b], index[a]
    matcher = _matcher(verts, ctx, mate)
    return len(verts) - 2 * matcher.maximise()


def _exact(
    groups: list[list[int]], carried: list[int], below: float | None, ctx: _Ctx
) -> tuple[list[Pair], list[int]]:
    """Pair these groups (plus floaters received) optimally with one weighted matching.

    Every allowed game is an edge whose weight is the saving over leaving both
    players single, with costs written as digits of one big integer, most
    significant first: (nobody left out, when the window reaches the bottom;)
    players crossing each boundary, top boundary first (a player left single
    when ``below`` is given floats on into the group below and crosses the
    remaining boundaries); per group from the top, its floaters' tables by score
    difference, largest difference first;
    floats repeated from last round (rule 4); and how far from the bottom of
    its group a floater comes and from the top of its group its opponent comes
    (the book's order). The maximum-weight matching therefore minimises them
    lexicographically. Returns the pairs and the players left single.
    """
    verts = list(carried) + [pid for g in groups for pid in g]
    n = len(verts)
    if n == 0:
        return [], []
    gidx = [0] * n
    from_top = [0] * n
    from_bottom = [0] * n
    v = len(carried)
    for gi, g in enumerate(groups):
        for pos, _ in enumerate(g):
            gidx[v], from_top[v], from_bottom[v] = gi, pos, len(g) - 1 - pos
            v += 1
    bounds = len(groups) - 1 + (1 if below is not None else 0)
    score = [ctx.score[pid] for pid in verts]
    values = set(score) | ({below} if below is not None else set())
    diff_index = {
        d: i
        for i, d in enumerate(
            sorted({h - lo for h in values for lo in values if h > lo}, reverse=True)
        )
    }
    # A table's difference counts in the group of its higher player; carried floaters (from
    # groups above this window) come first, as level 0, the window's groups after them.
    n_groups = len(groups) + 1
    # Digits, least significant last: each count is at most n, the position sum at most n².
    count_base = n + 1
    mult_pos = 1
    mult_rep = n * n + 1
    m = mult_rep * count_base
    mult_diff = [[0] * len(diff_index) for _ in range(n_groups)]
    for g in range(n_groups - 1, -1, -1):
        for i in range(len(diff_index) - 1, -1, -1):
            mult_diff[g][i] = m
            m *= count_base
    mult_cross = [0] * bounds
    for i in range(bounds - 1, -1, -1):
        mult_cross[i] = m
        m *= count_base
    mult_single = m
    last = [ctx.last_float(pid) for pid in verts]
    level = [0 if u < len(carried) else gidx[u] + 1 for u in range(n)]

    def single_cost(u: int) -> int:
        if below is None:
            return mult_single
        cost = sum(mult_cross[gidx[u] :])
        cost += mult_diff[level[u]][diff_index[score[u] - below]]
        cost += mult_rep * (last[u] == FLOAT_DOWN) + mult_pos * from_bottom[u]
        return cost

    def pair_cost(u: int, w: int) -> int:
        if gidx[u] > gidx[w] or (gidx[u] == gidx[w] and score[u] < score[w]):
            u, w = w, u
        if score[u] == score[w]:
            return 0
        cost = sum(mult_cross[gidx[u] : gidx[w]])
        cost += mult_diff[level[u]][diff_index[score[u] - score[w]]]
        cost += mult_rep * ((last[u] == FLOAT_DOWN) + (last[w] == FLOAT_UP))
        return cost + mult_pos * (from_bottom[u] + from_top[w])

    singles = [single_cost(u) for u in range(n)]
    opp = ctx.opp
    edges = []
    for u in range(n):
        ou = opp[verts[u]]
        for w in range(u + 1, n):
            if verts[w] in ou:
                continue
            gain = singles[u] + singles[w] - pair_cost(u, w)
            if gain > 0:
                edges.append((u, w, gain))
    mate = max_weight_matching(n, edges)
    pairs = [(verts[u], verts[w]) for u, w in enumerate(mate) if w > u]
    left = [verts[u] for u in range(n) if mate[u] == -1]
    pairs = _book_order(pairs, groups, ctx)
    _explain_floats(pairs, left, groups, carried, ctx)
    return pairs, left


def _book_order(pairs: list[Pair], groups: list[list[int]], ctx: _Ctx) -> list[Pair]:
    """Re-pair, inside each group, the players the optimum keeps there, in the book's order.

    Any rematch-free pairing of the same players scores the same on every
    criterion above, so this only chooses among equals: the top player takes
    the first opponent of the bottom half (then the top half, from its
    bottom) that still lets the rest be paired — top half against bottom half.
    """
    group_of = {pid: gi for gi, g in enumerate(groups) for pid in g}
    inside: dict[int, set[int]] = {}
    kept: list[Pair] = []
    for a, b in pairs:
        ga, gb = group_of.get(a), group_of.get(b)
        if ga is not None and ga == gb:
            inside.setdefault(ga, set()).update((a, b))
        else:
            kept.append((a, b))
    for gi, members in inside.items():
        verts = [pid for pid in groups[gi] if pid in members]
        if len(verts) > ctx.options.repair_limit:
            kept.extend(p for p in pairs if p[0] in members)
            continue
        index = {pid: i for i, pid in enumerate(verts)}
        mate = [-1] * len(verts)
        for a, b in pairs:
            if a in members:
                mate[index[a]], mate[index[b]] = index[b], index[a]
        matcher = _matcher(verts, ctx, mate)
        live = list(verts)
        while live:
            p, others = live[0], live[1:]
            h = (len(others) + 1) // 2
            s1_rest, s2 = others[: h - 1], others[h - 1 :]
            for q in s2 + list(reversed(s1_rest)):
                if ctx.ok(p, q) and matcher.fix_pair(index[p], index[q]):
                    kept.append((p, q))
                    live.remove(p)
                    live.remove(q)
                    upto = s2.index(q) if q in s2 else len(s2)
                    skipped = [x for x in s2[:upto] if not ctx.ok(p, x)]
                    if skipped:
                        ctx.pair_notes.setdefault(p, []).append(explain.rematch_avoided(p, skipped))
                    break
            else:  # cannot happen: the matching was perfect on these players
                live.remove(p)
    return kept


def _explain_floats(
    pairs: list[Pair], left: list[int], groups: list[list[int]], carried: list[int], ctx: _Ctx
) -> None:
    """Record, for each player the exact window floats, whom in the group they could not meet."""
    group_of = {pid: gi for gi, g in enumerate(groups) for pid in g}
    for pid in carried:
        group_of[pid] = 0
    floaters = list(left)
    for a, b in pairs:
        if ctx.score[a] != ctx.score[b]:
            floaters.append(a if ctx.score[a] > ctx.score[b] else b)
    # Players crossing the boundary below each group; more than parity means the history forced it.
    crossing = [0] * len(groups)
    for f in floaters:
        partner = next((b if a == f else a for a, b in pairs if f in (a, b)), None)
        last = group_of[partner] if partner is not None else len(groups)
        for g in range(group_of[f], last):
            crossing[g] += 1
    above = len(carried)
    parity = []
    for g in groups:
        above += len(g)
        parity.append(above % 2)
    for f in floaters:
        g = group_of[f]
        mates = [q for q in groups[g] if q != f] + [q for q in carried if q != f]
        met = [q for q in mates if q in ctx.met[f]]
        forbidden = [q for q in mates if q in ctx.forbidden.get(f, ()) and q not in ctx.met[f]]
        bye = ctx.bye if ctx.bye is not None and ctx.bye_score == ctx.score[f] else None
        cause = "odd" if crossing[g] <= parity[g] else "blocked"
        ctx.float_reason[f] = explain.REASON_OPTIMAL
        ctx.pair_notes.setdefault(f, []).append(
            explain.float_forced(f, ctx.score[f], cause, met, forbidden, bye)
        )


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
            reason = ctx.float_reason.get(a, explain.REASON_OPTIMAL)
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
        if rematch and b in ctx.met[a]:
            notes.append(explain.rematch_forced(a, b, rematch_allowed))
        elif rematch:
            notes.append(explain.forbidden_forced(a, b))
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
