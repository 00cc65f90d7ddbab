"""``{% help "topic" %}``: the "?" beside a heading, opening its section of the manual in the reader's language.

``{% help_url %}`` is the manual's start page (the footer's link). Topics are rows of
:data:`zarik.help.TOPICS`.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

from zarik.help import help_url

register = template.Library()


@register.simple_tag(name="help")
def help_link(topic: str) -> str:
    return format_html(
        '<a class="help-link" href="{}" title="{}" aria-label="{}">?</a>',
        help_url(topic), gettext("Help on this page"), gettext("Help on this page"),
    )


@register.simple_tag(name="help_url")
def manual_url() -> str:
    return help_url()
