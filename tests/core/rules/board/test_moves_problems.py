"""Every problem code of check_play, as the record replayer will meet it."""

from __future__ import annotations

from scoring.rules import (
    PROBLEM_CODES,
    WHITE,
    Position,
    Step,
    check_play,
    label_to_index,
    legal_plays,
)

TESTED: set[str] = set()


def codes(pos: Position, dice: tuple[int, int], *pairs: str, numbering: str = "through"):
    geo = pos.rules.geometry
    steps = []
    for pair in pairs:
        a, b = pair.rstrip("*").split("/")
        steps.append(
            Step(
                label_to_index(a, pos.turn, numbering, geo),
                label_to_index(b, pos.turn, numbering, geo),
                pair.endswith("*"),
            )
        )
    check = check_play(pos, dice, steps, numbering=numbering)
    found = [p.code for p in check.problems]
    TESTED.update(found)
    for p in check.problems:
        assert p.en and p.ru and p.en != p.ru
    return found, check


START = Position.start("backgammon")


def test_legal_play_gives_the_position_and_no_problems():
    found, check = codes(START, (3, 1), "8/5", "6/5")
    assert found == [] and check.ok
    assert check.position in {p.position for p in legal_plays(START, (3, 1))}
    # A printed step may span both dice.
    found, check = codes(START, (6, 5), "24/13")
    assert found == [] and check.ok


def test_wrong_distance():
    found, check = codes(START, (6, 5), "13/9")
    assert found == ["record.wrong_distance"]
    assert "13/9" in check.problems[0].en and "6-5" in check.problems[0].ru


def test_no_checker_and_point_closed():
    assert codes(START, (6, 5), "12/7", "13/7")[0] == ["record.no_checker"]
    found, check = codes(START, (6, 5), "24/19")
    assert found == ["record.point_closed"] and "19" in check.problems[0].en


def test_bar_first():
    pos = Position.from_labels({"bar": 1, "13": 14}, {"19": 15}, WHITE, numbering="through")
    assert codes(pos, (6, 5), "13/7", "13/8")[0] == ["record.bar_first"]
    # Entering printed after the other step is only the notation's order: the play is legal.
    assert codes(pos, (6, 5), "13/7", "bar/20")[0] == []


def test_bearing_off_problems():
    assert codes(START, (6, 5), "6/off")[0] == ["record.bear_off_not_all_home"]
    pos = Position.from_labels({"5": 1, "3": 14}, {"19": 15}, WHITE, numbering="through")
    assert codes(pos, (6, 1), "3/off", "5/4")[0] == ["record.bear_off_higher_point"]
    last = Position.from_labels({"1": 1}, {"19": 15}, WHITE, numbering="through")
    assert codes(last, (2, 1), "1/off", "1/off")[0] == ["record.too_many_borne_off"]


def test_game_over():
    done = Position.from_labels({}, {"19": 15}, WHITE, numbering="through")
    assert codes(done, (2, 1), "1/off")[0] == ["record.game_over"]


def test_hit_markers():
    assert codes(START, (6, 5), "13/8*", "13/7")[0] == ["record.nothing_to_hit"]
    # A real hit printed without * is accepted (records often omit it).
    pos = Position.from_labels({"13": 15}, {"7": 1, "19": 14}, WHITE, numbering="through")
    found, check = codes(pos, (6, 5), "13/7", "13/8")
    assert found == [] and check.position.black[25] == 1


def test_dice_rule_problems():
    assert codes(START, (6, 5), "24/18")[0] == ["record.not_all_dice_played"]
    assert codes(START, (6, 5))[0] == ["record.pass_while_move_exists"]
    # Either die alone, not both: 13/7 or 13/8, then 2 is closed — the 6 must be played.
    pos = Position.from_labels(
        {"13": 1}, {"2": 2, "24": 13}, WHITE, numbering="through", white_off=14
    )
    assert codes(pos, (6, 5), "13/8")[0] == ["record.larger_die_not_played"]
    assert codes(pos, (6, 5), "13/7")[0] == []


def test_long_nardy_codes():
    pos = Position.from_labels({"012": 14, "01": 1}, {"12": 14, "09": 1}, WHITE, "long_nardy")
    assert codes(pos, (6, 5), "012/06", "012/07", numbering="traditional")[0] == ["record.head_rule"]
    assert codes(pos, (3, 1), "012/09*", numbering="traditional")[0] == ["record.hit_forbidden"]
    white = {"012": 9, "7": 2, "6": 1, "5": 1, "4": 1, "3": 1}
    prime = Position.from_labels(white, {"12": 14, "11": 1}, WHITE, "long_nardy")
    assert codes(prime, (5, 1), "012/011", "7/2", numbering="traditional")[0] == ["record.prime_rule"]


def test_caucasian_code():
    pos = Position.from_labels(
        {"13": 11, "8": 1, "6": 2, "3": 1}, {"5": 1, "1": 14}, WHITE, "caucasian", "through"
    )
    assert codes(pos, (3, 2), "8/5*", "5/3")[0] == ["record.caucasian_hide"]


def test_exact_bear_off_code():
    pos = Position.from_labels(
        {"6": 1, "5": 2, "4": 3, "3": 3, "2": 3},
        {"19": 15},
        WHITE,
        "short_nardy",
        "through",
        white_off=3,
    )
    assert codes(pos, (6, 1), "6/5", "5/off")[0] == ["record.exact_bear_off_required"]


def test_backward_step_is_named_as_such():
    found, check = codes(START, (6, 5), "8/13")
    assert found == ["record.wrong_distance"]
    problem = check.problems[0]
    assert problem.details["backward"] is True
    assert "backwards" in problem.en and "-5 pips" not in problem.en
    assert "ход назад" in problem.ru and "с пункта 8 на 13" in problem.ru
    black = START.with_turn(1)
    back = codes(black, (6, 5), "19/13")[1].problems[0]  # Black's 6 point to its 12
    assert back.details.get("backward") and "ход назад" in back.ru
    # A plain wrong length is not called backwards.
    assert "backward" not in codes(START, (6, 5), "13/9")[1].problems[0].details


def test_russian_messages_name_the_side_in_the_right_case():
    black = START.with_turn(1)
    passed = codes(black, (6, 5))[1].problems[0]
    assert passed.ru.startswith("Чёрные пропустили ход") and "Чёрных" not in passed.ru
    partial = codes(START, (6, 5), "24/18")[1].problems[0]
    assert partial.ru.startswith("Белые сыграли 1 из 2")
    early = codes(START, (6, 5), "6/off")[1].problems[0]
    assert "белым можно выводить шашки во двор" in early.ru
    for problem in (passed, partial, early):
        assert not any(word in problem.ru.lower() for word in ("white", "black"))


def test_a_step_through_two_blots_is_ambiguous_and_lists_both_readings():
    # 6-5 from 13 to 2 passes 7 or 8; Black has a lone checker on each, so either route
    # hits a different checker and only a printed "*" could say which (ch7).
    pos = Position.from_labels(
        {"13": 15}, {"7": 1, "8": 1, "19": 13}, WHITE, numbering="through"
    )
    found, check = codes(pos, (6, 5), "13/2")
    assert found == ["record.ambiguous_step"]
    problem = check.problems[0]
    assert "13/7*/2" in problem.en and "13/8*/2" in problem.en
    assert "13/7*/2" in problem.ru and "читается двояко" in problem.ru
    # With the hit printed on the point passed through the cell has one meaning.
    geo = pos.rules.geometry
    at = lambda label: label_to_index(label, WHITE, "through", geo)  # noqa: E731
    marked = check_play(pos, (6, 5), [Step(at("13"), at("7"), True), Step(at("7"), at("2"))])
    assert marked.ok


def test_an_unmarked_step_past_one_blot_takes_the_route_that_does_not_hit():
    # ch7 marks a hit with "*": "13/2" with a blot on 7 only goes through 8, hitting nothing.
    pos = Position.from_labels({"13": 15}, {"7": 1, "19": 14}, WHITE, numbering="through")
    found, check = codes(pos, (6, 5), "13/2")
    assert found == [] and check.ok
    assert check.position.black[0] == 0 and check.position.black[25] == 0  # nobody on the bar


def test_every_documented_code_is_exercised():
    """Each code of the catalogue is met by one of this module's cases. The cases run again here,
    so the check does not hang on which xdist worker ran them, or in what order (a group mark
    once left three of them to another worker and the check failed)."""
    for name, case in list(globals().items()):
        if name.startswith("test_") and case is not test_every_documented_code_is_exercised:
            case()
    assert set(PROBLEM_CODES) <= TESTED, set(PROBLEM_CODES) - TESTED
