"""The links page's copy button (issue 44): our own static JS under the strict CSP puts the link on
the clipboard and says so, in English and Russian, on a phone."""

from __future__ import annotations

import pytest

from tests.browser.test_accessibility_browser import _login
from tests.browser.test_accessibility_browser import site as site  # noqa: F401 (the fixture)
from tournaments.models import Tournament
from zarik.management.demo import SWISS_SLUG

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("lang", "copied"), [("en", "Copied"), ("ru", "Скопировано")])
def test_the_copy_button_puts_the_link_on_the_clipboard(chromium, site, lang, copied):  # noqa: F811
    from playwright.sync_api import expect  # noqa: PLC0415 (as conftest: only where a browser runs)

    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
        locale="ru-RU" if lang == "ru" else "en-GB", extra_http_headers={"Accept-Language": lang},
    )  # fmt: skip
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    page = _login(context, site, "organiser")
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{site}/t/{SWISS_SLUG}/manage/links/")
    entry = Tournament.objects.get(slug=SWISS_SLUG).entries.order_by("draw_number", "pk").first()
    button = page.locator(f"button[data-copy='link-{entry.pk}']")
    link = page.input_value(f"#link-{entry.pk}")
    label = button.inner_text()
    button.click()
    expect(button).to_have_text(copied)
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert link.endswith("/") and "/p/" in link
    expect(button).to_have_text(label, timeout=5000)  # back to its own words after a moment
    with page.expect_response(lambda r: r.url.endswith("/qr.svg") and r.status == 200):
        page.click(f"#entry-{entry.pk} details.qr-box > summary")  # the QR code on request
    image = page.locator(f"#entry-{entry.pk} details.qr-box img")
    expect(image).to_be_visible()
    assert image.evaluate("img => img.complete && img.naturalWidth > 0")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not violations, violations
    context.close()
