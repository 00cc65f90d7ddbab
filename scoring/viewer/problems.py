"""``matchfile.*``: what the viewer and the match-file uploads can say about a file as a whole.

Moves and cube actions are judged by the rules core (``record.*``); these rows cover what
only a file has: nothing readable in it, an archive that cannot be opened, players that
cannot be told apart, a score that differs from the one reported.
"""

from scoring.rules.errors import Catalogue

MATCHFILE = Catalogue(
    "matchfile",
    {
        "no_moves": (
            "{file}no move could be read: paste a record in the book's notation or a .mat match file.",
            "{file}не прочитано ни одного хода: вставьте запись в нотации книги или файл матча .mat.",
        ),
        "too_large": (
            "{file}the file is too large (at most {limit} KB).",
            "{file}файл слишком большой (не больше {limit} КБ).",
        ),
        "not_text": (
            "{file}this is not a text file (a record or a .mat file is plain text).",
            "{file}это не текстовый файл (запись партии или файл .mat — обычный текст).",
        ),
        "zip_too_big": (
            "{file}the archive holds {count} files unpacking to {size} MB; at most {files} files "
            "and {limit} MB are read at once, so none of it was read. Upload it in parts.",
            "{file}в архиве {count} файлов, распакованных {size} МБ; за раз читается не больше "
            "{files} файлов и {limit} МБ, поэтому архив не прочитан. Загрузите его частями.",
        ),
        "too_much": (
            "{file}not read: one upload reads at most {files} files and {limit} MB in all. "
            "Upload the rest separately.",
            "{file}не прочитан: за одну загрузку читается не больше {files} файлов и {limit} МБ. "
            "Загрузите остальное отдельно.",
        ),
        "bad_zip": (
            "{file}the archive cannot be opened: it is damaged, encrypted or packed in a way we cannot "
            "read. Send it again, or send the match files themselves.",
            "{file}архив не открывается: он повреждён, зашифрован или упакован так, что его не прочитать. "
            "Отправьте его ещё раз или пришлите сами файлы матчей.",
        ),
        "no_pairing": (
            "{file}no pairing of this round has players named like “{first}” and “{second}”.",
            "{file}в этом туре нет пары с игроками, похожими на «{first}» и «{second}».",
        ),
        "no_names": (
            "{file}neither the file nor its name says who played: choose its pairing.",
            "{file}ни в файле, ни в его имени не сказано, кто играл: выберите пару.",
        ),
        "ambiguous_pairing": (
            "{file}the names “{first}” and “{second}” fit several pairings ({tables}); choose one.",
            "{file}имена «{first}» и «{second}» подходят к нескольким парам ({tables}); выберите пару.",
        ),
        "differs_reported": (
            "The file's score {file_score} differs from the reported score {match_score}.",
            "Счёт в файле {file_score} отличается от заявленного счёта {match_score}.",
        ),
        "differs_official": (
            "The file's score {file_score} differs from the official score {match_score}.",
            "Счёт в файле {file_score} отличается от официального счёта {match_score}.",
        ),
        "unfinished": (
            "The file's match is not finished: {file_score} in a match to {length}.",
            "Матч в файле не доигран: {file_score} в матче до {length}.",
        ),
        "length_differs": (
            "The file is a match to {file_length}; this match is played to {length}.",
            "В файле матч до {file_length}; этот матч играется до {length}.",
        ),
        "nothing_to_attach": (
            "No move could be read in this file, so it cannot be attached to a match.",
            "В этом файле не прочитано ни одного хода, поэтому его нельзя прикрепить к матчу.",
        ),
        "despite_needed": (
            "The file has {count} problem(s). To attach it anyway, tick “attach despite the "
            "problems” and say why (the reason is kept in the audit log).",
            "В файле замечаний: {count}. Чтобы всё же прикрепить его, отметьте «прикрепить, "
            "несмотря на замечания» и укажите причину (она сохраняется в журнале).",
        ),
        "names_differ": (
            "The file's players “{first}” and “{second}” are not named like this pairing's "
            "{a} and {b}: make sure it is this match's file.",
            "Игроки в файле «{first}» и «{second}» не похожи на игроков этой пары "
            "({a} и {b}): убедитесь, что это файл именно этого матча.",
        ),
        "needs_gnubg": (
            "{file}a .{format} record is read through GNU Backgammon, which is not installed "
            "on this server: export it from gnubg as a .mat file (File → Export → .mat).",
            "{file}запись .{format} читается через GNU Backgammon, а он на этом сервере не "
            "установлен: экспортируйте её из gnubg в файл .mat (File → Export → .mat).",
        ),
        "not_converted": (
            "{file}GNU Backgammon could not read this .{format} record: {reason}.",
            "{file}GNU Backgammon не смог прочитать эту запись .{format}: {reason}.",
        ),
        "mapping_needed": (
            "Say which player of the pairing is the file's “{first}” before its score is used.",
            "Укажите, кто из пары — «{first}» в файле, прежде чем использовать его счёт.",
        ),
    },
)
