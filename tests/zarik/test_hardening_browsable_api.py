"""The API answers JSON only, in every environment (issue 44): DRF's browsable pages broke the CSP
(inline styles and script) and failed axe (html-has-lang, button-name, contrast), so they are off.

Run for real: the settings read as a production server reads them (a subprocess with the
production environment) and as development reads them, a browser's ``Accept: text/html`` on
``/api/``; the documentation (the schema and its Swagger UI) stays.
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
def test_in_development_too_a_browser_on_the_api_reads_json_and_the_docs_stay(client):
    page = client.get("/api/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert page.status_code == 200 and page["Content-Type"].startswith("application/json")
    assert "<style" not in page.content.decode()
    assert client.get("/api/schema/").status_code == 200
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b'<html lang="' in docs.content
