"""Maximum-cardinality matching (Edmonds' blossom algorithm) on implicit graphs.

Why this exists: "no rematch" is an absolute rule, and a greedy pairing can
paint itself into a corner (the last two players of a group met before) even
when a rematch-free pairing exists. Edmonds' algorithm decides that question
exactly. The graph is given by a neighbour function rather than adjacency
lists because a Swiss "may play" graph is almost complete: building it would
cost O(n²) memory, while searching it lazily from a nearly perfect greedy
matching usually touches a handful of vertices.

The matcher keeps a current matching and an ``active`` mask. Inactive
vertices are out of the graph (already fixed in a pair, or chosen to float), so
a caller can fix pairs one by one in its order of preference and ask, each
time, whether the rest can still be completed — the guard that makes a greedy
preference pass complete.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Neighbours = Callable[[int], Iterable[int]]
Adjacent = Callable[[int, int], bool]


class Matcher:
    """A matching on vertices ``0..n-1`` that can be grown, and edited under guard."""

    def __init__(
        self,
        n: int,
        neighbours: Neighbours,
        adjacent: Adjacent,
        mate: list[int] | None = None,
    ) -> None:
        self.n = n
        self.neighbours = neighbours
        self.adjacent = adjacent
        self.mate: list[int] = list(mate) if mate is not None else [-1] * n
        self.active: list[bool] = [True] * n

    # -- core search ---------------------------------------------------------------------------

    def augment_from(self, root: int) -> bool:
        """Search an augmenting path from the free vertex ``root``; apply it if found."""
        n = self.n
        mate = self.mate
        active = self.active
        if not active[root] or mate[root] != -1:
            return False
        if self._short_path(root):
            return True
        parent = [-1] * n
        base = list(range(n))
        in_tree = [False] * n
        in_tree[root] = True
        queue = [root]
        tree = [root]
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in self.neighbours(v):
                if not active[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    # ``to`` is an outer vertex of the same tree: an odd cycle, shrink it.
                    top = self._common_base(v, to, base, parent)
                    blossom = [False] * n
                    self._mark_path(v, top, to, base, parent, blossom)
                    self._mark_path(to, top, v, base, parent, blossom)
                    for i in tree:
                        if blossom[base[i]]:
                            base[i] = top
                            if not in_tree[i]:
                                in_tree[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        self._flip(to, parent)
                        return True
                    in_tree[mate[to]] = True
                    queue.append(mate[to])
                    tree.append(to)
                    tree.append(mate[to])
        return False

    def _short_path(self, root: int) -> bool:
        """Look for an augmenting path of length 1 or 3 first.

        In a nearly complete graph with a nearly perfect matching this is almost
        always enough, and it avoids the blossom bookkeeping that dense graphs
        make expensive.
        """
        mate = self.mate
        active = self.active
        free = [f for f in range(self.n) if active[f] and mate[f] == -1 and f != root]
        if not free:
            return False
        neighbours = [x for x in self.neighbours(root) if active[x]]
        for x in neighbours:
            if mate[x] == -1:
                mate[root], mate[x] = x, root
                return True
        if len(free) > 8:  # many free vertices: the full search is cheaper than this scan
            return False
        adjacent = self.adjacent
        for x in neighbours:
            w = mate[x]
            for f in free:
                if f != x and adjacent(w, f):
                    mate[root], mate[x] = x, root
                    mate[w], mate[f] = f, w
                    return True
        return False

    def _common_base(self, a: int, b: int, base: list[int], parent: list[int]) -> int:
        mate = self.mate
        seen = set()
        while True:
            a = base[a]
            seen.add(a)
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if b in seen:
                return b
            b = parent[mate[b]]

    def _mark_path(
        self,
        v: int,
        top: int,
        child: int,
        base: list[int],
        parent: list[int],
        blossom: list[bool],
    ) -> None:
        mate = self.mate
        while base[v] != top:
            blossom[base[v]] = True
            blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    def _flip(self, end: int, parent: list[int]) -> None:
        mate = self.mate
        v = end
        while v != -1:
            pv = parent[v]
            nxt = mate[pv]
            mate[v] = pv
            mate[pv] = v
            v = nxt

    # -- whole-graph operations -----------------------------------------------------------------

    def maximise(self) -> int:
        """Grow the matching to maximum size among active vertices; return that size.

        One pass over free vertices suffices: a vertex with no augmenting path now
        never gets one after other augmentations (Edmonds).
        """
        for v in range(self.n):
            if self.active[v] and self.mate[v] == -1:
                self.augment_from(v)
        return self.size()

    def size(self) -> int:
        return sum(1 for v in range(self.n) if self.active[v] and self.mate[v] > v)

    def free_vertices(self) -> list[int]:
        return [v for v in range(self.n) if self.active[v] and self.mate[v] == -1]

    # -- guarded edits (matching assumed maximum on the active vertices) ---------------------

    def release(self, v: int) -> bool:
        """Take ``v`` out of the graph if a maximum matching of the rest keeps the same size."""
        if not self.active[v]:
            return False
        u = self.mate[v]
        if u == -1:
            self.active[v] = False
            return True
        self.active[v] = False
        self.mate[v] = -1
        self.mate[u] = -1
        if self.augment_from(u):
            return True
        self.active[v] = True
        self.mate[v] = u
        self.mate[u] = v
        return False

    def fix_pair(self, u: int, v: int) -> bool:
        """Commit the pair ``u``–``v`` if the rest can still be matched as fully as before.

        The caller guarantees ``u`` and ``v`` are adjacent and both active. On
        success both leave the graph (their pair is final); on failure nothing
        changes.
        """
        mate = self.mate
        if mate[u] == v:
            self.active[u] = self.active[v] = False
            return True
        mu, mv = mate[u], mate[v]
        for x, mx in ((u, mu), (v, mv)):
            if mx != -1:
                mate[x] = -1
                mate[mx] = -1
        self.active[u] = self.active[v] = False
        mate[u], mate[v] = v, u
        lost = (mu != -1) + (mv != -1)
        if lost < 2:
            return True
        if self.augment_from(mu) or self.augment_from(mv):
            return True
        # Undo: the pair would have left someone without an opponent.
        self.active[u] = self.active[v] = True
        mate[u], mate[v] = mu, mv
        mate[mu], mate[mv] = u, v
        return False


def maximum_matching(
    n: int, neighbours: Neighbours, adjacent: Adjacent, mate: list[int] | None = None
) -> list[int]:
    """Convenience: a maximum matching as a mate list (``-1`` for unmatched)."""
    m = Matcher(n, neighbours, adjacent, mate)
    m.maximise()
    return m.mate
