"""Rating pools: which variants are rated together. ONE table; a newcomer adds a row.

A player has one rating per pool. Variants whose skills carry over share a pool
(backgammon and its close relatives; short nardy and trictrac-scored games; long
nardy and its relatives); the keys are the stored ``Tournament.variant`` values.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pool:
    key: str
    name_en: str
    name_ru: str
    variants: tuple[str, ...]

    def name(self, language: str) -> str:
        return self.name_en if language.startswith("en") else self.name_ru


POOLS: dict[str, Pool] = {
    pool.key: pool
    for pool in (
        Pool("backgammon", "Backgammon", "Нарды-бэкгаммон",
             ("backgammon", "nackgammon", "hypergammon")),
        Pool("short_nardy", "Short nardy (trictrac)", "Короткие нарды (тринктрак)",
             ("short_nardy", "caucasian")),
        Pool("long_nardy", "Long nardy", "Длинные нарды", ("long_nardy", "karzar")),
    )
}  # fmt: skip


def pool_of(variant: str) -> str:
    """The pool a variant is rated in (KeyError for a variant no pool lists: add it to a row)."""
    for pool in POOLS.values():
        if variant in pool.variants:
            return pool.key
    raise KeyError(variant)
