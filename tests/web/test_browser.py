"""The web console in a real browser: Debian's Chromium driven by Playwright, against a served bot game.

A phone-sized page pairs with a code from the box, then referees: pause,
resume, undo of the bots' latest move (asked, then confirmed from the
keyboard), a stand-in scan and a stop; a second phone pairs as the owner and
reads the doctor's findings.  Every page is checked by axe-core (no
violation at all) and photographed at phone size into the test's folder.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is part of the test extra")

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}


def _need(thing: Path | None, why: str) -> None:
    if thing is None or not Path(thing).exists():
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def _axe_clean(page, axe: str) -> None:
    page.evaluate(axe)  # through the driver, so the page's own CSP (script-src 'self') stays on
    violations = page.evaluate("""async () => (await axe.run(document, {resultTypes: ["violations"]}))
        .violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(" "))}))""")
    assert violations == [], violations
    # phone first: nothing wider than the phone's screen (no sideways scrolling)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), page.url


def test_a_phone_pairs_and_referees_and_the_owner_reads_the_doctor(serve_table, tmp_path):
    chromium = shutil.which("chromium")
    _need(Path(chromium) if chromium else None, "chromium is not installed (scripts/setup --test installs it)")
    _need(AXE, "axe-core is not installed (scripts/setup --test installs it)")
    axe = AXE.read_text(encoding="utf-8")
    served = serve_table("trident", 1, 3)
    daemon = served.host.daemon
    base = served.web.urls[0]
    shots = tmp_path / "screenshots"
    shots.mkdir()
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS)
        try:
            phone = browser.new_context(viewport=PHONE, ignore_https_errors=True, device_scale_factor=2,
                                        is_mobile=True, has_touch=True)
            page = phone.new_page()
            page.set_default_timeout(20000)

            page.goto(base + "/")
            page.wait_for_function("() => document.querySelectorAll('#log p').length > 0")
            _axe_clean(page, axe)
            page.screenshot(path=str(shots / "audience.png"), full_page=True)

            page.goto(base + "/referee")
            page.wait_for_url(base + "/pair")  # not paired yet: sent to pairing
            _axe_clean(page, axe)
            page.screenshot(path=str(shots / "pair.png"))
            page.fill("#code", served.store.new_code("referee"))
            page.press("#code", "Enter")
            page.wait_for_url(base + "/referee")
            page.wait_for_function("() => document.querySelectorAll('#log p').length > 0")
            assert page.get_attribute("#log", "aria-live") == "polite"
            _axe_clean(page, axe)

            def reply(expected: str) -> str:
                page.wait_for_function("want => document.getElementById('reply').textContent.includes(want)",
                                       arg=expected)
                return page.text_content("#reply") or ""

            page.click("#pause")
            reply("pause: done")
            page.click("#resume")
            reply("resume: done")
            assert [item.get("console") for _, item in daemon.lines[-2:]] == ["pause", "resume"]

            for _ in range(3):  # the bots play on; the referee takes their latest move back
                served.host.step()
            latest = daemon.last_input()[0]
            page.wait_for_function("n => document.getElementById('last').textContent.startsWith(n + ':')",
                                   arg=latest)
            page.focus("#undo")
            page.keyboard.press("Enter")
            page.wait_for_selector("#undo-yes", state="visible")
            page.keyboard.press("Enter")  # the confirmation has the focus
            reply("undo: done")
            assert daemon.log[-1]["type"] == "undo" or any(ev["type"] == "undo" for ev in daemon.log[-5:])

            with daemon.lock:
                proposed = served.host.simulation.next_input()
            assert proposed and proposed.get("reader") == "hand", proposed
            page.fill("#scan-seat", str(proposed["seat"]))
            page.fill("#scan-tag", str(proposed["tag"]))
            page.click("#scan-button")
            reply("done")
            assert daemon.lines[-1][1] == {"console": f"scan {proposed['seat']} {proposed['tag']}", "t": daemon.lines[-1][1]["t"]}
            page.wait_for_function("() => document.getElementById('log').textContent.length > 0")
            assert "dealing -> opening" in (page.text_content("#order") or "")  # the game's phase order
            page.screenshot(path=str(shots / "referee.png"), full_page=True)

            page.click("#stop")
            reply("stop: done")
            assert daemon.table.game.over
            page.wait_for_function("() => document.getElementById('status').textContent.includes('over')")
            page.click("#new")  # the next game at this table
            reply("new: done")
            assert not daemon.table.game.over and daemon.log[0]["seq"] == 1  # a fresh game began

            owner_phone = browser.new_context(viewport=PHONE, ignore_https_errors=True, is_mobile=True,
                                              has_touch=True)
            owner = owner_phone.new_page()
            owner.set_default_timeout(30000)
            owner.goto(base + "/pair")
            owner.fill("#code", served.store.new_code("owner"))
            owner.click("#pair-button")
            owner.wait_for_url(base + "/owner")
            owner.wait_for_function("() => document.querySelectorAll('#doctor tbody tr').length > 0")
            owner.wait_for_function("() => document.querySelectorAll('#devices tbody tr').length == 2")
            _axe_clean(owner, axe)
            owner.select_option("#hear-output", "seat-2")  # each output's test, said by the table's outputs
            owner.click("#hear-button")
            owner.wait_for_function("() => document.getElementById('reply').textContent === 'said: Seat 2.'")
            assert owner.text_content("#fingerprint") == served.web.fingerprint
            owner.screenshot(path=str(shots / "owner.png"), full_page=True)
        finally:
            browser.close()
    for name in ("audience", "pair", "referee", "owner"):
        assert (shots / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_audience_page_during_a_hidden_role_game_shows_only_what_was_said_aloud(serve_table, tmp_path):
    """A Japanese table: the page speaks the table's language too."""
    chromium = shutil.which("chromium")
    _need(Path(chromium) if chromium else None, "chromium is not installed (scripts/setup --test installs it)")
    _need(AXE, "axe-core is not installed (scripts/setup --test installs it)")
    served = serve_table("witch", 5, 6, lang="ja")
    plain = served.web.urls[1]  # the audience's plain HTTP server, as on the club's Wi-Fi
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS)
        try:
            page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
            page.set_default_timeout(20000)
            page.goto(plain + "/")
            page.wait_for_function("() => document.documentElement.lang === 'ja'")
            assert page.text_content("h1") == "卓"
            while served.host.step():
                pass
            page.wait_for_function("() => document.getElementById('status').textContent.includes('終わりました')")
            shown = page.text_content("#log") or ""
            _axe_clean(page, AXE.read_text(encoding="utf-8"))
            page.screenshot(path=str(tmp_path / "audience-witch.png"), full_page=True)
        finally:
            browser.close()
    from kikimimi.table.public import public_view

    log = served.host.daemon.log
    said = [ev["text"] for ev in public_view(log) if ev.get("type") == "say"]
    assert said and said[-1] in shown
    whispered = [ev["text"] for ev in log if str(ev.get("to", "")).startswith("seat:")
                 and not any(ev["text"] in line for line in said)]
    assert whispered and not [w for w in whispered if w in shown]
    assert "ear]" not in shown and "(private)" not in shown


def test_the_referee_plays_the_next_game_with_other_options_from_the_form(evening_table, tmp_path):
    """The form is built from the game's option schema; a bad value is refused in one line
    (nothing changes), then the next game starts with the changed options and says them."""
    chromium = shutil.which("chromium")
    _need(Path(chromium) if chromium else None, "chromium is not installed (scripts/setup --test installs it)")
    _need(AXE, "axe-core is not installed (scripts/setup --test installs it)")
    served = evening_table
    daemon = served.host.daemon
    base = served.web.urls[0]
    while served.host.step():
        pass
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS)
        try:
            page = browser.new_context(viewport=PHONE, ignore_https_errors=True, is_mobile=True,
                                       has_touch=True).new_page()
            page.set_default_timeout(20000)
            page.goto(base + "/pair")
            page.fill("#code", served.store.new_code("referee"))
            page.press("#code", "Enter")
            page.wait_for_url(base + "/referee")
            page.wait_for_function("() => document.getElementById('status').textContent.includes('over')")
            page.wait_for_selector("#game-name option[value=onisagashi]", state="attached")
            page.select_option("#game-name", "onisagashi")
            assert page.is_visible("#game-options")
            assert page.input_value("#opt-raise_window") == "2"  # the table file's value
            assert page.eval_on_selector_all("#opt-rules option", "os => os.map(o => o.value)") == [
                "beginner", "advanced"]
            assert page.get_attribute("#opt-players", "min") == "3"
            _axe_clean(page, AXE.read_text(encoding="utf-8"))

            page.fill("#opt-rounds", "0")
            page.click("#game-button")
            page.wait_for_function("() => document.getElementById('reply').textContent.includes('rounds')")
            assert "rounds must be a whole number of at least 1, not 0" in (page.text_content("#reply") or "")
            assert daemon.header.game == "trident"

            page.fill("#opt-rounds", "1")
            page.fill("#opt-players", "3")
            page.select_option("#opt-rules", "advanced")
            page.click("#game-button")
            page.wait_for_function("() => document.getElementById('game').textContent.includes('onisagashi')")
            shown = page.text_content("#game") or ""
            assert 'rules="advanced"' in shown and "rounds=1" in shown and "Players 3" in shown, shown
            assert (daemon.header.game, daemon.header.players) == ("onisagashi", 3)
            assert daemon.header.options == {"raise_window": 2.0, "rounds": 1, "rules": "advanced"}
            page.screenshot(path=str(tmp_path / "next-game.png"), full_page=True)
        finally:
            browser.close()
