"""Maximum-weight matching (Edmonds' blossom algorithm with dual variables).

Why this exists: the Swiss criteria are lexicographic (fewest floaters out of
the top group first, then the next group, …, then the smallest score
differences). Encoded as integer edge weights whose digits are those criteria,
most significant first, a *maximum-weight* matching is exactly the pairing
that is best on them — the whole round at once, with no greedy pass that can
paint itself into a corner. :mod:`tournaments.pairing.matching` answers only
"how many pairs"; this module answers "which pairs are best".

The algorithm is Edmonds' primal-dual method in the O(n³) form of Joris van
Rantwijk's ``mwmatching.py`` (also the basis of NetworkX's
``max_weight_matching``), rewritten here for vertices ``0..n-1`` and a sparse
edge list, because the pure cores import no third-party package. Weights are
Python integers (arbitrarily large, so lexicographic encodings never overflow);
only edges given are considered, so a caller keeps the graph small by listing
only the pairs that can matter.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Edge = tuple[int, int, int]  # (u, v, weight)


class _Blossom:
    """A contracted odd cycle: sub-blossoms (or vertices) and the edges joining them."""

    __slots__ = ("childs", "edges", "mybestedges")

    def __init__(self) -> None:
        self.childs: list[_Node] = []
        self.edges: list[tuple[int, int]] = []
        self.mybestedges: list[tuple[int, int]] | None = None

    def leaves(self) -> Iterator[int]:
        stack: list[_Node] = [*self.childs]
        while stack:
            t = stack.pop()
            if isinstance(t, _Blossom):
                stack.extend(t.childs)
            else:
                yield t


_Node = int | _Blossom


def max_weight_matching(n: int, edges: Iterable[Edge]) -> list[int]:
    """A matching of maximum total weight on vertices ``0..n-1``, as a mate list (-1: single).

    Edges with weight ≤ 0 never improve a matching and are ignored; parallel
    edges keep the heaviest. Not necessarily of maximum cardinality: a caller
    that wants everyone paired gives every edge a bonus larger than any
    difference between pairings (the Swiss encoder does).
    """
    adj: list[dict[int, int]] = [{} for _ in range(n)]
    maxweight = 0
    for u, v, w in edges:
        if u == v or w <= 0:
            continue
        if w > adj[u].get(v, 0):
            adj[u][v] = w
            adj[v][u] = w
            maxweight = max(maxweight, w)
    mate: dict[int, int] = {}
    if maxweight == 0:
        return [-1] * n

    label: dict[_Node, int] = {}
    labeledge: dict[_Node, tuple[int, int] | None] = {}
    inblossom: list[_Node] = list(range(n))
    blossomparent: dict[_Node, _Blossom | None] = {v: None for v in range(n)}
    blossombase: dict[_Node, int] = {v: v for v in range(n)}
    bestedge: dict[_Node, tuple[int, int] | None] = {}
    dualvar: list[int] = [maxweight] * n
    blossomdual: dict[_Blossom, int] = {}
    allowedge: set[tuple[int, int]] = set()
    queue: list[int] = []

    def slack(v: int, w: int) -> int:
        return dualvar[v] + dualvar[w] - 2 * adj[v][w]

    def assign_label(w: int, t: int, v: int | None) -> None:
        b = inblossom[w]
        label[w] = label[b] = t
        labeledge[w] = labeledge[b] = (v, w) if v is not None else None
        bestedge[w] = bestedge[b] = None
        if t == 1:
            if isinstance(b, _Blossom):
                queue.extend(b.leaves())
            else:
                queue.append(b)
        elif t == 2:
            base = blossombase[b]
            assign_label(mate[base], 1, base)

    def scan_blossom(v: int, w: int) -> int:
        """Trace back from v and w to find a new blossom's base, or -1 for an augmenting path."""
        path: list[_Node] = []
        base = -1
        vv: int | None = v
        ww: int | None = w
        while vv is not None:
            b = inblossom[vv]
            if label[b] & 4:
                base = blossombase[b]
                break
            path.append(b)
            label[b] = 5
            le = labeledge[b]
            if le is None:
                vv = None
            else:
                vv = le[0]
                b = inblossom[vv]
                le2 = labeledge[b]
                assert le2 is not None
                vv = le2[0]
            if ww is not None:
                vv, ww = ww, vv
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base: int, v: int, w: int) -> None:
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        b = _Blossom()
        blossombase[b] = base
        blossomparent[b] = None
        blossomparent[bb] = b
        b.childs = path = []
        b.edges = edgs = [(v, w)]
        while bv != bb:
            blossomparent[bv] = b
            path.append(bv)
            le = labeledge[bv]
            assert le is not None
            edgs.append(le)
            v = le[0]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        edgs.reverse()
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            le = labeledge[bw]
            assert le is not None
            edgs.append((le[1], le[0]))
            w = le[0]
            bw = inblossom[w]
        label[b] = 1
        labeledge[b] = labeledge[bb]
        blossomdual[b] = 0
        for leaf in b.leaves():
            if label[inblossom[leaf]] == 2:
                queue.append(leaf)
            inblossom[leaf] = b
        bestedgeto: dict[_Node, tuple[int, int]] = {}
        for sub in path:
            if isinstance(sub, _Blossom):
                if sub.mybestedges is not None:
                    nblist = sub.mybestedges
                    sub.mybestedges = None
                else:
                    nblist = [(x, y) for x in sub.leaves() for y in adj[x]]
            else:
                nblist = [(sub, y) for y in adj[sub]]
            for k in nblist:
                i, j = k
                if inblossom[j] == b:
                    i, j = j, i
                bj = inblossom[j]
                if bj != b and label.get(bj) == 1:
                    cur = bestedgeto.get(bj)
                    if cur is None or slack(i, j) < slack(*cur):
                        bestedgeto[bj] = (i, j)
            bestedge[sub] = None
        b.mybestedges = list(bestedgeto.values())
        best = None
        best_slack = 0
        for k in b.mybestedges:
            ks = slack(*k)
            if best is None or ks < best_slack:
                best, best_slack = k, ks
        bestedge[b] = best

    def expand_blossom(b: _Blossom, endstage: bool) -> None:
        def recurse(b: _Blossom, endstage: bool) -> Iterator[_Blossom]:
            for s in b.childs:
                blossomparent[s] = None
                if isinstance(s, _Blossom):
                    if endstage and blossomdual[s] == 0:
                        yield s
                    else:
                        for leaf in s.leaves():
                            inblossom[leaf] = s
                else:
                    inblossom[s] = s
            if (not endstage) and label.get(b) == 2:
                le = labeledge[b]
                assert le is not None
                entrychild = inblossom[le[1]]
                j = b.childs.index(entrychild)
                if j & 1:
                    j -= len(b.childs)
                    jstep = 1
                else:
                    jstep = -1
                v, w = le
                while j != 0:
                    if jstep == 1:
                        p, q = b.edges[j]
                    else:
                        q, p = b.edges[j - 1]
                    label.pop(w, None)
                    label.pop(q, None)
                    assign_label(w, 2, v)
                    allowedge.add((p, q))
                    allowedge.add((q, p))
                    j += jstep
                    if jstep == 1:
                        v, w = b.edges[j]
                    else:
                        w, v = b.edges[j - 1]
                    allowedge.add((v, w))
                    allowedge.add((w, v))
                    j += jstep
                bw = b.childs[j]
                label[w] = label[bw] = 2
                labeledge[w] = labeledge[bw] = (v, w)
                bestedge[bw] = None
                j += jstep
                while b.childs[j] != entrychild:
                    bv = b.childs[j]
                    if label.get(bv) == 1:
                        j += jstep
                        continue
                    found = None
                    if isinstance(bv, _Blossom):
                        for leaf in bv.leaves():
                            if label.get(leaf):
                                found = leaf
                                break
                    else:
                        found = bv
                    if found is not None and label.get(found):
                        label.pop(found, None)
                        label.pop(mate[blossombase[bv]], None)
                        lf = labeledge[found]
                        assert lf is not None
                        assign_label(found, 2, lf[0])
                    j += jstep
            label.pop(b, None)
            labeledge.pop(b, None)
            bestedge.pop(b, None)
            del blossomparent[b]
            del blossombase[b]
            del blossomdual[b]

        stack = [recurse(b, endstage)]
        while stack:
            top = stack[-1]
            for s in top:
                stack.append(recurse(s, endstage))
                break
            else:
                stack.pop()

    def augment_blossom(b: _Blossom, v: int) -> None:
        def recurse(b: _Blossom, v: int) -> Iterator[tuple[_Blossom, int]]:
            t: _Node = v
            while blossomparent[t] != b:
                parent = blossomparent[t]
                assert parent is not None
                t = parent
            if isinstance(t, _Blossom):
                yield (t, v)
            i = j = b.childs.index(t)
            if i & 1:
                j -= len(b.childs)
                jstep = 1
            else:
                jstep = -1
            while j != 0:
                j += jstep
                t = b.childs[j]
                if jstep == 1:
                    w, x = b.edges[j]
                else:
                    x, w = b.edges[j - 1]
                if isinstance(t, _Blossom):
                    yield (t, w)
                j += jstep
                t = b.childs[j]
                if isinstance(t, _Blossom):
                    yield (t, x)
                mate[w] = x
                mate[x] = w
            b.childs = b.childs[i:] + b.childs[:i]
            b.edges = b.edges[i:] + b.edges[:i]
            blossombase[b] = blossombase[b.childs[0]]

        stack = [recurse(b, v)]
        while stack:
            top = stack[-1]
            for args in top:
                stack.append(recurse(*args))
                break
            else:
                stack.pop()

    def augment_matching(v: int, w: int) -> None:
        for s, j in ((v, w), (w, v)):
            while True:
                bs = inblossom[s]
                if isinstance(bs, _Blossom):
                    augment_blossom(bs, s)
                mate[s] = j
                le = labeledge[bs]
                if le is None:
                    break
                t = le[0]
                bt = inblossom[t]
                lt = labeledge[bt]
                assert lt is not None
                s, j = lt
                if isinstance(bt, _Blossom):
                    augment_blossom(bt, j)
                mate[j] = s

    while True:
        label.clear()
        labeledge.clear()
        bestedge.clear()
        for bl in blossomdual:
            bl.mybestedges = None
        allowedge.clear()
        queue.clear()
        for v in range(n):
            if v not in mate and label.get(inblossom[v]) is None:
                assign_label(v, 1, None)
        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                for w in adj[v]:
                    bv = inblossom[v]
                    bw = inblossom[w]
                    if bv == bw:
                        continue
                    kslack = 0
                    if (v, w) not in allowedge:
                        kslack = slack(v, w)
                        if kslack <= 0:
                            allowedge.add((v, w))
                            allowedge.add((w, v))
                    if (v, w) in allowedge:
                        if label.get(bw) is None:
                            assign_label(w, 2, v)
                        elif label.get(bw) == 1:
                            base = scan_blossom(v, w)
                            if base != -1:
                                add_blossom(base, v, w)
                            else:
                                augment_matching(v, w)
                                augmented = True
                                break
                        elif label.get(w) is None:
                            label[w] = 2
                            labeledge[w] = (v, w)
                    elif label.get(bw) == 1:
                        cur = bestedge.get(bv)
                        if cur is None or kslack < slack(*cur):
                            bestedge[bv] = (v, w)
                    elif label.get(w) is None:
                        cur = bestedge.get(w)
                        if cur is None or kslack < slack(*cur):
                            bestedge[w] = (v, w)
            if augmented:
                break
            deltatype = 1
            delta = min(dualvar)
            deltaedge: tuple[int, int] | None = None
            deltablossom: _Blossom | None = None
            for v in range(n):
                be = bestedge.get(v)
                if label.get(inblossom[v]) is None and be is not None:
                    d = slack(*be)
                    if d < delta:
                        delta, deltatype, deltaedge = d, 2, be
            for b, parent in blossomparent.items():
                if parent is None and label.get(b) == 1:
                    be = bestedge.get(b)
                    if be is not None:
                        d = slack(*be) // 2
                        if d < delta:
                            delta, deltatype, deltaedge = d, 3, be
            for bl, dual in blossomdual.items():
                if blossomparent[bl] is None and label.get(bl) == 2 and dual < delta:
                    delta, deltatype, deltablossom = dual, 4, bl
            for v in range(n):
                lab = label.get(inblossom[v])
                if lab == 1:
                    dualvar[v] -= delta
                elif lab == 2:
                    dualvar[v] += delta
            for bl in blossomdual:
                if blossomparent[bl] is None:
                    lab = label.get(bl)
                    if lab == 1:
                        blossomdual[bl] += delta
                    elif lab == 2:
                        blossomdual[bl] -= delta
            if deltatype == 1:
                break
            if deltatype in (2, 3):
                assert deltaedge is not None
                v, w = deltaedge
                allowedge.add((v, w))
                allowedge.add((w, v))
                queue.append(v)
            else:
                assert deltablossom is not None
                expand_blossom(deltablossom, False)
        if not augmented:
            break
        for bl in list(blossomdual):
            if bl not in blossomdual:
                continue
            if blossomparent[bl] is None and label.get(bl) == 1 and blossomdual[bl] == 0:
                expand_blossom(bl, True)
    return [mate.get(v, -1) for v in range(n)]
