"""Every word the pages show exists in English and in Japanese, like every line the table speaks."""
from __future__ import annotations

import json
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "kikimimi" / "web" / "static"


def _strings() -> dict[str, dict[str, str]]:
    text = (STATIC / "strings.js").read_text(encoding="utf-8")
    body = text[text.index("window.KIKIMIMI_STRINGS = ") + len("window.KIKIMIMI_STRINGS = "):text.rindex(";")]
    return json.loads(body)


def test_both_languages_have_every_key_the_pages_use():
    strings = _strings()
    assert set(strings) == {"en", "ja"}
    assert set(strings["en"]) == set(strings["ja"])
    used = set()
    for page in STATIC.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        used |= set(re.findall(r'data-i18n="([^"]+)"', html))
        assert '<html lang="en">' in html and 'name="viewport"' in html, page.name
        assert "<script>" not in html, f"{page.name}: an inline script breaks the page's CSP"
        assert not re.search(r"\son[a-z]+=", html), f"{page.name}: inline handlers break the page's CSP"
    used |= set(re.findall(r'\bt\("([^"]+)"\)', (STATIC / "app.js").read_text(encoding="utf-8")))
    assert used and used <= set(strings["en"]), sorted(used - set(strings["en"]))
    assert all(strings["ja"][k] and strings["ja"][k] != strings["en"][k] for k in used if k != "ok")
