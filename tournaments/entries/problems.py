"""``entry.*``: refusals about one entry (check-in, withdrawal, the entries desk, import), RU and EN."""

from scoring.rules.errors import Catalogue

ENTRY = Catalogue(
    "entry",
    {
        "withdrawn_check_in": (
            "A withdrawn player must be reinstated before checking in.",
            "Выбывшего игрока нужно сначала восстановить, потом отметить его прибытие.",
        ),
        "check_in_paired": (
            "The round is paired already: your check-in can no longer be undone here; "
            "tell the tournament desk if you must leave.",
            "Тур уже составлен: отменить отметку о прибытии здесь больше нельзя; "
            "если вам нужно уйти, скажите об этом судейскому столу.",
        ),
        # the entries desk
        "already_entered": (
            "{who} is already entered in this tournament.",
            "{who}: уже в списке участников этого турнира.",
        ),
        "remove_paired": (
            "{who} has been paired already: withdraw the player instead of removing the entry.",
            "{who} уже участвует в парах: снимите игрока с турнира вместо удаления заявки.",
        ),
        "section_played": (
            "{who} has already been paired in the section “{section}”: their matches belong to "
            "that section's table, so the entry cannot move to another section. Withdraw the "
            "player and enter them again in the other section if they must change.",
            "{who} уже сыграл(а) в секции «{section}»: матчи остаются в таблице этой секции, "
            "поэтому перевести заявку в другую секцию нельзя. Снимите игрока и заявите его "
            "заново в другую секцию, если переход необходим.",
        ),
        "category_unknown": (
            "There is no category {category}: the book's table has categories 1 to 9.",
            "Категории {category} нет: в таблице книги категории с 1 по 9.",
        ),
        "category_outside_section": (
            "Category {category} is outside the section “{section}” ({low}–{high}) that {who} "
            "plays in; choose a section that holds it too.",
            "Категория {category} вне секции «{section}» ({low}–{high}), в которой играет {who}; "
            "выберите и секцию, в которую она входит.",
        ),
        "rating_paired": (
            "{who} has been paired already: the rating at entry the pairings used can no longer change.",
            "{who} уже участвует в парах: рейтинг при заявке, по которому составлены пары, менять нельзя.",
        ),
        "unknown_section": (
            "This tournament has no section {value}.",
            "В этом турнире нет секции {value}.",
        ),
        "team_name_taken": (
            "There is a team called “{team}” in this tournament already.",
            "Команда «{team}» в этом турнире уже есть.",
        ),
        "team_board_taken": (
            "Board {board} of this team is taken by {who}.",
            "Доска {board} этой команды уже занята: {who}.",
        ),
        "lineup_fixed": (
            "The schedule is drawn from the boards, so the line-up of team “{team}” can no longer "
            "change: a player who cannot go on is withdrawn at the desk and his remaining matches "
            "are settled.",
            "Расписание составлено по доскам, поэтому состав команды «{team}» больше менять "
            "нельзя: игрок, который не может продолжать, снимается с соревнований в секретариате, "
            "а его оставшиеся матчи засчитываются.",
        ),
        "team_in_play": (
            "Team “{team}” has been paired already: its line-up can no longer be deleted.",
            "Команда «{team}» уже участвует в парах: удалить её нельзя.",
        ),
        # the entry fee at the desk (Part 9)
        "fee_amount": (
            "The fee paid must be a sum of money of at least 0, not “{value}”.",
            "Уплаченный взнос должен быть денежной суммой не меньше 0, а не «{value}».",
        ),
        "fee_without_amount": (
            "Say how much was paid, or untick “paid”.",
            "Укажите, сколько уплачено, или снимите отметку «уплачен».",
        ),
        # importing entries from a file (the whole file)
        "import_format": (
            "“{file}” is not a CSV, XLSX or TRF-16 file.",
            "«{file}» — не файл CSV, XLSX или TRF-16.",
        ),
        "import_too_large": (
            "“{file}” is {size} KB; an import file may be at most {limit} KB "
            "(split the list into several files).",
            "«{file}» — {size} КБ; файл импорта может быть не больше {limit} КБ "
            "(разбейте список на несколько файлов).",
        ),
        "import_too_many_rows": (
            "“{file}” has more than {limit} rows; an import file may have at most {limit} "
            "(split the list into several files).",
            "В «{file}» больше {limit} строк; в файле импорта может быть не больше {limit} "
            "(разбейте список на несколько файлов).",
        ),
        "import_unpacked_too_large": (
            "“{file}” unpacks to more than {limit} MB; a list of players never does. "
            "Save the list again as a plain workbook.",
            "«{file}» распаковывается больше чем в {limit} МБ; список игроков столько не занимает. "
            "Сохраните список заново как обычную книгу Excel.",
        ),
        "import_encoding": (
            "The file is not in UTF-8: save it as “CSV UTF-8” and try again.",
            "Файл не в кодировке UTF-8: сохраните его как «CSV UTF-8» и попробуйте снова.",
        ),
        "import_unreadable": (
            "The file could not be read as {kind}.",
            "Файл не удалось прочитать как {kind}.",
        ),
        "import_no_last_name_column": (
            "No last name column: the first row must name the columns "
            "(last_name or Фамилия, first_name or Имя, club or Клуб, …).",
            "Нет столбца с фамилией: первая строка должна называть столбцы "
            "(Фамилия или last_name, Имя или first_name, Клуб или club, …).",
        ),
        "import_empty": (
            "The file has no players to import.",
            "В файле нет игроков для импорта.",
        ),
        # importing entries from a file (one row)
        "import_no_last_name": ("No last name.", "Нет фамилии."),
        "import_bad_category": (
            "Category “{value}” is neither 1–9 nor a category of the book (Beginner … Grandmaster).",
            "Категория «{value}» — не число 1–9 и не категория из книги (Начинающий … Гроссмейстер).",
        ),
        "import_bad_rating": (
            "Rating “{value}” is not a number from 0 to {top}.",
            "Рейтинг «{value}» — не число от 0 до {top}.",
        ),
        "import_bad_email": (
            "“{value}” is not an email address.",
            "«{value}» — не адрес электронной почты.",
        ),
        "import_bad_birth_year": (
            "“{value}” is not a year of birth: write four digits, e.g. 1987.",
            "«{value}» — не год рождения: напишите четыре цифры, например 1987.",
        ),
        "import_unknown_club": (
            "No club is called “{club}” (by name or by its short name in addresses): "
            "tick “create the club” in the preview (--new-club on the command line) or write a known club.",
            "Клуба «{club}» нет (ни по названию, ни по короткому имени в адресе): "
            "отметьте «создать клуб» в предпросмотре (--new-club в командной строке) или укажите известный клуб.",
        ),
        "import_duplicate": (
            "The same person as row {first}.",
            "Тот же человек, что в строке {first}.",
        ),
        # leaving the event with a match still to play (issue 15)
        "settle_choice": (
            "Choose what happens to the player's unfinished match: “forfeit” (the opponent "
            "wins) or “void” (it counts for nobody), not “{value}”.",
            "Выберите, что делать с несыгранным матчем игрока: «forfeit» (победа сопернику за "
            "неявку) или «void» (матч аннулируется), а не «{value}».",
        ),
    },
)
