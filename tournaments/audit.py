"""The audit log: who changed what, when, with the state before and after.

Every change to a result, a pairing or an entry is recorded through
:func:`record`, so an organiser can answer "who entered this and what was there
before" long after the event. Other apps (pairing, registration) call
:func:`record` with their own snapshots; :func:`snapshot` gives a JSON-safe
picture of the common objects so before/after are comparable.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from django.apps import apps
from django.core.exceptions import FieldDoesNotExist
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .models import AuditEntry

#: Fields kept in a snapshot, per model name (lower case); the rest is noise for an auditor.
SNAPSHOT_FIELDS: dict[str, tuple[str, ...]] = {
    "match": (
        "round_id",
        "table",
        "entry_a_id",
        "entry_b_id",
        "match_length",
        "result_status",
        "score_a",
        "score_b",
        "winner",
        "result_kind",
        "start_a",
        "start_b",
        "clock_minutes_per_point",
        "clock_delay_seconds",
        "clock_increment_seconds",
        "version",
    ),
    "result": (
        "match_id",
        "score_a",
        "score_b",
        "kind",
        "winner",
        "games",
        "state",
        "reported_by_id",
        "confirmed_by_id",
        "note",
    ),
    "entry": (
        "player_id", "section_id", "category", "draw_number", "status", "seed_rating", "joined_round",
        "fee_amount", "fee_paid",
    ),
    "round": ("number", "section_id", "status", "match_length", "published_at"),
    "dispute": (
        "match_id",
        "result_id",
        "state",
        "reason",
        "raised_side",
        "ruling",
        "ruling_outcome",
        "ruled_by_id",
        "appeal_reason",
        "appealed_by_id",
        "appealed_side",
        "jury_decision",
        "jury_outcome",
        "jury_by_id",
        "decided_result_id",
    ),
    "sanction": (
        "entry_id", "match_id", "kind", "points", "game", "decided_by_id", "decided_as", "reason",
    ),
    "official": ("user_id", "role"),
    "clubrole": ("club_id", "user_id", "role"),
    "section": (
        "name", "group", "min_category", "max_category", "rule_category", "cube",
        "match_length", "override_reason", "order",
    ),
    "registration": (
        "last_name",
        "first_name",
        "email",
        "club_name",
        "category",
        "rating",
        "status",
        "entry_id",
    ),
}


#: Every audited action: its code (stored) and what the audit page says, in English and Russian.
#: A newcomer who audits a new action adds a row (an unknown code is shown as it is).
ACTIONS: dict[str, tuple[str, str]] = {
    "draw.commit": ("Draw commitment published", "Опубликован хеш ключа жеребьёвки"),
    "draw.perform": ("Open draw of numbers held", "Проведена открытая номерная жеребьёвка"),
    "draw.choose_seeding": ("Seeding chosen", "Выбран порядок присвоения номеров"),
    "draw.seed": ("Draw numbers given by the chosen seeding", "Номера присвоены по выбранному порядку"),
    "round.generate": ("Round generated (draft)", "Тур сформирован (черновик)"),
    "round.generate_all": ("Rounds generated in every section", "Туры сформированы во всех секциях"),
    "round.publish": ("Round published", "Тур опубликован"),
    "round.swap": ("Players swapped in a draft", "Игроки переставлены в черновике"),
    "round.set_pairing": ("Pairing set by hand", "Пара задана вручную"),
    "round.delete_draft": ("Draft round deleted", "Черновик тура удалён"),
    "round.discard_results": ("Results on a draft discarded", "Результаты черновика отменены"),
    "round.close": ("Round closed", "Тур завершён"),
    "round.reopen": (
        "Round opened again (a ruling sent a match back to be played)",
        "Тур снова открыт (решение вернуло матч к игре)",
    ),
    "round.unpublish": (
        "Publication withdrawn (round back to draft)",
        "Публикация тура отозвана (снова черновик)",
    ),
    "tournament.status": ("Tournament status changed", "Статус турнира изменён"),
    "match.result": ("Match result changed", "Результат матча изменён"),
    "result.report": ("Result reported", "Результат сообщён"),
    "result.forfeit": ("Result without play recorded (forfeit, time, void)", "Результат без игры внесён (неявка, время, аннулирование)"),
    "match.lateness": ("Lateness penalty applied", "Учтено опоздание игрока"),
    "match.penalty": ("Penalty points added to the opponent's match score", "Штрафные очки добавлены к счёту соперника в матче"),
    "match.clock": ("Clocks installed on a match", "На матч поставлены часы"),
    "entry.remove_event": ("Player removed from the event", "Игрок удалён с соревнований"),
    "result.enter": ("Result entered by a referee", "Результат внесён судьёй"),
    "result.confirm": ("Result confirmed", "Результат подтверждён"),
    "result.correct": ("Confirmed result corrected", "Подтверждённый результат исправлен"),
    "result.ruling": ("Result set by a ruling", "Результат установлен решением"),
    "result.admin_add": ("Result added in the back office", "Результат добавлен в админке"),
    "result.admin_change": ("Result changed in the back office", "Результат изменён в админке"),
    "dispute.open": ("Dispute opened", "Протест подан"),
    "dispute.rule": ("Director's ruling", "Решение главного судьи"),
    "dispute.appeal": ("Appeal to the jury", "Апелляция в жюри"),
    "dispute.decide": ("Jury's decision", "Решение жюри"),
    "dispute.final": ("Dispute closed", "Протест закрыт"),
    "entry.check_in": ("Player checked in", "Игрок отмечен"),
    "entry.withdraw": ("Player withdrawn", "Игрок снят"),
    "entry.reinstate": ("Player reinstated", "Игрок восстановлен"),
    "entry.disqualify": ("Player disqualified", "Игрок дисквалифицирован"),
    "entry.add": ("Player entered", "Игрок заявлен"),
    "entry.remove": ("Entry removed", "Заявка удалена"),
    "entry.change": ("Entry changed", "Заявка изменена"),
    "team.add": ("Team created", "Команда создана"),
    "team.change": ("Team line-up changed", "Состав команды изменён"),
    "team.delete": ("Team deleted", "Команда удалена"),
    "result.dispute": ("Result disputed", "Результат оспорен"),
    "record.attach": ("Match file attached to the match", "Файл матча прикреплён к матчу"),
    "record.discard": ("Match file discarded", "Файл матча удалён"),
    "analysis.request": ("Match analysis queued", "Анализ матча поставлен в очередь"),
    "analysis.rerun": ("Match analysis run again", "Анализ матча запущен заново"),
    "analysis.settings": ("Match analysis settings changed", "Изменены настройки анализа матчей"),
    "sanction.warning": ("Warning", "Предупреждение"),
    "sanction.penalty": ("Penalty", "Штраф"),
    "sanction.annul": ("Game annulled (prompting)", "Партия аннулирована (подсказка)"),
    "sanction.disqualification": ("Disqualification", "Дисквалификация"),
    "tournament.create": ("Tournament created", "Турнир создан"),
    "swiss.forbid_pair": ("Pair forbidden", "Пара запрещена"),
    "swiss.allow_pair": ("Forbidden pair lifted", "Запрет пары снят"),
    "swiss.request_bye": ("Bye requested for a round", "Заявлен пропуск тура"),
    "swiss.cancel_bye": ("Requested bye cancelled", "Заявленный пропуск тура отменён"),
    "knockout.qualify": ("Swiss top players qualified into a cup", "Лучшие игроки швейцарки выведены в кубок"),
    "knockout.cut_playoff": ("Play-off drawn for a place shared at the cut", "Назначен дополнительный отборочный тур за место на границе отбора"),
    "tournament.settings": ("Tournament settings changed", "Настройки турнира изменены"),
    "tournament.delete": ("Empty tournament deleted", "Пустой турнир удалён"),
    "tournament.import": ("Tournament restored from an archive", "Турнир восстановлен из архива"),
    "section.add": ("Section added", "Секция добавлена"),
    "section.change": ("Section changed", "Секция изменена"),
    "section.delete": ("Section deleted", "Секция удалена"),
    "official.appoint": ("Official appointed", "Назначен член администрации"),
    "official.remove": ("Official removed", "Член администрации снят"),
    "club.organiser_add": ("Club organiser appointed", "Назначен организатор клуба"),
    "club.organiser_remove": ("Club organiser removed", "Организатор клуба снят"),
    "membership.add": ("Club member added", "Игрок принят в клуб"),
    "membership.end": ("Club membership ended", "Членство в клубе прекращено"),
    "membership.import": ("Club members imported", "Члены клуба импортированы"),
    "player.merge": ("Two players merged into one person", "Два игрока объединены в одного"),
    "player.edit": ("Player's details changed", "Данные игрока изменены"),
    "season.create": ("Season created", "Сезон создан"),
    "season.change": ("Season changed", "Сезон изменён"),
    "chouette.create": ("Chouette session started", "Начат швец"),
    "chouette.game": ("Chouette game entered", "Записана партия швеца"),
    "chouette.undo": ("Chouette game removed", "Партия швеца удалена"),
    "entry.check_out": ("Check-in undone", "Отметка о прибытии снята"),
    "entry.link_reissue": ("Private link reissued", "Личная ссылка выдана заново"),
    "entry.link_email": ("Private link emailed", "Личная ссылка отправлена письмом"),
    "registration.apply": ("Registration received", "Заявка получена"),
    "registration.approve": ("Registration approved", "Заявка принята"),
    "registration.refuse": ("Registration refused", "Заявка отклонена"),
    "registration.cancel": ("Registration cancelled", "Заявка отозвана"),
    "registration.edit": ("Application changed by the applicant", "Заявка изменена участником"),
    "registration.offer": ("Place offered from the waiting list", "Место предложено из листа ожидания"),
    "registration.entry": ("Entry made from a registration", "Участник внесён по заявке"),
    "registration.open": ("Self-registration opened", "Регистрация открыта"),
    "registration.close": ("Self-registration closed", "Регистрация закрыта"),
    "registration.settings": ("Registration options changed", "Условия регистрации изменены"),
    "entry.fee": ("Entry fee recorded", "Вступительный взнос отмечен"),
    "prize.fund": ("Prize fund changed", "Призовой фонд изменён"),
    "ruling.keep_pairings": (
        "Pairings kept after a ruling", "Пары оставлены после решения по спору",
    ),
    "ruling.repair": ("Round paired again after a ruling", "Тур пересоставлен после решения по спору"),
    "prize.set": ("Prize set", "Приз назначен"),
    "prize.remove": ("Prize removed", "Приз удалён"),
    "admin.create": ("Created in the back office", "Создано в админке"),
    "admin.change": ("Changed in the back office", "Изменено в админке"),
    "admin.delete": ("Deleted in the back office", "Удалено в админке"),
}


def action_label(code: str, language: str) -> str:
    """What the audit page shows for an action, in the reader's language (the code if unknown)."""
    labels = ACTIONS.get(code)
    if labels is None:
        return code
    return labels[0] if language == "en" else labels[1]


def object_type_label(model_name: str) -> str:
    """An audited object's model name (``match``) as the reader says it (``матч``), for the filter and rows."""
    for model in apps.get_models():
        if model._meta.model_name == model_name:
            return str(model._meta.verbose_name)
    return model_name


@dataclass(frozen=True)
class Change:
    """One line of an audit entry as people read it: a field's label, the value before and after
    (``—`` for none), in the reader's language and the site's time zone."""

    label: str
    before: str
    after: str


def _model(model_name: str):
    for model in apps.get_models():
        if model._meta.model_name == model_name:
            return model
    return None


def _field(model, key: str):
    if model is None:
        return None
    for name in (key, key.removesuffix("_id")):
        try:
            return model._meta.get_field(name)
        except FieldDoesNotExist:
            continue
    return None


def _label(model, key: str) -> str:
    field = _field(model, key)
    text = str(getattr(field, "verbose_name", "") or key.removesuffix("_id").replace("_", " "))
    return text[:1].upper() + text[1:]


def _when(text: str) -> str | None:
    """An ISO date-time of a snapshot (stored in UTC) in the site's time zone, as the log's
    "When" column shows it; None when ``text`` is not one."""
    if len(text) < 16 or text[4:5] != "-" or "T" not in text:
        return None
    moment = parse_datetime(text)
    if moment is None:
        return None
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, UTC)
    return date_format(timezone.localtime(moment), WHEN_FORMAT)


#: How the audit pages write a moment: local time, minutes (one format for the rows and the changes).
WHEN_FORMAT = "Y-m-d H:i"


def shown_value(model, key: str, value: Any) -> str:
    """A snapshot's value as people read it: a choice's label, yes/no, a local time, "—"."""
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    field = _field(model, key)
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    choices = dict(getattr(field, "flatchoices", None) or ()) if field is not None else {}
    if choices and not isinstance(value, list | dict):
        return str(choices.get(value, value))
    if isinstance(value, str):
        return _when(value) or value
    if isinstance(value, list):
        return ", ".join(shown_value(None, key, v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')}: {shown_value(None, k, v)}" for k, v in value.items())
    return str(value)


def changes(object_type: str, before: Any, after: Any) -> list[Change]:
    """What an audit entry changed, field by field (``label: old → new``), instead of two JSON
    snapshots: only the fields that differ; every field of a created or deleted object."""
    model = _model(object_type)
    old = before if isinstance(before, dict) else {}
    new = after if isinstance(after, dict) else {}
    if not isinstance(before, dict | None) or not isinstance(after, dict | None):
        return [Change(str(_("Value")), shown_value(None, "", before), shown_value(None, "", after))]
    keys = list(dict.fromkeys([*old, *new]))
    out = []
    for key in keys:
        a, b = old.get(key), new.get(key)
        if before is not None and after is not None and a == b:
            continue
        out.append(Change(_label(model, key), shown_value(model, key, a), shown_value(model, key, b)))
    return out


def _json_safe(value: Any) -> Any:
    """Dates, decimals and fractions become strings; the JSON column then accepts anything."""
    if value is None:
        return None
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder, default=str))


def snapshot(obj: Any) -> dict[str, Any] | None:
    """The auditable fields of a model instance as plain JSON (None for no object)."""
    if obj is None:
        return None
    name = obj._meta.model_name
    fields = SNAPSHOT_FIELDS.get(name)
    if fields is None:
        fields = tuple(f.attname for f in obj._meta.concrete_fields)
    return _json_safe({f: getattr(obj, f, None) for f in fields})


def record_many(user, tournament, lines: list[tuple[str, Any, Any, Any, str]]) -> list[AuditEntry]:
    """Several entries of one action in one insert: ``(action, obj, before, after, reason)`` each.

    The result workflow writes two lines per action (the result, the match) while it
    holds the match's lock; one round trip instead of two.
    """
    return AuditEntry.objects.bulk_create(
        [entry(user, tournament, action, obj, before, after, reason) for action, obj, before, after, reason in lines]
    )


def record(
    user, tournament, action: str, obj: Any, before: Any, after: Any, reason: str = ""
) -> AuditEntry:
    """Write one audit entry; call it inside the transaction that makes the change.

    ``obj`` is the changed model instance (its model name and primary key are
    stored) or a ``(type, id)`` pair; ``before``/``after`` are snapshots (dicts)
    or model instances, which are snapshotted here. ``user`` may be None for
    system actions (e.g. a round closing itself).
    """
    return entry(user, tournament, action, obj, before, after, reason, save=True)


def entry(
    user, tournament, action: str, obj: Any, before: Any, after: Any, reason: str = "", save: bool = False
) -> AuditEntry:
    """One audit entry (saved with ``save``, else for :func:`record_many`)."""
    if isinstance(obj, tuple):
        object_type, object_id = obj
    else:
        object_type, object_id = obj._meta.model_name, obj.pk
    if hasattr(before, "_meta"):
        before = snapshot(before)
    if hasattr(after, "_meta"):
        after = snapshot(after)
    # A private-link holder (no account, pk None) is recorded as no user.
    account = user if user is not None and user.is_authenticated and user.pk is not None else None
    row = AuditEntry(
        user=account,
        actor=account.get_username()[:150] if account is not None else "",
        tournament=tournament,
        action=action[:40],
        object_type=str(object_type)[:40],
        object_id=str(object_id)[:40],
        before=_json_safe(before),
        after=_json_safe(after),
        reason=reason or "",
    )
    if save:
        row.save()
    return row
