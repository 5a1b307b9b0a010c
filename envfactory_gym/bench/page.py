"""Self-contained HTML pages for benchmark reports and leaderboards: inline CSS and a small sorting script, plots
embedded as data URIs, nothing fetched from the network."""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Iterable, Sequence

STYLE = """
:root{--line:#d8dde3;--muted:#5f6b7a;--head:#f3f5f8;--accent:#1f5fa8}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2530;background:#fff}
main{max-width:1360px;margin:0 auto;padding:16px 20px 48px}
h1{font-size:22px;margin:4px 0 12px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:18px 0 6px}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid var(--line);padding:6px 0;z-index:2;
    display:flex;flex-wrap:wrap;gap:4px 14px;font-size:13px}
nav a{color:var(--accent);text-decoration:none}
p.note{color:var(--muted);font-size:12.5px;max-width:1100px}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:12.5px;margin:4px 0 10px}
th,td{border:1px solid var(--line);padding:3px 7px;text-align:right;white-space:nowrap}
th{background:var(--head)}
td.wrap{white-space:normal;min-width:280px;max-width:560px;text-align:left;overflow-wrap:anywhere}
td:first-child,th:first-child,td.text,th.text{text-align:left}
table.sortable th{cursor:pointer;user-select:none}
table.sortable th[data-order=asc]::after{content:" \\25B2"}table.sortable th[data-order=desc]::after{content:" \\25BC"}
tr.anchor td{color:var(--muted);font-style:italic}
tr.real td{background:#eef6ee;font-weight:600}
dl.settings{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0 0 8px;font-size:13px}
dl.settings dt{color:var(--muted)}dl.settings dd{margin:0;overflow-wrap:anywhere}
.plots{display:flex;flex-wrap:wrap;gap:12px}
figure{margin:0;flex:1 1 560px;max-width:100%}figure img{max-width:100%;height:auto;border:1px solid var(--line)}
figcaption{font-size:12px;color:var(--muted)}
details{margin:4px 0}summary{cursor:pointer;font-weight:600}
pre{white-space:pre-wrap;background:#f7f7f9;border:1px solid var(--line);padding:6px 8px;font-size:12px;margin:4px 0}
"""

SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, index) {
    th.addEventListener("click", function () {
      var ascending = th.getAttribute("data-order") !== "asc";
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("data-order"); });
      th.setAttribute("data-order", ascending ? "asc" : "desc");
      var key = function (row) {
        var text = row.cells[index].getAttribute("data-v") || row.cells[index].textContent;
        var number = parseFloat(text.replace(/[,$%]/g, ""));
        return isNaN(number) ? text : number;
      };
      var rows = Array.prototype.slice.call(table.tBodies[0].rows);
      rows.sort(function (a, b) {
        var x = key(a), y = key(b), order;
        if (typeof x === "number" && typeof y === "number") { order = x - y; }
        else if (typeof x === "number") { order = -1; } else if (typeof y === "number") { order = 1; }
        else { order = x.localeCompare(y); }
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { table.tBodies[0].appendChild(row); });
    });
  });
});
"""


def esc(value: object) -> str:
    """HTML-escaped text of a value."""
    return html.escape(str(value))


WRAP_AFTER = 60  # characters: a longer cell (an error message, a model's text) wraps instead of widening its table


def _cell_class(index: int, value: object, text_columns: int) -> str:
    if len(str(value)) > WRAP_AFTER:
        return " class=wrap"
    return " class=text" if index < text_columns else ""


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    sortable: bool = True,
    row_classes: Iterable[str] | None = None,
    text_columns: int = 1,
) -> str:
    """An HTML table (in a horizontally scrolling box) of escaped cells; the first `text_columns` columns are left
    aligned and cells longer than `WRAP_AFTER` characters wrap; `row_classes` gives each row a class (`anchor`
    for the baselines)."""
    classes = list(row_classes) if row_classes is not None else None
    head = "".join(f"<th{' class=text' if i < text_columns else ''}>{esc(h)}</th>" for i, h in enumerate(headers))
    body = []
    for index, row in enumerate(rows):
        cls = f' class="{esc(classes[index])}"' if classes and classes[index] else ""
        cells = "".join(f"<td{_cell_class(i, c, text_columns)}>{esc(c)}</td>" for i, c in enumerate(row))
        body.append(f"<tr{cls}>{cells}</tr>")
    kind = ' class="sortable"' if sortable else ""
    rows_html = "".join(body)
    return f'<div class="scroll"><table{kind}><thead><tr>{head}</tr></thead><tbody>{rows_html}</tbody></table></div>'


def settings_list(rows: Iterable[tuple[str, str]]) -> str:
    """Settings as a two-column definition list."""
    items = "".join(f"<dt>{esc(name)}</dt><dd>{esc(value)}</dd>" for name, value in rows)
    return f'<dl class="settings">{items}</dl>'


def png_data_uri(path: Path) -> str:
    """A PNG file as a `data:` URI (the page then needs no file beside it)."""
    return "data:image/png;base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")


def figure(path: Path, caption: str) -> str:
    """A plot embedded in the page, with its caption."""
    return (
        f'<figure><img src="{png_data_uri(path)}" alt="{esc(caption)}"><figcaption>{esc(caption)}</figcaption></figure>'
    )


def document(title: str, sections: Sequence[tuple[str, str, str]], intro: str = "") -> str:
    """A whole page: the title, a navigation bar over `sections` (`(anchor id, heading, html)`), the intro and the
    sections; inline style and script only."""
    nav = "".join(f'<a href="#{esc(anchor)}">{esc(heading)}</a>' for anchor, heading, _ in sections)
    body = "".join(
        f'<section id="{esc(anchor)}"><h2>{esc(heading)}</h2>{content}</section>'
        for anchor, heading, content in sections
    )
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{esc(title)}</title>'
        f"<style>{STYLE}</style></head><body><main><h1>{esc(title)}</h1><nav>{nav}</nav>{intro}{body}</main>"
        f"<script>{SCRIPT}</script></body></html>"
    )
