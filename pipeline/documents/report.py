"""The review report: one self-contained HTML file for a supervisor.

Every test of the petition with its paragraph and verdict, every deficiency,
the town parts and the filing plan, the counts of parcels and signatures, the
warnings, and the map (embedded as a base64 PNG). All text is escaped with
:func:`html.escape`; nothing is loaded from outside the file.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline.documents._common import dollars, percent, rate, write_bytes
from pipeline.tools.numbers import percent_text

__all__ = ["render_report", "write_report"]

_CSS = """
body{font-family:Georgia,serif;max-width:60em;margin:2em auto;color:#222;line-height:1.4}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;border-bottom:1px solid #ccc;
margin-top:1.6em}table{border-collapse:collapse;margin:.6em 0;font-size:.92em}
td,th{border:1px solid #bbb;padding:.25em .6em;vertical-align:top}
th{background:#eee;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}.pass{color:#1b5e20;font-weight:bold}
.fail{color:#b00020;font-weight:bold}.na{color:#666}.verdict{font-size:1.3em;padding:.5em 1em;
border:2px solid;display:inline-block}img{max-width:100%;border:1px solid #ccc}
.small{font-size:.85em;color:#555}
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _verdict(passes: Any) -> str:
    if passes is True:
        return '<span class="pass">passes</span>'
    if passes is False:
        return '<span class="fail">fails</span>'
    return '<span class="na">does not apply</span>'


def _table(
    header: Sequence[str], rows: Iterable[Sequence[Any]], numeric: Sequence[int] = ()
) -> str:
    out = ["<table><thead><tr>", *(f"<th>{_e(h)}</th>" for h in header), "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>")
        for i, v in enumerate(row):
            cls = ' class="n"' if i in numeric else ""
            out.append(f"<td{cls}>{_e(v)}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _tests(s: Mapping[str, Any]) -> list[list[str]]:
    o, r = s.get("owner_test") or {}, s.get("resident_test") or {}
    p, a = s.get("population") or {}, s.get("area") or {}
    d = s.get("designees") or {}
    rows = []
    if o.get("applies"):
        basis = "full" if o.get("value_basis") == "full" else "assessed"
        detail = (
            f"signers {dollars(o.get('signer_value'))} of {dollars(o.get('total_value'))} "
            f"{basis} valuation = {percent(o.get('percent'))}; more than 50 % required "
            f"(values: roll field {o.get('value_basis_column', 'assessment_total')})"
        )
    else:
        detail = "owner basis not alleged (or not allowed by the regime)"
    rows.append(
        [
            "Owners of more than 50 % of the valuation",
            "2-202.1.a(2)",
            detail,
            _verdict(o.get("passes") if o.get("applies") else None),
        ]
    )
    if r.get("applies"):
        detail = (
            f"{r.get('qualifying_signers', 0):,} qualifying signers of "
            f"{r.get('qualified_voters', 0):,} qualified voters = {percent(r.get('percent'))}; "
            "at least 20 % required"
        )
    else:
        detail = "resident basis not alleged"
    rows.append(
        [
            "Residents qualified to vote: at least 20 %",
            "2-202.1.a(1)",
            detail,
            _verdict(r.get("passes") if r.get("applies") else None),
        ]
    )
    rows.append(
        [
            "Regular inhabitants",
            "2-200; 2-202.1.c(2)",
            f"{p.get('regular_inhabitants', 0):,} distinct persons in the territory; minimum "
            f"{p.get('minimum', '—')} (outside {p.get('outside', 0)}, duplicates "
            f"{p.get('duplicates', 0)}, unplaced {p.get('unplaced', 0)}, incomplete names "
            f"{p.get('incomplete_names', 0)})",
            _verdict(p.get("passes")),
        ]
    )
    exc = a.get("exception")
    rows.append(
        [
            "Area",
            "2-200",
            f"{percent_text(float(a.get('square_miles') or 0.0))} square miles; "
            f"limit {a.get('limit', 5.0)}"
            + (f"; coterminous exception claimed: {exc}" if exc else ""),
            _verdict(a.get("passes")),
        ]
    )
    rows.append(
        [
            "Designees",
            "2-202.1.b(5)",
            f"{d.get('count', 0)} designee(s), {d.get('residing_in_territory', 0)} residing in "
            "the territory; one to three, a majority residing inside"
            + (
                f" ({'; '.join(d['listed_twice'])}: listed again, one person counted once)"
                if d.get("listed_twice")
                else ""
            ),
            _verdict(d.get("passes")),
        ]
    )
    t = s.get("territory") or {}
    rows.append(
        [
            "No existing village in the territory",
            "2-200",
            "includes an existing village"
            if t.get("includes_existing_village")
            else "no village roll record or overlap found",
            _verdict(not t.get("includes_existing_village")),
        ]
    )
    return rows


def render_report(
    summary: Mapping[str, Any],
    parcels: pd.DataFrame,
    signatures: pd.DataFrame,
    *,
    map_png: bytes | None,
    files: Sequence[str],
    description_closure_ft: float | None = None,
) -> str:
    """The HTML text of the review report."""
    s = summary
    pet = s.get("petition") or {}
    name = str(pet.get("name", ""))
    sufficient = bool(s.get("sufficient"))
    parts: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Review report — {_e(name)}</title><style>{_CSS}</style></head><body>",
        f"<h1>Review report: petition for the incorporation of the {_e(name)}</h1>",
        f'<p class="small">Filed on {_e(pet.get("filed_on", ""))}; bases alleged: '
        f"{_e(', '.join(pet.get('bases') or []))}; rules applied: regime "
        f"<b>{_e(s.get('regime', ''))}</b>.</p>",
        f'<p class="verdict {"pass" if sufficient else "fail"}">The petition is '
        f"{'SUFFICIENT' if sufficient else 'NOT SUFFICIENT'} on the inputs given.</p>",
        "<h2>Tests</h2>",
        _table_html_raw(["Test", "§", "Finding", "Result"], _tests(s)),
    ]
    defs = list(s.get("deficiencies") or [])
    parts.append(f"<h2>Deficiencies ({len(defs)})</h2>")
    if defs:
        parts.append(
            _table(
                ["Code", "§", "What is wrong", "Where"],
                [
                    [
                        d.get("code", ""),
                        d.get("paragraph", ""),
                        d.get("message", ""),
                        _short(d.get("where", "")),
                    ]
                    for d in defs
                ],
            )
        )
    else:
        parts.append("<p>None.</p>")
    t = s.get("territory") or {}
    o = s.get("owner_test") or {}
    by_swis = {str(p.get("swis")): p for p in o.get("parts") or []}
    rolls = {str(r.get("swis")): r for r in s.get("rolls") or []}
    parts.append("<h2>Territory and town parts</h2>")
    parts.append(
        f"<p>Area {percent_text(float(t.get('square_miles') or 0.0))} square miles "
        f"(measured on the ellipsoid); working grid {_e(t.get('working_crs', ''))}.</p>"
    )
    rows = []
    for tw in t.get("towns") or []:
        sw = str(tw.get("swis"))
        p = by_swis.get(sw, {})
        roll = rolls.get(sw, {})
        rows.append(
            [
                sw,
                tw.get("name", ""),
                percent_text(float(tw.get("square_miles") or 0.0)),
                roll.get("roll_year", ""),
                rate(p.get("equalization_rate", roll.get("equalization_rate"))),
                dollars(p.get("total_assessed")),
                dollars(p.get("signer_assessed")),
                dollars(p.get("total_full")),
                dollars(p.get("signer_full")),
                percent(p.get("percent")),
                "—" if "passes" not in p else ("passes" if p.get("passes") else "fails"),
            ]
        )
    parts.append(
        _table(
            [
                "SWIS",
                "Town",
                "Sq. mi.",
                "Roll year",
                "Eq. rate",
                "Total assessed",
                "Signers assessed",
                "Total full",
                "Signers full",
                "Percent",
                "Part",
            ],
            rows,
            numeric=(2, 4, 5, 6, 7, 8, 9),
        )
    )
    f = s.get("filing") or {}
    parts.append("<h2>Filing (§ 2-202.1.f)</h2>")
    parts.append(
        f"<p>Original with the supervisor of town {_e(f.get('original_with', ''))}; "
        f"copies with: {_e(', '.join(map(str, f.get('copies_with') or [])) or 'none')}. "
        f"Deposit {dollars(f.get('deposit_per_supervisor'))} per supervisor, "
        f"{dollars(f.get('deposit_total'))} in all.</p>"
    )
    parts.append("<h2>Parcels</h2>")
    parts.append(
        _counts(
            parcels,
            "fraction_source",
            "How each roll record's fraction in the territory was obtained",
        )
    )
    if len(parcels):
        credited = int(
            (pd.to_numeric(parcels["signer_credit_assessed"], errors="coerce").fillna(0) > 0).sum()
        )
        frac = pd.to_numeric(parcels["fraction_in_territory"], errors="coerce").fillna(0)
        source = parcels["fraction_source"].astype("str")
        straddle = int(((frac > 0) & (frac < 1) & (source == "geometry")).sum())
        overridden = int((source == "override").sum())
        parts.append(
            f"<p>{len(parcels):,} roll records in the schedule; {credited:,} carry a "
            f"signer's credit; {straddle:,} straddle the boundary and are apportioned by "
            f"their area; {overridden:,} are apportioned by the assessor's override.</p>"
        )
    parts.append("<h2>Signatures</h2>")
    parts.append(_counts(signatures, "status", "Status of each signature line"))
    if description_closure_ft is not None:
        parts.append("<h2>Description of the territory (§ 2-202.1.c(1))</h2>")
        parts.append(
            f"<p>A metes-and-bounds description is in exhibit-description.txt; read "
            f"back course by course it closes within {description_closure_ft:.3f} "
            "feet.</p>"
        )
    warnings = list(s.get("warnings") or [])
    if warnings:
        parts.append("<h2>Warnings</h2><ul>")
        parts += [f"<li>{_e(w)}</li>" for w in warnings]
        parts.append("</ul>")
    if map_png is not None:
        data = base64.b64encode(map_png).decode("ascii")
        parts.append("<h2>Map</h2>")
        parts.append(f'<img alt="Map of the territory" src="data:image/png;base64,{data}">')
    parts.append("<h2>Files of the filing package</h2><ul>")
    parts += [f"<li>{_e(n)}</li>" for n in sorted(files)]
    parts.append("</ul></body></html>")
    return "\n".join(parts) + "\n"


def _short(text: Any, limit: int = 400) -> str:
    t = str(text)
    return t if len(t) <= limit else t[:limit] + " …"


def _counts(frame: pd.DataFrame, column: str, caption: str) -> str:
    if column not in frame or frame.empty:
        return "<p>None.</p>"
    counts = frame[column].astype("str").value_counts().sort_index()
    return f"<p>{_e(caption)}:</p>" + _table(
        [column, "count"], [[k, f"{v:,}"] for k, v in counts.items()], numeric=(1,)
    )


def _table_html_raw(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A table whose last column is trusted HTML (the verdict marks); others escaped."""
    out = ["<table><thead><tr>", *(f"<th>{_e(h)}</th>" for h in header), "</tr></thead><tbody>"]
    for row in rows:
        cells = [f"<td>{_e(v)}</td>" for v in row[:-1]] + [f"<td>{row[-1]}</td>"]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def write_report(path: Path, text: str) -> Path:
    """Write the report (UTF-8)."""
    return write_bytes(path, text.encode("utf-8"))
