"""``registration.*``: refusals of a self-registration or of the organiser's decision on one, RU and EN."""

from scoring.rules.errors import Catalogue

REGISTRATION = Catalogue(
    "registration",
    {
        "closed": (
            "Registration for this tournament is closed.",
            "Регистрация на этот турнир закрыта.",
        ),
        "deadline": (
            "The registration deadline ({deadline}) has passed.",
            "Срок регистрации ({deadline}) истёк.",
        ),
        "category": (
            "Category {category} may not register for this tournament; allowed: {allowed}.",
            "Игроки категории {category} не допускаются к регистрации на этот турнир; допускаются: {allowed}.",
        ),
        "duplicate": (
            "An application with this name and email is already in. To change it, open the link "
            "in the email we sent you.",
            "Заявка с этим именем и адресом уже подана. Чтобы изменить её, откройте ссылку "
            "из письма, которое мы вам отправили.",
        ),
        "same_email": (
            "An application from this email is already in (one email, one applicant). To correct "
            "the name, open the link in the email we sent you; to enter another player, use their own email.",
            "С этого адреса уже подана заявка (один адрес — один участник). Чтобы исправить имя, "
            "откройте ссылку из письма, которое мы вам отправили; чтобы заявить другого игрока, укажите его адрес.",
        ),
        "already_entered": (
            "{name} is already entered in this tournament.",
            "{name} уже участвует в этом турнире.",
        ),
        "not_editable": (
            "This application is already decided and can no longer be changed; write to the organiser.",
            "По этой заявке уже есть решение, изменить её нельзя; напишите организатору.",
        ),
        "decided": (
            "This application has already been decided; nothing was changed.",
            "По этой заявке уже есть решение; ничего не изменено.",
        ),
        "full": (
            "The tournament is full ({taken} of {limit} places taken): approving from the waiting list "
            "would go over the limit. Raise the limit in the options, or give a reason to go over it.",
            "Мест нет (занято {taken} из {limit}): принять заявку из листа ожидания значит превысить "
            "лимит. Увеличьте лимит в настройках или укажите причину превышения.",
        ),
        "no_email": (
            "This player has no email address.",
            "У этого игрока нет адреса электронной почты.",
        ),
        "email_failed": (
            "The email could not be sent ({error}); the link is still shown on this page.",
            "Письмо не отправлено ({error}); ссылка по-прежнему видна на этой странице.",
        ),
        "over_limit": (
            "The limit ({limit}) is below the places already taken ({taken}): nobody is removed; new "
            "applications go to the waiting list, and approving one awaiting approval asks for a reason.",
            "Лимит ({limit}) меньше уже занятых мест ({taken}): никто не исключён; новые заявки попадут "
            "в лист ожидания, а для принятия ожидающей заявки нужно указать причину.",
        ),
        "grace_over": (
            "A withdrawal can be taken back for {minutes} minutes, and an entry only before round 1: "
            "that time is over. Apply again, or write to the organiser.",
            "Отзыв заявки можно отменить в течение {minutes} минут, а участие — только до начала "
            "первого тура: это время прошло. Подайте заявку снова или напишите организатору.",
        ),
        "full_pending": (
            "The entries already fill the limit ({entries} of {limit}): approving this application goes "
            "over it. Raise the limit in the options, or give a reason to go over it.",
            "Участники уже заполнили лимит ({entries} из {limit}): принять эту заявку значит превысить "
            "его. Увеличьте лимит в настройках или укажите причину превышения.",
        ),
    },
)
