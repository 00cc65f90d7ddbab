"""``setup.*``: refusals of the organiser's setup pages (settings, sections, officials), RU and EN."""

from scoring.rules.errors import Catalogue

SETUP = Catalogue(
    "setup",
    {
        "slug_fixed": (
            "The address /t/{slug}/ cannot change once round 1 exists: printed QR codes, shared links "
            "and integrations use it.",
            "Адрес /t/{slug}/ нельзя менять после того, как создан первый тур: по нему работают "
            "напечатанные QR-коды, ссылки и интеграции.",
        ),
        "locked_after_round_one": (
            "The {option} cannot change once round 1 exists: played rounds were paired and "
            "scored under it.",
            "Параметр «{option}» нельзя менять после того, как создан первый тур: сыгранные "
            "туры составлены и подсчитаны по нему.",
        ),
        "rounds_below_paired": (
            "{paired} rounds are already paired; plan at least {paired} (not {planned}).",
            "Уже составлено туров: {paired}; запланируйте не меньше {paired} (а не {planned}).",
        ),
        "unknown_user": (
            "Nobody has the username or email {value!r}.",
            "Нет пользователя с именем или адресом {value!r}.",
        ),
        "ambiguous_email": (
            "Several accounts use the email {value!r}; give the username instead.",
            "Адрес {value!r} указан у нескольких учётных записей; укажите имя пользователя.",
        ),
        "already_holds_role": (
            "{user} already holds this role.",
            "{user} уже назначен на эту роль.",
        ),
        "official_plays": (
            "{user} plays in this tournament; the book forbids officials to take part in the "
            "event they run.",
            "{user} участвует в этом турнире; по правилам члены администрации не имеют права "
            "участвовать в соревнованиях, которые проводят.",
        ),
        "last_organiser": (
            "The last organiser cannot be removed: appoint another one first.",
            "Нельзя снять последнего организатора: сначала назначьте другого.",
        ),
        "section_in_use": (
            "Section {section!r} has entries or rounds and cannot be deleted.",
            "В секции «{section}» уже есть участники или туры, её нельзя удалить.",
        ),
        "duplicate_section": (
            "Two sections cannot have the same name ({section!r}).",
            "У двух секций не может быть одно имя ({section!r}).",
        ),
        "unknown_preset": (
            "Choose one of the presets.",
            "Выберите одну из заготовок.",
        ),
        "unknown_club": (
            "Give the slug of a club you organise.",
            "Укажите адрес (slug) клуба, который вы организуете.",
        ),
        "no_file": (
            "Attach the file to import (CSV, XLSX or TRF).",
            "Приложите файл для импорта (CSV, XLSX или TRF).",
        ),
        "not_empty": (
            "{tournament!r} has entries or rounds and cannot be deleted.",
            "В турнире «{tournament}» уже есть участники или туры, его нельзя удалить.",
        ),
    },
)
