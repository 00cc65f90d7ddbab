"""``api.*``: what the HTTP layer of the API can tell a client, in Russian and English.

The domain catalogues (``workflow.*``, ``pairing.*``, ``entry.*``…) speak for
the rules; this one speaks for HTTP itself (authentication, throttling,
idempotency, preconditions, pages). One row per kind; a newcomer adds a row.
"""

from scoring.rules.errors import Catalogue

API = Catalogue(
    "api",
    {
        "invalid": ("The request has invalid fields.", "В запросе есть неверные поля."),
        "parse_error": ("The request body could not be read: {reason}", "Не удалось прочитать тело запроса: {reason}"),
        "not_authenticated": (
            "Authentication is required: send “Authorization: Token <key>” or log in.",
            "Нужна аутентификация: передайте «Authorization: Token <ключ>» или войдите на сайт.",
        ),
        "authentication_failed": ("The credentials were not accepted.", "Учётные данные не приняты."),
        "token_invalid": (
            "This API token is unknown. Check the key, or create a new token on your tokens page.",
            "Такой API-токен неизвестен. Проверьте ключ или создайте новый токен на странице токенов.",
        ),
        "token_revoked": (
            "This API token has been revoked. Create a new one on your tokens page.",
            "Этот API-токен отозван. Создайте новый на странице токенов.",
        ),
        "token_read_only": (
            "This token may only read. Create a read-and-write token to change data.",
            "Этот токен только для чтения. Чтобы изменять данные, создайте токен на чтение и запись.",
        ),
        "forbidden": ("You do not have permission to do this.", "У вас нет прав на это действие."),
        "not_found": ("Not found.", "Не найдено."),
        "invalid_page": (
            "There is no page {page}: {reason}",
            "Страницы {page} нет: {reason}",
        ),
        "method_not_allowed": ("Method {method} is not allowed here.", "Метод {method} здесь не разрешён."),
        "not_acceptable": (
            "None of the requested formats can be produced.",
            "Ни один из запрошенных форматов не поддерживается.",
        ),
        "unsupported_media_type": (
            "The body's media type {media_type} is not supported; send JSON.",
            "Тип тела запроса {media_type} не поддерживается; отправьте JSON.",
        ),
        "throttled": (
            "Too many requests. Try again in {wait} s.",
            "Слишком много запросов. Повторите через {wait} с.",
        ),
        "idempotency_in_progress": (
            "A request with this Idempotency-Key is still being processed. Retry after it finishes.",
            "Запрос с этим Idempotency-Key ещё выполняется. Повторите, когда он завершится.",
        ),
        "idempotency_key_reused": (
            "This Idempotency-Key was already used for a different request. Use a new key.",
            "Этот Idempotency-Key уже использован для другого запроса. Возьмите новый ключ.",
        ),
        "idempotency_key_too_long": (
            "An Idempotency-Key may have at most 255 characters.",
            "Idempotency-Key может содержать не более 255 символов.",
        ),
        "precondition_failed": (
            "The resource has changed since you read it (If-Match does not match). Read it again, then retry.",
            "Ресурс изменился после того, как вы его прочитали (If-Match не совпадает). Прочитайте его снова и повторите.",
        ),
        "body_too_large": (
            "The request body is larger than {limit} MB; nothing was read. Send less at a time.",
            "Тело запроса больше {limit} МБ; оно не прочитано. Отправляйте меньше за раз.",
        ),
        "body_too_deep": (
            "The request body nests too deeply to be read; no request of this API needs that.",
            "Тело запроса вложено слишком глубоко, чтобы его прочитать; ни одному запросу API это не нужно.",
        ),
        "body_not_object": (
            "The request body must be a JSON object (field: value), not {kind}.",
            "Тело запроса должно быть объектом JSON (поле: значение), а не {kind}.",
        ),
        "conflict": ("The request conflicts with the current state.", "Запрос противоречит текущему состоянию."),
        "server_error": (
            "Something went wrong on the server; nothing you sent was lost. Try again, or tell the organisers.",
            "На сервере произошла ошибка; отправленное вами не потеряно. Повторите или сообщите организаторам.",
        ),
        "error": ("The request failed.", "Запрос не выполнен."),
        "draw_over_api": (
            "Over the API: POST {commit} (commits the draw's seed), then POST {perform} (holds the "
            "draw); or PATCH {tournament} with \"seeding\": \"rating\", \"category\" or \"registration\".",
            "Через API: POST {commit} (фиксирует зерно жеребьёвки), затем POST {perform} (проводит "
            "жеребьёвку); или PATCH {tournament} с \"seeding\": \"rating\", \"category\" или \"registration\".",
        ),
        "unknown_fields": (
            "The request has fields this operation does not take: {fields}.",
            "В запросе есть поля, которые этот запрос не принимает: {fields}.",
        ),
        "unknown_field": (
            "Unknown field: this operation does not take it (its request body is in /api/schema/).",
            "Неизвестное поле: этот запрос его не принимает (тело запроса описано в /api/schema/).",
        ),
        "unknown_field_near": (
            "Unknown field; did you mean “{near}”?",
            "Неизвестное поле; возможно, имелось в виду «{near}»?",
        ),
        "no_body_expected": (
            "Unknown field: this operation takes no fields.",
            "Неизвестное поле: этот запрос не принимает полей.",
        ),
        "unknown_parameters": (
            "The request has query parameters this operation does not take: {parameters}. Nothing was done.",
            "В запросе есть параметры, которые этот запрос не принимает: {parameters}. Ничего не сделано.",
        ),
        "unknown_parameter": (
            "Unknown query parameter: this operation does not take it (its parameters are in /api/schema/).",
            "Неизвестный параметр запроса: этот запрос его не принимает (параметры описаны в /api/schema/).",
        ),
        "unknown_parameter_near": (
            "Unknown query parameter; did you mean “{near}”?",
            "Неизвестный параметр запроса; возможно, имелось в виду «{near}»?",
        ),
        "invalid_json": (
            "The request body is not valid JSON: the error is at line {line}, column {column}.",
            "Тело запроса — не корректный JSON: ошибка в строке {line}, столбце {column}.",
        ),
        "body_not_utf8_json": (
            "The request body could not be read as JSON in UTF-8.",
            "Тело запроса не удалось прочитать как JSON в кодировке UTF-8.",
        ),
        "unknown_include": (
            "Nothing called {names} can be included here; include takes: {allowed}.",
            "Здесь нельзя включить {names}; include принимает: {allowed}.",
        ),
        "read_only_fields": (
            "The request sets fields that cannot be changed here: {fields}. Nothing was changed.",
            "В запросе есть поля, которые здесь нельзя изменить: {fields}. Ничего не изменено.",
        ),
        "read_only_field": (
            "Read-only: this request cannot set this field (it is fixed, or set only when creating).",
            "Только для чтения: этим запросом это поле не задать (оно неизменно или задаётся только при создании).",
        ),
        "entry_key_scope": (
            "A private link's key may only report, confirm and dispute its own matches, check in and "
            "ask for a bye; this needs an account's token.",
            "Ключ личной ссылки позволяет только вносить, подтверждать и оспаривать результаты своих "
            "матчей, отмечаться о прибытии и просить пропуск тура; для этого нужен токен учётной записи.",
        ),
        "entry_key_revoked": (
            "This key's private link has been reissued by the organiser. Exchange the new link for a new key.",
            "Личная ссылка этого ключа перевыпущена организатором. Обменяйте новую ссылку на новый ключ.",
        ),
        "link_unknown": (
            "This is not a private link of this site. Copy the whole link from your card or email.",
            "Это не личная ссылка этого сайта. Скопируйте ссылку целиком с карточки или из письма.",
        ),
        "link_reissued": (
            "This private link has been replaced by the organiser. Ask the organiser for the new one.",
            "Эта личная ссылка заменена организатором. Попросите у организатора новую.",
        ),
    },
)


def api_problem(name: str, **details):
    """The ``api.<name>`` problem with the details its message needs."""
    return API.problem(name, **details)
