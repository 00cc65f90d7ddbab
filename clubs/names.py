"""Search keys for people's names: Семёнов = Семенов = Semenov = Semyonov = Semjonov.

An organiser types a name the way it comes to mind — in Cyrillic, in the Latin
letters of a passport (ICAO), of Wikipedia, of the Moscow metro or of a library
catalogue (ГОСТ 7.034) — and must find the same player. So every name becomes a
folded Latin *skeleton*: Cyrillic is transliterated by one scheme (iuliia's
Wikipedia scheme) and then the Latin letters are folded so that the differences
between the schemes (and the usual typing variants) disappear:

====================  ===========================  =========================================
step                  example                      why
====================  ===========================  =========================================
lower case, ё → е     Семёнов → семенов            ё is optional in Russian writing
transliterate         семенов → semenov            iuliia WIKIPEDIA (Cyrillic letters only)
strip accents, marks  Semёnov, Ĭ, ʹ, ' → plain     ISO/ALA-style schemes, ГОСТ's ' and ''
č š ž → ch sh zh      Ščukin → shchukin            scientific and UNGEGN schemes
shch, sch, shh → sh   Shchukin, Schukin, Shhukin   щ in Wikipedia, Mosmetro, ГОСТ 7.034
kh, x → h             Khaykin, Xajkin → hajkin     х; a Latin x is read as х, not "ks"
ts, tz, tc → c        Tsyganov, Cyganov → c        ц (tc: ГОСТ Р 52535)
w → v, ph → f         Semjonow, Iosiph             German and old English spellings
y, j → i; ii → i      Yury, Jurij → iuri           й, ы and the iotation of е ё ю я
io → e                Semionov → semenov           ё written yo/jo after y, j → i
i before a vowel: —   iuri → uri, mariia → maria   я ю е as ia/iu/ie, ya/yu/ye, ja/ju/je
double letters once   Kirill, Iurii → kiril, uri   typing variants and ий/ii endings
====================  ===========================  =========================================

The key is lossy on purpose (Мария and Мара share one); it finds candidates, and
the organiser picks the person. Known limits, rare in names: ICAO writes ъ as
"ie" (Подъячев → Podieiachev), and Wikipedia writes ьо as "yo" (Бульон → Bulyon)
where other schemes drop the soft sign; those spellings fold a letter apart.

The words of a player's Cyrillic and Latin names all go into one key
(:func:`player_key`), so a search by either finds the player.
"""

from __future__ import annotations

import re
import unicodedata

import iuliia

SCHEME = iuliia.WIKIPEDIA

#: Latin folds, applied in this order (each a regular expression and its replacement).
FOLDS: tuple[tuple[str, str], ...] = (
    (r"shch|sch|shh", "sh"),
    (r"kh|x", "h"),
    (r"ts|tz|tc", "c"),
    (r"w", "v"),
    (r"ph", "f"),
    (r"[yj]+", "i"),
    (r"i{2,}", "i"),
    (r"io", "e"),
    (r"i(?=[aeou])", ""),
    (r"(.)\1+", r"\1"),
)
_FOLDS = tuple((re.compile(pattern), repl) for pattern, repl in FOLDS)
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_NOT_LETTERS = re.compile(r"[^a-z]+")
#: Letters with a caron (ISO 9, UNGEGN, scientific) spelled as the digraphs the folds know.
_CARONS = str.maketrans({"č": "ch", "š": "sh", "ž": "zh", "ŝ": "sh"})
_MARKS = re.compile(r"[\u02b9\u02ba\u2019\u201d\u00b7'\"`]")  # ʹ ʺ ’ ” · ' " `: signs and separators of schemes

MAX_LENGTH = 250  # Player.search_key


#: Characters that draw nothing in a name and are removed from it (see :func:`clean_name`):
#: Unicode's format characters (category Cf) — zero-width space, joiners, word joiner,
#: byte-order mark, soft hyphen, the bidi embeddings, overrides, isolates and marks
#: (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C) — and the C0/C1 controls.
INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc"})


def clean_name(text: str) -> str:
    """A person's name as it is stored, compared and printed: the one rule for every way in.

    NFC (a letter typed as one code point and as a letter plus a combining mark are one
    spelling: «й» = «й»); every invisible format or control character removed; runs
    of white space (tabs, no-break spaces, line breaks) one space; the ends trimmed.

    The invisible characters are *removed*, not refused: a person cannot see them to take
    them out (they come with text copied from messengers, PDFs and web pages), and none
    belongs in a name written in Cyrillic or Latin letters. Removing them is what keeps
    «Смир\u200bнов» from standing beside «Смирнов» as a second, identical-looking player,
    and keeps an unterminated U+202E from reversing the rest of a table's cell (issue 45).
    A name of invisible characters only becomes empty and is refused as a missing name.
    """
    return " ".join(strip_invisible(unicodedata.normalize("NFC", text or "")).split())


def strip_invisible(text: str) -> str:
    """``text`` without its invisible format and control characters; white space kept.

    The part of :func:`clean_name` that any cell of a table may need (a workbook's cells
    carry no bidi override, whatever wrote the text). A text that is all printable has none
    of them (``str.isprintable`` is False for every format and control character) and is
    returned as it is, checked in C: a 100,000-player workbook passes millions of cells here.
    """
    if text.isprintable():
        return text
    return "".join(ch for ch in text if ch.isspace() or unicodedata.category(ch) not in INVISIBLE_CATEGORIES)


def fold_word(word: str) -> str:
    """The skeleton of one Latin word (already lower case, letters a–z only)."""
    for pattern, repl in _FOLDS:
        word = pattern.sub(repl, word)
    return word


def to_latin(text: str) -> str:
    """Lower case, ё → е, Cyrillic transliterated, accents and sign marks removed."""
    text = clean_name(text).lower().replace("ё", "е")
    if _CYRILLIC.search(text):
        text = SCHEME.translate(text).lower()
    text = _MARKS.sub("", text).translate(_CARONS)
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch))


def words(text: str) -> list[str]:
    """The folded words of ``text``, in order (hyphens and punctuation separate words)."""
    return [w for w in (fold_word(w) for w in _NOT_LETTERS.split(to_latin(text))) if w]


def search_key(text: str) -> str:
    """The folded skeleton of a name or a query: its folded words joined by spaces."""
    return " ".join(words(text))


def player_key(*names: str) -> str:
    """One key for all the forms of a person's name: each folded word once, in order of appearance."""
    seen: dict[str, None] = {}
    for name in names:
        for word in words(name or ""):
            seen.setdefault(word, None)
    return " ".join(seen)[:MAX_LENGTH]


def greeting_name(last: str, first: str, last_latin: str = "", first_latin: str = "", language: str = "ru") -> str:
    """The name a letter addresses its reader by, in the reader's language.

    Russian keeps the order of the records («Смирнов Иван», as the book lists players) for a
    name in Cyrillic; a name written only in Latin letters is a foreign name and keeps its own
    order, given name first («Здравствуйте, John Smith!»). English puts the given name first
    ("Hello, John Smith!") in Latin letters: the player's Latin spelling when there is one, else
    the Cyrillic name transliterated by the search's scheme (:data:`SCHEME`: Артём → Artyom) —
    an English reader gets neither "Smith John" nor "Hello, Артём Федоров!" (issue 49).
    """
    if language.startswith("en"):
        if last_latin.strip():
            last, first = last_latin, first_latin
        name = f"{first.strip()} {last.strip()}".strip()
        return SCHEME.translate(name) if _CYRILLIC.search(name) else name
    if not _CYRILLIC.search(f"{last}{first}"):
        return f"{first.strip()} {last.strip()}".strip()
    return f"{last.strip()} {first.strip()}".strip()
