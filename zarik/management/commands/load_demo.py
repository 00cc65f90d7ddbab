from django.core.management.base import BaseCommand

from zarik.management.demo import load_demo


class Command(BaseCommand):
    help = "Load the demo tournaments (the book's crosstable and a Swiss in progress). Idempotent."

    def handle(self, *args, **options):
        for tournament in load_demo():
            self.stdout.write(f"{tournament.slug}: {tournament.name}")
        self.stdout.write(self.style.SUCCESS("Demo data loaded. Log in as admin / zarik-admin."))
