"""Cleaning of untrusted text: what is removed, what is kept, and that cleaning is idempotent."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from chatbot.untrusted import clean_patch, clean_text

UNSAFE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff\ud800-\udfff]"
)


def test_controls_bidi_and_zero_width_characters_are_removed():
    assert clean_text("a\x00b\x07c\x1b[2Jd\u202eevil\u202c\u200bz\x9b") == "abc[2Jdevilz"


def test_line_breaks_tabs_and_scripts_are_kept():
    text = "第一行\r\n第二行\tcol\rlast 👨\u200d👩\u200d👧 مرحبا"
    assert clean_text(text) == "第一行\n第二行\tcol\nlast 👨\u200d👩\u200d👧 مرحبا"


def test_a_lone_surrogate_becomes_a_replacement_character():
    assert clean_text("a\ud800b") == "a\ufffdb"


def test_a_patch_keeps_its_characters_but_nul():
    assert clean_patch("+x = '\x1b\u202e'\x00") == "+x = '\x1b\u202e'\ufffd"


@given(st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF)))
def test_cleaned_text_holds_nothing_unsafe_and_cleaning_again_changes_nothing(text: str):
    cleaned = clean_text(text)
    assert not UNSAFE.search(cleaned)
    assert clean_text(cleaned) == cleaned
