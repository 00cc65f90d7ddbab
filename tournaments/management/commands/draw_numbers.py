from django.core.management.base import BaseCommand, CommandError

from tournaments.models import NumberDraw, Tournament
from tournaments.services import perform_draw, verify_draw


class Command(BaseCommand):
    help = (
        "Open draw of numbers: assign random draw numbers to a tournament's entries, "
        "storing the seed so anyone can re-run it. With --verify, re-run the latest draw."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--seed", help="publish this seed (default: a fresh random one)")
        parser.add_argument("--verify", action="store_true", help="re-run the latest stored draw")

    def handle(self, slug, seed=None, verify=False, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as exc:
            raise CommandError(f"No tournament with slug {slug!r} / Турнир {slug!r} не найден") from exc
        if verify:
            try:
                draw = tournament.draws.latest()
            except NumberDraw.DoesNotExist as exc:
                raise CommandError("No draw stored yet / Жеребьёвка ещё не проводилась") from exc
            if not verify_draw(draw):
                raise CommandError(f"Draw with seed {draw.seed} does NOT reproduce / не воспроизводится")
            self.stdout.write(self.style.SUCCESS(f"Draw with seed {draw.seed} verified."))
            return
        draw = perform_draw(tournament, seed=seed)
        self.stdout.write(f"Seed: {draw.seed} ({draw.algorithm}, {draw.performed_at:%Y-%m-%d %H:%M:%S %Z})")
        for participant, number in sorted(zip(draw.participants, draw.numbers, strict=True), key=lambda x: x[1]):
            self.stdout.write(f"{number:>4}  {participant['name']}")
