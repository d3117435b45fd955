"""`kikimimi report GAME`: one self-contained, accessible HTML page from real bot games."""
from __future__ import annotations

import base64
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from kikimimi.cli import main

pytestmark = pytest.mark.extra("report")  # the page's pictures are drawn with matplotlib


class Page(HTMLParser):
    """The parts of the page an accessibility check reads: images, tables, headings."""

    def __init__(self) -> None:
        super().__init__()
        self.lang: str | None = None
        self.images: list[dict[str, str | None]] = []
        self.tables = 0
        self.captions = 0
        self.headings: list[int] = []
        self.th_scopes: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        elif tag == "img":
            self.images.append(a)
        elif tag == "table":
            self.tables += 1
        elif tag == "caption":
            self.captions += 1
        elif tag == "th":
            self.th_scopes.append(a.get("scope"))
        elif re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))


def report(tmp_path: Path, *args: str) -> str:
    out = tmp_path / "r.html"
    assert main(["report", *args, "--seed", "3", "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def test_the_page_is_whole_and_every_plot_has_its_words(tmp_path: Path) -> None:
    text = report(tmp_path, "trident", "--games", "8", "--players", "3,4")
    page = Page()
    page.feed(text)
    assert page.lang == "en"
    assert page.headings[0] == 1 and all(b - a <= 1 for a, b in zip(page.headings, page.headings[1:]))
    assert page.images and all(len(str(img.get("alt") or "")) > 40 for img in page.images)
    for img in page.images:  # inline PNGs, nothing fetched
        src = str(img["src"])
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert page.tables == page.captions and page.tables >= len(page.images)
    assert page.th_scopes and all(s in ("col", "row") for s in page.th_scopes)
    assert "<pre><code>kikimimi report trident --games 8 --seed 3 --players 3,4 -o" in text
    assert "http://" not in text and "https://" not in text
    # the Trident's first player rotates with the seed: edges are turn-order places
    assert "place 1 in turn order" in text and "table minutes" in text.lower()
    assert "3 players, seat 1<" in text  # the chairs beside the places, each by its own word
    assert "who begins rotates with the seed" in text


def test_arms_give_the_comparison_sections(tmp_path: Path) -> None:
    text = report(tmp_path, "witch", "--games", "6", "--players", "6", "--versus", "plain,reason",
                  "--detect", "5")
    for heading in ("Each role&#x27;s win and survival", "Arms compared", "How far the balance depends",
                    "Games needed to see a 5-point change", "How often each rule fires"):
        assert heading in text
    # islanders and witches are each other's answer when nobody else can win: one question to Holm
    assert "left out as the others&#x27; answer again: witches win" in text
    # a team game's comebacks (won from behind at a day's end): a plot with its words and each side's share
    assert 'alt="Comeback rates with 95 % intervals: plain, 6 players' in text
    assert "comebacks among each side&#x27;s wins" in text and "islanders: " in text


@pytest.mark.parametrize("args, message", [
    (["trident", "--players", "3,x"], "--players"),
    (["trident", "--players", "99"], "not 99"),
    (["trident", "--workers", "0"], "--workers"),
    (["witch", "--versus", "plain,reason", "--baseline", "nobody"], "no such arm"),
    (["witch", "--detect", "0"], "--detect"),
    (["witch", "--option", "allowance=abc"], "allowance must be a whole number"),
    (["witch", "-o", "/nonexistent-folder/r.html"], "no such folder"),
    (["witch", "--games", "2000000"], "--games"),
    (["witch", "--variant", "seed=1,2,3,4,5,6,7,8,9,10", "--variant", "allowance=1,2,3,4,5,6,7,8,9,10",
      "--games", "100000"], "more than 5,000,000 games"),
])
def test_a_wrong_ask_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                 message: str) -> None:
    assert main(["report", "--games", "2", "-o", str(tmp_path / "r.html"), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "Traceback" not in err[0]


def test_two_varied_options_give_their_interaction_and_every_pair(tmp_path: Path) -> None:
    text = report(tmp_path, "witch", "--games", "3", "--players", "6", "--variant", "seed=0,1",
                  "--variant", "allowance=180,120", "--baseline", "all")
    assert "Interaction of seed and allowance" in text and "Interaction contrast of seed × allowance" in text
    assert "Every pair of arms" in text
    # 4 arms: 6 pairs, each on the islanders' win and the minutes (the witches' win left out) = 12 questions
    assert "runs over 12 independent questions" in text
    assert "seed=1 allowance=120 − seed=1 allowance=180" in text


def test_sim_compares_against_a_named_baseline_or_every_pair(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "trident", "--games", "4", "--versus", "human,random", "--baseline", "random"]) == 0
    out = capsys.readouterr().out
    assert "   − random: " in out and "each way against random" in out and "− human:" not in out
    assert main(["sim", "trident", "--games", "4", "--variant", "scoring=normal,competition",
                 "--versus", "human,random", "--baseline", "all"]) == 0
    out = capsys.readouterr().out
    # 6 pairs × (seats 1 and 2, places 1 and 2 in turn order, and the minutes: seat 3 and place 3
    # are the others' answers again) = 30 questions
    assert "every pair of ways" in out and "over 30 comparisons" in out and "place 1 wins:" in out
    assert main(["sim", "trident", "--games", "2", "--baseline", "all"]) == 2
