"""The report's parts as plain data, and the HTML they become.

A section is headed prose, tables and figures; a figure is a PNG with its alt
text and always the table of the figures it draws, so a screen reader is told
the same facts a sighted designer reads off the picture.  The page is one
self-contained file (the PNGs inlined as base64), in the language it declares,
with headings in order, and tables with captions and header cells scoped to
their rows and columns.
"""
from __future__ import annotations

import base64
import csv
import html
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Table:
    caption: str
    header: Sequence[str]
    rows: Sequence[Sequence[str]]  # each row's first cell is its header cell


@dataclass(frozen=True)
class Figure:
    #: The PNG, or how to draw it: a picture is drawn when the page is put together,
    #: by whichever process is free (build.make), or here by `render`.
    png: bytes | Callable[[], bytes]
    alt: str
    caption: str
    table: Table


@dataclass
class Section:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    parts: list[Table | Figure] = field(default_factory=list)


STYLE = """
body { font-family: system-ui, sans-serif; max-width: 70rem; margin: 1rem auto; padding: 0 1rem;
       color: #111; background: #fff; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { border: 1px solid #888; padding: 0.2rem 0.5rem; text-align: right; }
th[scope=row], thead th { text-align: left; background: #eee; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #ccc; }
figcaption { font-style: italic; }
code, pre { background: #f4f4f4; padding: 0.1rem 0.3rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }  /* wrapped, not a scroll box a keyboard cannot reach */
"""


def _table(t: Table) -> str:
    e = html.escape
    head = "".join(f'<th scope="col">{e(h)}</th>' for h in t.header)
    body = "".join("<tr>" + (f'<th scope="row">{e(r[0])}</th>' if r else "")
                   + "".join(f"<td>{e(c)}</td>" for c in r[1:]) + "</tr>\n" for r in t.rows)
    return (f"<table>\n<caption>{e(t.caption)}</caption>\n<thead><tr>{head}</tr></thead>\n"
            f"<tbody>\n{body}</tbody>\n</table>\n")


def _figure(f: Figure) -> str:
    e = html.escape
    data = base64.b64encode(f.png() if callable(f.png) else f.png).decode("ascii")
    return (f'<figure>\n<img src="data:image/png;base64,{data}" alt="{e(f.alt, quote=True)}">\n'
            f"<figcaption>{e(f.caption)}</figcaption>\n</figure>\n{_table(f.table)}")


def render(title: str, intro: Sequence[str], sections: Sequence[Section], command: str = "") -> str:
    """The whole page (see the module's docstring); `command`, the one that reproduces it."""
    e = html.escape
    out = ['<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
           f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{e(title)}</title>\n',
           f"<style>{STYLE}</style>\n</head>\n<body>\n<main>\n<h1>{e(title)}</h1>\n"]
    out += [f"<p>{e(p)}</p>\n" for p in intro]
    if command:
        out.append(f"<p>To reproduce it exactly:</p>\n<pre><code>{e(command)}</code></pre>\n")
    nav = "".join(f'<li><a href="#s{i}">{e(s.title)}</a></li>' for i, s in enumerate(sections, 1))
    out.append(f'<nav aria-label="Contents"><h2>Contents</h2><ol>{nav}</ol></nav>\n')
    for i, s in enumerate(sections, 1):
        out.append(f'<section aria-labelledby="s{i}">\n<h2 id="s{i}">{e(s.title)}</h2>\n')
        out += [f"<p>{e(p)}</p>\n" for p in s.paragraphs]
        out += [_figure(p) if isinstance(p, Figure) else _table(p) for p in s.parts]
        out.append("</section>\n")
    out.append("</main>\n</body>\n</html>\n")
    return "".join(out)


def tables_of(sections: Sequence[Section]) -> list[dict[str, object]]:
    """Every table of the page as plain data, in the page's order (a figure's table too), for a
    spreadsheet or a script: {"section", "caption", "header", "rows"}."""
    out: list[dict[str, object]] = []
    for s in sections:
        for part in s.parts:
            t = part.table if isinstance(part, Figure) else part
            out.append({"section": s.title, "caption": t.caption, "header": list(t.header),
                        "rows": [list(r) for r in t.rows]})
    return out


def tables_json(tables: Sequence[dict[str, object]], command: str) -> str:
    return json.dumps({"command": command, "tables": list(tables)}, ensure_ascii=False, indent=1) + "\n"


def tables_csv(tables: Sequence[dict[str, object]]) -> str:
    """Every table one after another: its section and caption on a line, its header, its rows,
    and a blank line (one file a spreadsheet opens whole)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for t in tables:
        w.writerow([f"{t['section']}: {t['caption']}"])
        w.writerow(t["header"])  # type: ignore[arg-type]
        w.writerows(t["rows"])  # type: ignore[arg-type]
        w.writerow([])
    return buf.getvalue()
