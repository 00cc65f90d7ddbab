"""The result workflow's refusals as coded, bilingual problems: the ``workflow.*`` catalogue.

Every refusal a person may see from :mod:`scoring.workflow` (report, confirm,
dispute, ruling, appeal, sanction, desk) and from the API around it is a row
here, said once in English and Russian. :class:`scoring.workflow.ResultError`
carries the :class:`~scoring.rules.errors.Problem`; pages and the API render it
in the reader's language (:func:`zarik.i18n.current_language`).

Not part of the rules core (:mod:`scoring.rules`): these are the shell's words.
"""

from __future__ import annotations

from scoring.rules.errors import Catalogue, Problem
from zarik.i18n import current_language

WORKFLOW = Catalogue(
    "workflow",
    {
        # the match and its version
        "match_missing": ("This match no longer exists.", "Этого матча больше нет."),
        "draft_round": (
            "Round {round} has not been published yet: results cannot be reported, confirmed "
            "or disputed on its matches.",
            "Тур {round} ещё не опубликован: по его матчам нельзя сообщать, подтверждать или "
            "оспаривать результаты.",
        ),
        "stale": (
            "Someone else saved this match while you were editing it (version {seen}, now "
            "{now}). Your entry was not saved; check the current result below and enter yours "
            "again if it is still needed.",
            "Кто-то другой сохранил этот матч, пока вы его редактировали (версия {seen}, теперь "
            "{now}). Ваш ввод не сохранён; проверьте текущий результат ниже и введите свой "
            "снова, если это всё ещё нужно.",
        ),
        "stale_same_moment": (
            "Someone else saved this match at the same moment; reload it.",
            "Кто-то другой сохранил этот матч в тот же момент; обновите страницу.",
        ),
        "invalid": (
            "The result breaks the rules of this match; see the problems listed.",
            "Результат противоречит правилам этого матча; см. перечисленные ошибки.",
        ),
        "forbidden": (
            "You may not do this with this match.",
            "Вам нельзя это делать с этим матчем.",
        ),
        "no_score": (
            "Give the final score, the games, or both.",
            "Укажите итоговый счёт, партии или и то, и другое.",
        ),
        # reports and confirmations
        "already_confirmed_match": (
            "This match already has a confirmed result; nothing was changed.",
            "У этого матча уже есть подтверждённый результат; ничего не изменено.",
        ),
        "bye": ("A bye has no result to enter.", "У свободного от игры участника нет результата для ввода."),
        "disputed": (
            "This result is disputed; the director decides it on the dispute page.",
            "Результат оспорен; решение принимает директор на странице спора.",
        ),
        "confirmed": (
            "The result is already confirmed. If it is wrong, dispute it: the director will decide.",
            "Результат уже подтверждён. Если он неверен, оспорьте его: решит директор.",
        ),
        "correction_reason": (
            "A confirmed result can only be corrected with a reason; write why.",
            "Подтверждённый результат можно исправить только с указанием причины; напишите почему.",
        ),
        "conflict": (
            "A result of {a}:{b} is already reported for this match. Confirm it, or dispute it "
            "if it is wrong: the director will decide.",
            "По этому матчу уже сообщён результат {a}:{b}. Подтвердите его или, если он неверен, "
            "оспорьте: решит директор.",
        ),
        "report_missing": ("This report no longer exists.", "Этого сообщения о результате больше нет."),
        "already_confirmed": ("This result is already confirmed.", "Этот результат уже подтверждён."),
        "not_confirmable": (
            "This report was replaced or contested and can no longer be confirmed.",
            "Это сообщение о результате заменено или оспорено, подтвердить его уже нельзя.",
        ),
        # disputes, rulings, appeals
        "dispute_reason": (
            "Say what is wrong with the result, for the director.",
            "Напишите для директора, что не так с результатом.",
        ),
        "under_dispute": ("This match is already under dispute.", "По этому матчу уже идёт спор."),
        "disputed_report_missing": (
            "The disputed report no longer exists; set a result instead.",
            "Оспоренного сообщения о результате больше нет; установите результат.",
        ),
        "outcome": (
            "Choose what the ruling does to the result.",
            "Укажите, что решение делает с результатом.",
        ),
        "dispute_missing": ("This dispute does not exist.", "Такого спора нет."),
        "knockout_moved_on": (
            "The cup has moved on: {names} already played the next stage. A ruling or a correction "
            "that changes who went through this match would leave that stage with the wrong player; "
            "keep the winner, or change it before the next stage is paired.",
            "Кубок ушёл дальше: {names} уже в следующем этапе. Решение или исправление, меняющее "
            "того, кто прошёл в этом матче, оставило бы в том этапе не того игрока; оставьте "
            "победителя прежним или меняйте его до составления следующего этапа.",
        ),
        "already_ruled": (
            "The director has already ruled on this dispute.",
            "Директор уже вынес решение по этому спору.",
        ),
        "ruling_reason": ("Write the ruling and its grounds.", "Напишите решение и его основания."),
        "not_ruled_yet": (
            "The director has not ruled yet; an appeal follows the ruling.",
            "Директор ещё не вынес решения; апелляция подаётся после решения.",
        ),
        "already_appealed": (
            "This dispute has already gone to the jury.",
            "Этот спор уже передан в жюри.",
        ),
        "appeal_reason": (
            "Give the grounds of the appeal for the jury.",
            "Укажите для жюри основания апелляции.",
        ),
        "ruling_stands": (
            "The director has already ruled on this result. If you disagree, appeal the ruling "
            "to the jury on this match's page; the jury's decision is final.",
            "Директор уже вынес решение по этому результату. Если вы не согласны, подайте "
            "апелляцию в жюри на странице этого матча; решение жюри окончательное.",
        ),
        "appeal_window": (
            "The director ruled more than {minutes} minutes ago: the time the organiser fixed for "
            "an appeal to the jury has passed. Ask the director.",
            "Директор вынес решение больше {minutes} мин назад: установленное организатором время "
            "для апелляции в жюри истекло. Обратитесь к директору.",
        ),
        "appeal_not_party": (
            "Only a player of the disputed match may appeal the director's ruling on it; this "
            "dispute is about another match. Nothing was sent.",
            "Обжаловать решение директора может только игрок оспоренного матча; этот спор "
            "касается другого матча. Ничего не отправлено.",
        ),
        "link_replaced": (
            "This private link has been replaced by the organiser and no longer works, so nothing "
            "was sent. Ask the organiser for your new link; your text is kept below to copy.",
            "Организатор заменил эту личную ссылку, она больше не действует, поэтому ничего не "
            "отправлено. Попросите у организатора новую ссылку; ваш текст сохранён ниже, его "
            "можно скопировать.",
        ),
        "dispute_own_result": (
            "You reported or confirmed this result yourself, and the organiser allows no time to "
            "dispute a confirmed result. If it is wrong, ask the director; if you disagree with "
            "the director's decision, the jury decides.",
            "Вы сами сообщили или подтвердили этот результат, а время для спора о подтверждённом "
            "результате организатор не установил. Если он неверен, обратитесь к директору; если "
            "вы не согласны с решением директора, окончательное решение выносит жюри.",
        ),
        "jury_final": (
            "The jury's decision is final and has already been made.",
            "Решение жюри окончательное и уже принято.",
        ),
        "not_appealed": (
            "Only an appealed ruling goes to the jury.",
            "В жюри передаётся только обжалованное решение директора.",
        ),
        "jury_reason": (
            "Write the jury's decision and its grounds.",
            "Напишите решение жюри и его основания.",
        ),
        # discipline and the desk
        "not_entered": (
            "This player is not entered in this tournament.",
            "Этот игрок не заявлен в этом турнире.",
        ),
        "sanction_kind": (
            "Choose a warning, a penalty, an annulled game or a disqualification.",
            "Выберите предупреждение, штраф, аннулирование партии или дисквалификацию.",
        ),
        "sanction_reason": (
            "Write what happened and why this is decided.",
            "Напишите, что произошло и почему принято такое решение.",
        ),
        "warning_first": (
            "A penalty follows a warning (Part 9): warn the player first.",
            "Штраф назначается после предупреждения (часть 9): сначала предупредите игрока.",
        ),
        "dispute_window": (
            "This result was confirmed more than {minutes} minutes ago: the organiser's time to "
            "dispute it has passed. Ask the director.",
            "Этот результат подтверждён больше {minutes} мин назад: установленное организатором "
            "время для спора истекло. Обратитесь к директору.",
        ),
        "annul_match": (
            "To annul a game, choose a match of this player.",
            "Чтобы аннулировать партию, выберите матч этого игрока.",
        ),
        "annul_game": (
            "To annul a game, give its number in the match (from 1).",
            "Чтобы аннулировать партию, укажите её номер в матче (с 1).",
        ),
        "annul_no_game": (
            "The match has {games} games recorded; there is no game {number}.",
            "В матче записано партий: {games}; партии {number} нет.",
        ),
        "annul_needs_ledger": (
            "This result has a final score but no games: one game cannot be taken out of it. "
            "Correct the score instead.",
            "В этом результате есть только итоговый счёт без партий: одну партию из него не "
            "убрать. Исправьте счёт.",
        ),
        "penalty_match": (
            "This tournament takes penalty points from the match score: choose the player's match "
            "that is being played.",
            "В этом турнире штрафные очки снимаются в матче: выберите текущий матч этого игрока.",
        ),
        "penalty_whole": (
            "Only whole points can be added to a match score, not {value}.",
            "К счёту матча можно добавить только целые очки, а не {value}.",
        ),
        "penalty_match_started": (
            "Table {table} already has a reported result: a penalty in the match must come before it. "
            "Take the points from the standings instead, or rule on the result.",
            "У стола {table} уже есть сообщённый результат: штраф в матче назначается до него. "
            "Снимите очки в таблице или вынесите решение по результату.",
        ),
        "penalty_points": (
            "A penalty takes points from the player's tournament score: give a positive number "
            "in steps of ½, not {value}.",
            "Штраф снимает очки с результата игрока в турнире: укажите положительное число с "
            "шагом ½, а не {value}.",
        ),
        "round_open": (
            "Round {round} cannot close: tables {tables} have no confirmed result yet.",
            "Тур {round} нельзя завершить: за столами {tables} ещё нет подтверждённого результата.",
        ),
        "both_scores": ("Give both scores, or neither.", "Укажите оба числа счёта или ни одного."),
        "kind_reason": (
            "Say why the match is settled this way (who did not come, whose flag fell, …).",
            "Напишите, почему матч решается так (кто не явился, у кого упал флажок, …).",
        ),
        "kind_settled": (
            "Table {table} already has a confirmed result; a forfeit replaces it only as a "
            "correction by a ruling.",
            "У стола {table} уже есть подтверждённый результат; заменить его неявкой можно только "
            "решением по спору.",
        ),
        "lateness_started": (
            "Lateness is applied before the match starts: table {table} already has a result.",
            "Опоздание учитывается до начала матча: у стола {table} уже есть результат.",
        ),
        "settle_choice": (
            "Choose what happens to the player's unfinished matches: a forfeit to the opponent, "
            "or void.",
            "Выберите, что делать с несыгранными матчами игрока: поражение за неявку или "
            "аннулирование.",
        ),
        "past_choice": (
            "Choose whether the player's past results are kept or voided.",
            "Выберите, сохраняются ли прошлые результаты игрока или аннулируются.",
        ),
        "replace_both_scores": (
            "To set a different result, give both scores.",
            "Чтобы установить другой результат, укажите оба числа счёта.",
        ),
    },
)


def workflow_problem(name: str, **details) -> Problem:
    """The problem ``workflow.<name>`` with the details its message needs."""
    return WORKFLOW.problem(name, **details)


def workflow_message(name: str, **details) -> str:
    """The message of ``workflow.<name>`` in the reader's language."""
    return workflow_problem(name, **details).message(current_language())
