"""``make run HOST=0.0.0.0`` serves the hall's network without Django's debug pages.

Issue 45: the development server on the hall's network answered an unknown address
with the debug 404, which lists every URL pattern of the site to every phone in the
hall. ``bin/run`` (what ``make run`` starts) is run for real on 0.0.0.0 and asked
over the network; on loopback a developer keeps the debug pages.
"""

from __future__ import annotations

import pytest

from tests.zarik.hall_server import EMBEDDED_ONLY, Browser, HallServer

pytestmark = [EMBEDDED_ONLY, pytest.mark.long]

SEED = "from tests.factories import TournamentFactory\nTournamentFactory(slug='hall')"


def test_the_hall_network_gets_the_sites_own_404_and_still_its_static_files(tmp_path):
    with HallServer(tmp_path, SEED, host="0.0.0.0") as server:
        visitor = Browser(server.base)
        missing = visitor.get("/no/such/page/")
        assert missing.status == 404
        assert "URLconf" not in missing.body and "api/tournaments" not in missing.body
        assert "DEBUG = True" not in missing.body
        assert visitor.get("/t/hall/").status == 200
        assert visitor.get("/static/js/zarik.js").status == 200  # --insecure: the pages still work
    assert "no debug pages" in server.log()


def test_loopback_keeps_the_debug_pages_for_the_developer(tmp_path):
    with HallServer(tmp_path, SEED, host="127.0.0.1") as server:
        missing = Browser(server.base).get("/no/such/page/")
        assert missing.status == 404 and "URLconf" in missing.body
