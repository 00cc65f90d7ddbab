"""The browsable API pages break the CSP (inline styles and script): production serves JSON only.

Run for real: the settings read as a production server reads them (a subprocess with
the production environment), a browser's ``Accept: text/html`` on ``/api/``; and in
development, where the browsable pages stay, the same request shows what the CSP
would block — the reason they are off in production.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.paths import ROOT
from tests.zarik.test_settings import production_env

PROBE = """
import json, django
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"  # what a browser sends
django.setup()
from django.test import Client
r = Client().get("/api/", HTTP_ACCEPT=BROWSER, secure=True,
                 HTTP_HOST="zarik.example.org")
print(json.dumps({"status": r.status_code, "type": r["Content-Type"], "body": r.content.decode()[:2000]}))
"""


def _production_answer(**env) -> dict:
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=production_env(DJANGO_SETTINGS_MODULE="zarik.settings", **env))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_production_answers_a_browser_on_the_api_with_json_not_a_csp_breaking_page():
    answer = _production_answer()
    assert answer["status"] == 200
    assert answer["type"].startswith("application/json")
    assert "<style" not in answer["body"] and "<script" not in answer["body"]


@pytest.mark.django_db
def test_in_development_the_browsable_page_has_what_the_csp_blocks(client):
    page = client.get("/api/", HTTP_ACCEPT="text/html")
    assert page["Content-Type"].startswith("text/html")
    assert "style-src 'self'" in page["Content-Security-Policy"]
    html = page.content.decode()
    assert "<style" in html  # an inline style sheet: why production switches the pages off
