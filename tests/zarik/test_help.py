"""Issue 48: the user manual at /help/ — served by the app from its build, linked from every page's
footer and from the pages it explains ("?"), in the reader's language, under the strict CSP.

These run in both CI passes on a small built tree of their own; the real manual is built (in
strict mode, with its screenshots) and walked in chromium by tests/browser/test_manual_browser.py.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from django.test import Client

from zarik.help import LANGUAGE_PREFIX, TOPICS, help_url

ROOT = Path(__file__).resolve().parents[2]
MANUAL = ROOT / "docs" / "manual"
HELP_TAG = re.compile(r"""{%\s*help\s+["']([^"']+)["']\s*%}""")


def _load_hook(name: str):
    spec = importlib.util.spec_from_file_location(f"docs_hook_{name}", ROOT / "docs" / "hooks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def built(tmp_path, settings):
    """A manual as `make docs` lays it out: Russian at the root, English under en/."""
    for prefix in ("", "en/"):
        page = tmp_path / prefix / "referee" / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f'<h2 id="desk">{prefix or "ru"} desk</h2>', encoding="utf-8")
        (tmp_path / prefix / "index.html").write_text(f"<h1>{prefix or 'ru'} start</h1>", encoding="utf-8")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "bundle.js").write_text("console.log(1)", encoding="utf-8")
    settings.HELP_ROOT = tmp_path
    return tmp_path


def test_the_manual_is_served_at_help_in_both_languages_with_the_pages_csp(built):
    client = Client()
    start = client.get("/help/")
    assert start.status_code == 200
    assert b"ru start" in b"".join(start.streaming_content)
    assert start["Content-Type"] == "text/html; charset=utf-8"
    assert "script-src 'self'" in start["Content-Security-Policy"]
    assert "unsafe-inline" not in start["Content-Security-Policy"]
    english = client.get("/help/en/referee/")
    assert english.status_code == 200 and b"en/ desk" in b"".join(english.streaming_content)
    script = client.get("/help/assets/bundle.js")
    assert script.status_code == 200 and script["Content-Type"].startswith(("text/javascript", "application/javascript"))


def test_the_themes_sitemap_request_beside_a_pages_translation_gets_the_one_sitemap(built):
    (built / "sitemap.xml").write_text("<urlset/>", encoding="utf-8")
    answer = Client().get("/help/en/referee/sitemap.xml")
    assert answer.status_code == 200 and b"".join(answer.streaming_content) == b"<urlset/>"


def test_a_folder_without_its_slash_is_redirected_so_relative_links_work(built):
    answer = Client().get("/help/en/referee")
    assert answer.status_code == 302 and answer["Location"] == "/help/en/referee/"


@pytest.mark.parametrize("path", ["/help/../README.md", "/help/%2e%2e/manage.py", "/help/en/../../zarik/settings.py",
                                  "/help/nowhere/", "/help/assets/"])
def test_nothing_outside_the_build_nor_a_missing_page_is_served(built, path):
    assert Client().get(path).status_code == 404


def test_a_server_without_the_built_manual_says_how_to_build_it(tmp_path, settings):
    settings.HELP_ROOT = tmp_path / "not-built"
    answer = Client(HTTP_ACCEPT_LANGUAGE="en").get("/help/")
    assert answer.status_code == 404
    assert "make docs" in answer.content.decode()
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/help/").content.decode()
    assert "Руководство" in russian and "make docs" in russian


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "manual"), [("ru", 'href="/help/"'), ("en", 'href="/help/en/"')])
def test_every_pages_footer_links_the_manual_in_the_readers_language(language, manual):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/").content.decode()
    footer = page[page.index("<footer"):]
    assert manual in footer


def test_every_question_mark_in_the_templates_names_a_topic_of_the_table():
    used = {topic for path in (ROOT / "templates").rglob("*.html") for topic in HELP_TAG.findall(path.read_text())}
    assert used, "no page links its section of the manual"
    assert used <= set(TOPICS), sorted(used - set(TOPICS))
    assert set(TOPICS) <= used, f"topics no page links: {sorted(set(TOPICS) - used)}"


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_topic_is_a_heading_with_that_id_on_its_page_in_both_languages(language):
    """The "?" links use the same anchor in both languages, so each page's headings carry explicit ids."""
    for name, topic in TOPICS.items():
        source = MANUAL / language / (topic.page.rstrip("/") + ".md")
        if not source.exists():
            source = MANUAL / language / topic.page / "index.md"
        text = source.read_text(encoding="utf-8")
        assert re.search(rf"^#+ .*{{#{re.escape(topic.anchor)}}}\s*$", text, flags=re.M), (name, language, source)
        assert help_url(name, language) == f"/help/{LANGUAGE_PREFIX[language]}{topic.page}#{topic.anchor}"


def test_the_manuals_pages_are_the_same_in_both_languages():
    russian = sorted(p.relative_to(MANUAL / "ru") for p in (MANUAL / "ru").rglob("*.md"))
    english = sorted(p.relative_to(MANUAL / "en") for p in (MANUAL / "en").rglob("*.md"))
    assert russian == english and len(russian) >= 15


def test_the_build_moves_the_themes_inline_scripts_into_files_and_keeps_data_blocks():
    csp = _load_hook("csp")
    page = ('<head><script>__md_scope=new URL("../..",location)</script></head>'
            '<script id="__config" type="application/json">{"base": ".."}</script>'
            '<script src="../../assets/bundle.js"></script>')
    html = csp.externalise(page, "en/referee/")
    assert "__md_scope" not in html and '<script src="../../assets/javascripts/inline/' in html
    assert '<script id="__config" type="application/json">' in html
    assert csp.inline_code(html) == []
    assert csp.externalise(page, "")  # the start page's scripts sit under assets/ directly
    assert '<script src="assets/javascripts/inline/' in csp.externalise(page, "")


@pytest.mark.parametrize("blocked", ['<p style="color:red">x</p>', "<style>p{}</style>",
                                     '<a href="#" onclick="go()">x</a>'])
def test_the_build_fails_on_inline_code_the_csp_would_block(blocked):
    assert _load_hook("csp").inline_code(blocked)


def test_make_docs_builds_strictly_and_never_quietly():
    """mkdocs counts warnings for --strict through its log; --quiet drops them before they are
    counted, so `--strict --quiet` passed a manual with 70 missing pictures (found in issue 48)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("\ndocs: "):].split("\n\n")[0]
    build = [line for line in recipe.splitlines() if "mkdocs build" in line]
    assert build and all("--strict" in line and "--quiet" not in line and " -q" not in line for line in build), build
