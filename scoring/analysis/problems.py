"""``analysis.*``: why a match has no engine analysis (a state the match page shows, RU and EN)."""

from scoring.rules.errors import Catalogue

ANALYSIS = Catalogue(
    "analysis",
    {
        "unavailable": (
            "Analysis unavailable: GNU Backgammon is not installed on this server.",
            "Анализ недоступен: на сервере не установлен GNU Backgammon.",
        ),
        "no_engine": (
            "No engine for this variant ({variant}): only backgammon matches are analysed.",
            "Для этой разновидности ({variant}) нет программы анализа: анализируются только матчи в нарды-бэкгаммон.",
        ),
        "no_record": (
            "The match has no record to analyse: upload its .mat file first.",
            "У матча нет записи для анализа: сначала загрузите его файл .mat.",
        ),
        "import_failed": (
            "GNU Backgammon could not read the record ({reason}); the record itself is unchanged.",
            "GNU Backgammon не смог прочитать запись ({reason}); сама запись не изменена.",
        ),
        "timeout": (
            "The analysis took longer than the limit of {seconds} s and was stopped; try a smaller depth.",
            "Анализ занял больше допустимых {seconds} с и был остановлен; попробуйте меньшую глубину.",
        ),
        "worker_lost": (
            "The analysis stopped with the worker that ran it; run the analysis again.",
            "Анализ прервался вместе с обработчиком, который его выполнял; запустите анализ ещё раз.",
        ),
        "crashed": (
            "GNU Backgammon stopped before finishing ({reason}); run the analysis again.",
            "GNU Backgammon остановился, не закончив ({reason}); запустите анализ ещё раз.",
        ),
    },
)
