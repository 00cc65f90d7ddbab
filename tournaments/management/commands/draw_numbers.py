"""``manage.py draw_numbers SLUG [--commit | --verify | --seed S]``: the open draw from a shell.

The same services as the Draw page (:mod:`tournaments.draw.services`): ``--commit``
publishes the SHA-256 of a fresh secret seed; without options the draw is held
with the committed seed (or a fresh one); ``--verify`` re-runs the latest draw
and checks its seed against the published commitment.
"""

from django.core.management.base import BaseCommand, CommandError

from scoring.rules.errors import RuleViolation
from tournaments.draw.services import check_draw, commit_draw, latest_draw, perform_draw
from tournaments.models import Tournament


def _both(problems) -> str:
    return "; ".join(f"{p.en} / {p.ru}" for p in problems)


class Command(BaseCommand):
    help = (
        "Open draw of numbers: --commit publishes the SHA-256 of a secret seed; without options "
        "the draw is held with the committed seed (or --seed / a fresh one) and stored so anyone "
        "can re-run it; --verify re-runs the latest draw and checks the commitment."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--seed", help="publish this seed (default: the committed one, else fresh)")
        group.add_argument("--verify", action="store_true", help="re-run the latest stored draw")
        group.add_argument(
            "--commit", action="store_true", help="publish the hash of a fresh secret seed"
        )

    def handle(self, slug, seed=None, verify=False, commit=False, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as exc:
            raise CommandError(f"No tournament with slug {slug!r} / Турнир {slug!r} не найден") from exc
        try:
            if verify:
                return self.verify(tournament)
            if commit:
                digest = commit_draw(tournament)
                self.stdout.write(f"Commitment (SHA-256 of the seed): {digest}")
                return
            draw = perform_draw(tournament, seed=seed)
        except RuleViolation as exc:
            raise CommandError(_both(exc.problems)) from exc
        self.stdout.write(f"Seed: {draw.seed} ({draw.algorithm}, {draw.performed_at:%Y-%m-%d %H:%M:%S %Z})")
        if tournament.draw_commitment:
            self.stdout.write(f"Commitment: {tournament.draw_commitment}")
        for participant, number in sorted(zip(draw.participants, draw.numbers, strict=True), key=lambda x: x[1]):
            self.stdout.write(f"{number:>4}  {participant['name']}")

    def verify(self, tournament: Tournament) -> None:
        draw = latest_draw(tournament)
        if draw is None:
            raise CommandError("No draw stored yet / Жеребьёвка ещё не проводилась")
        check = check_draw(draw)
        if not check.ok:
            raise CommandError(_both(check.problems(draw.seed)))
        self.stdout.write(f"SHA-256(seed) = {check.seed_hash}")
        if check.committed:
            self.stdout.write(self.style.SUCCESS("Commitment matches the seed."))
        else:
            self.stdout.write(self.style.WARNING(_both(check.problems(draw.seed))))
        self.stdout.write(self.style.SUCCESS(f"Draw with seed {draw.seed} verified."))
