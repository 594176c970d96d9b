"""What changed between two runs of a petition (``petition diff``): pure, no file access.

Two result sets (read by :func:`pipeline.io.history.read_results`) are
compared parcel by parcel and test by test:

* **parcels added / removed**, keyed by SWIS code and normalised print key
  (:func:`pipeline.keys.normalize_print_key`);
* **splits and merges**, told from print keys: a parcel of run A that is gone
  in run B while keys that extend it (``43.11-1-2`` → ``43.11-1-2.1`` and
  ``43.11-1-2.2``, or ``…/A``) appear is a *split*; keys of run A that are
  gone while the key they extend appears in run B is a *merge*;
* **owners changed** on parcels in both runs (owner names compared as a set,
  case and spacing ignored), and the **signers** of run A credited for a
  parcel whose owners changed (or that was removed, split or merged): the
  signers who may no longer own what they were credited for;
* **values and rates changed**: assessed value, fraction in the territory,
  equalization rate, apportioned full value, signers' credit;
* **deficiencies added and removed**, by code and paragraph (an equal count
  can hide one gone and another come);
* **each test** before and after (the headline figures of
  :func:`pipeline.scenario.metrics`, plus each town's equalization rate and
  the population minimum). The owner test's dollars are in its value basis
  (assessed in one town, full across towns): when the basis differs between
  the runs no difference of them is stated, only the change of basis.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from pipeline.keys import normalize_print_key
from pipeline.tools.numbers import percent_text

__all__ = ["DIFF_COLUMNS", "ResultSet", "ResultsDiff", "diff_results", "owner_set"]

#: Columns of the diff CSV, one row per change.
DIFF_COLUMNS = (
    "change",
    "swis_code",
    "print_key_code",
    "related",
    "field",
    "before",
    "after",
    "page",
    "line",
    "name",
)


#: Per-parcel figures compared (parcels.csv columns).
def _count_text(value: object) -> str:
    """An owner count as written in a report (``3``; ``""`` when missing)."""
    try:
        number = float(str(value))
    except ValueError:
        return ""
    return str(int(number)) if number == number else ""


VALUE_FIELDS = (
    "assessed_value",
    "fraction_in_territory",
    "apportioned_assessed",
    "equalization_rate",
    "apportioned_full",
    "signer_credit_assessed",
    "signer_credit_full",
)

_REL_TOL = 1e-9
_Key = tuple[str, str]
_ABS_TOL = 1e-6


@dataclass(frozen=True)
class ResultSet:
    """One run's results: ``summary.json``, ``parcels.csv``, ``signatures.csv``, manifest."""

    name: str
    summary: Mapping[str, Any]
    parcels: pd.DataFrame
    signatures: pd.DataFrame
    manifest: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class ResultsDiff:
    """The changes from run ``a`` to run ``b``.

    Attributes
    ----------
    changes
        One row per change, columns :data:`DIFF_COLUMNS`; ``change`` is one of
        ``added``, ``removed``, ``split``, ``merged``, ``owners_changed``,
        ``value_changed``, ``signer_owner_changed``, ``roll`` (a town's roll
        year), ``regime``, ``value_basis`` (the roll field the values are read
        from), ``deficiency_added``, ``deficiency_removed`` (``field`` the code,
        ``related`` the paragraph, ``before`` / ``after`` the message),
        ``test``.
    tests
        The headline figures side by side: index the metric, columns
        ``before``, ``after``, ``change`` (numbers only; none for the owner
        test's dollars when the value basis changed) and ``note`` (``"basis
        changed: assessed -> full"`` on those rows, else empty).
    """

    a: str
    b: str
    changes: pd.DataFrame
    tests: pd.DataFrame

    def count(self, change: str) -> int:
        """Number of rows of one kind of change."""
        return int((self.changes["change"] == change).sum())

    def to_frame(self) -> pd.DataFrame:
        """Every change as one table (the CSV of ``petition diff``), tests last.

        ``page`` and ``line`` are whole numbers (blank where a change has none).
        """
        out = self.changes.reset_index(drop=True)
        for col in ("page", "line"):
            out[col] = pd.to_numeric(out[col], errors="coerce").astype("Int64")
        return out

    def report(self) -> str:
        """A plain-text report that explains itself."""
        c = self.changes
        lines = [f"Changes from {self.a} to {self.b}", ""]

        def section(kind: str, title: str, fmt: Any) -> None:
            rows = c.loc[c["change"] == kind]
            lines.append(f"{title}: {len(rows)}")
            for r in rows.itertuples(index=False):
                lines.append("  " + fmt(r))

        def key(r: Any) -> str:
            return f"{r.swis_code}:{r.print_key_code}"

        section("roll", "Rolls used", lambda r: f"town {r.swis_code}: {r.before} -> {r.after}")
        section("regime", "Rule set (by the filing date)", lambda r: f"{r.before} -> {r.after}")
        section(
            "value_basis",
            "Value basis (the roll field every value is read from; the values below change "
            "with it)",
            lambda r: f"{r.before} -> {r.after}",
        )
        section("added", "Parcels added", key)
        section("removed", "Parcels removed", key)
        section("split", "Parcels split", lambda r: f"{key(r)} -> {r.related}")
        section("merged", "Parcels merged", lambda r: f"{r.related} -> {key(r)}")
        section(
            "owners_changed",
            "Owners changed",
            lambda r: f"{key(r)}: {r.before or '(none)'} -> {r.after or '(none)'}",
        )
        section(
            "signer_owner_changed",
            "Signers credited for a parcel that changed hands or shape",
            lambda r: (
                f"page {r.page} line {r.line} {r.name}: credited for {key(r)}; {r.field}"
                + (f" ({r.before} -> {r.after})" if r.before or r.after else "")
            ),
        )
        section(
            "value_changed",
            "Values and rates changed",
            lambda r: f"{key(r)} {r.field}: {r.before} -> {r.after}",
        )
        section(
            "deficiency_removed",
            "Deficiencies removed",
            lambda r: f"{r.field} ({r.related}): {r.before}",
        )
        section(
            "deficiency_added",
            "Deficiencies added",
            lambda r: f"{r.field} ({r.related}): {r.after}",
        )
        lines.append("")
        lines.append("Tests before and after:")
        for label, row in self.tests.iterrows():
            ch, note = row["change"], row.get("note")
            if isinstance(note, str) and note:
                delta = f" ({note})"
            elif ch is None or (isinstance(ch, float) and math.isnan(ch)):
                delta = ""
            else:
                delta = f" ({ch:+g})"
            big = any(
                isinstance(v, float) and math.isfinite(v) and abs(v) >= 1e6
                for v in (row["before"], row["after"])
            )
            before, after = _show(row["before"], big=big), _show(row["after"], big=big)
            lines.append(f"  {label}: {before} -> {after}{delta}")
        return "\n".join(lines) + "\n"


def _show(value: Any, *, big: bool = False) -> str:
    """A figure as written in the report; ``big``: dollars in the millions, with cents."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, float):
        if big or abs(value) >= 1e6:
            return f"{value:,.2f}"
        shown = f"{value:,.6g}"
        if value != round(value) and float(shown.replace(",", "")) == round(value):
            # a share that is not whole must not read as the whole number next to
            # it (a threshold: 50 fails, more than 50 passes; audit A27 F3)
            shown = percent_text(value, digits=6)
        return shown
    return str(value)


def _plain(value: Any) -> Any:
    """A numpy scalar as a Python one, a missing value as ``None``."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def owner_set(owners: Any) -> frozenset[str]:
    """Owner names of a ``parcels.csv`` cell as a set (``;``-separated, case/spacing ignored)."""
    if not isinstance(owners, str):
        return frozenset()
    return frozenset(" ".join(o.split()).upper() for o in owners.split(";") if o.strip())


def _norm_key(pk: Any) -> str:
    text = "" if pk is None else str(pk)
    try:
        return normalize_print_key(text)
    except ValueError:
        return " ".join(text.split()).upper()


def _index(parcels: pd.DataFrame) -> pd.DataFrame:
    """One row per parcel key ``(swis, normalised print key)``; several roll records summed."""
    frame = parcels.copy()
    frame["_swis"] = frame["swis_code"].astype("str").str.strip()
    frame["_pk"] = [_norm_key(k) for k in frame["print_key_code"]]
    numeric = [c for c in VALUE_FIELDS if c in frame.columns and c != "equalization_rate"]
    firsts = [c for c in frame.columns if c not in (*numeric, "_swis", "_pk")]
    agg: dict[str, Any] = {c: "first" for c in firsts}
    agg.update({c: "sum" for c in numeric})
    if "owners" in frame.columns:
        agg["owners"] = lambda s: "; ".join(dict.fromkeys(o for o in s if isinstance(o, str)))
    out = frame.groupby(["_swis", "_pk"], sort=True, dropna=False).agg(agg)
    return out


def _extends(child: str, parent: str) -> bool:
    """``child`` is a subdivision of ``parent`` (``43.11-1-2.1`` of ``43.11-1-2``)."""
    return child.startswith(parent + ".") or child.startswith(parent + "/")


def _differs(x: Any, y: Any) -> bool:
    fx = pd.to_numeric(pd.Series([x]), errors="coerce").iloc[0]
    fy = pd.to_numeric(pd.Series([y]), errors="coerce").iloc[0]
    if pd.isna(fx) and pd.isna(fy):
        return False
    if pd.isna(fx) or pd.isna(fy):
        return True
    return not math.isclose(float(fx), float(fy), rel_tol=_REL_TOL, abs_tol=_ABS_TOL)


def _credits(signatures: pd.DataFrame) -> dict[tuple[str, str], list[tuple[Any, Any, str]]]:
    """Parcel key → the counted owner signers credited for it (page, line, name)."""
    out: dict[tuple[str, str], list[tuple[Any, Any, str]]] = {}
    if signatures.empty:
        return out
    status = signatures["status"].astype("str")
    counted = (status == "counted") & signatures["matched_to"].notna()
    for r in signatures.loc[counted].itertuples(index=False):
        for label in str(r.matched_to).split(";"):
            swis, sep, pk = label.strip().partition(":")
            if not sep:
                continue  # a voter id (resident page)
            out.setdefault((swis.strip(), _norm_key(pk)), []).append(
                (_whole(r.page), _whole(r.line), str(r.name))
            )
    return out


def _whole(x: Any) -> Any:
    """A page or line number as an int (a CSV column with blanks reads as float)."""
    try:
        f = float(x)
    except (TypeError, ValueError):
        return x
    return int(f) if math.isfinite(f) and f == int(f) else x


def _rolls(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, tuple[Any, Any]]:
    """Town SWIS -> (roll year before, after), from the summaries' ``rolls``."""

    def years(summary: Mapping[str, Any]) -> dict[str, Any]:
        return {str(r.get("swis")): r.get("roll_year") for r in summary.get("rolls") or []}

    ya, yb = years(a), years(b)
    return {k: (ya.get(k), yb.get(k)) for k in {*ya, *yb}}


#: The owner test's figures in dollars of its value basis (assessed or full).
_BASIS = "owner test: value basis"
_BASIS_DOLLARS = ("owner test: total value", "owner test: signer value")


def _value_field(summary: Mapping[str, Any]) -> str:
    """The roll field a run's values are read from (``owner_test.value_basis_column``)."""
    return str((summary.get("owner_test") or {}).get("value_basis_column") or "assessment_total")


def _tests(a: Mapping[str, Any], b: Mapping[str, Any]) -> pd.DataFrame:
    from pipeline.scenario import metrics  # heavy import kept out of module load

    def figures(summary: Mapping[str, Any]) -> pd.Series:
        m = metrics(summary)
        ot = summary.get("owner_test", {})
        extra: dict[str, Any] = {
            f"owner test, part {p['swis']}: equalization rate": p.get("equalization_rate")
            for p in ot.get("parts", []) or []
        }
        # the regime sets it (500 before 2024, 1,500 after)
        extra["population: minimum"] = (summary.get("population") or {}).get("minimum")
        out: pd.Series = pd.concat([m, pd.Series(extra, dtype=object)])
        return out

    fa, fb = figures(a), figures(b)
    labels = list(dict.fromkeys([*fa.index, *fb.index]))
    before = fa.reindex(labels)
    after = fb.reindex(labels)

    def delta(x: Any, y: Any) -> float | None:
        num = (int, float)
        if isinstance(x, bool) or isinstance(y, bool):
            return None
        if isinstance(x, num) and isinstance(y, num):
            return float(y) - float(x)
        return None

    change = [delta(x, y) for x, y in zip(before, after, strict=True)]
    note = [""] * len(labels)
    basis_a, basis_b = before.get(_BASIS), after.get(_BASIS)
    if isinstance(basis_a, str) and isinstance(basis_b, str) and basis_a != basis_b:
        # assessed dollars against full dollars: no difference to state
        for i, label in enumerate(labels):
            if label in _BASIS_DOLLARS:
                change[i] = None
                note[i] = f"basis changed: {basis_a} -> {basis_b}"
    field_a, field_b = _value_field(a), _value_field(b)
    if field_a != field_b:
        # values read from another roll field (assessment_total, town_taxable_value):
        # their dollars are not comparable either
        for i, label in enumerate(labels):
            if label in _BASIS_DOLLARS or label.endswith(": total full"):
                change[i] = None
                note[i] = f"value basis changed: {field_a} -> {field_b}"
    return pd.DataFrame(
        {"before": before.to_numpy(), "after": after.to_numpy(), "change": change, "note": note},
        index=pd.Index(labels, name="metric"),
    )


def _deficiency_changes(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Deficiencies of ``b`` not in ``a`` (added) and of ``a`` not in ``b`` (removed).

    Compared by code, paragraph and place (``where``: ``page 2``), as many
    times as each occurs: a run with two ``witness_count_mismatch`` against
    one has one removed, and a mismatch cured on page 2 and arising on page 1
    is one removed and one added (audit A37 F4). The message, whose figures
    change with the inputs, is shown, not compared.
    """

    Key = tuple[str, str, str]

    def counted(summary: Mapping[str, Any]) -> tuple[Counter[Key], dict[Key, str]]:
        keys: Counter[Key] = Counter()
        message: dict[Key, str] = {}
        for d in summary.get("deficiencies") or []:
            k = (str(d.get("code", "")), str(d.get("paragraph", "")), str(d.get("where") or ""))
            keys[k] += 1
            message.setdefault(k, str(d.get("message", "")))
        return keys, message

    (ka, ma), (kb, mb) = counted(a), counted(b)
    rows: list[dict[str, Any]] = []
    for kind, gone, there, messages in (
        ("deficiency_removed", ka - kb, "before", ma),
        ("deficiency_added", kb - ka, "after", mb),
    ):
        for (code, paragraph, where), times in sorted(gone.items()):
            for _ in range(times):
                rows.append(
                    {
                        "change": kind,
                        "field": code,
                        "related": f"{paragraph}, {where}" if where else paragraph,
                        there: messages[(code, paragraph, where)],
                    }
                )
    return rows


def diff_results(a: ResultSet, b: ResultSet) -> ResultsDiff:
    """The changes from run ``a`` to run ``b``.

    Parameters
    ----------
    a, b
        The earlier and the later run.

    Returns
    -------
    ResultsDiff
        Every change, and the tests side by side.

    Notes
    -----
    A parcel key is ``(swis_code, normalize_print_key(print_key_code))``.
    With :math:`R` the keys of ``a`` absent from ``b`` and :math:`N` those of
    ``b`` absent from ``a``: a key :math:`r \\in R` with children
    :math:`C = \\{n \\in N : n \\text{ extends } r\\}` non-empty is split into
    :math:`C`; a key :math:`n \\in N` with
    :math:`M = \\{r \\in R : r \\text{ extends } n\\}` non-empty is the merge
    of :math:`M`. What remains of :math:`R` and :math:`N` is removed and
    added. A figure changed when
    :math:`|x_b - x_a| > \\max(10^{-9} \\max(|x_a|, |x_b|), 10^{-6})`.
    """
    pa, pb = _index(a.parcels), _index(b.parcels)
    ka, kb = set(pa.index), set(pb.index)
    removed = sorted(ka - kb)
    added = sorted(kb - ka)
    rows: list[dict[str, Any]] = []

    def row(change: str, k: tuple[str, str], frame: pd.DataFrame, **more: Any) -> dict[str, Any]:
        pk = frame.loc[k, "print_key_code"] if k in frame.index else k[1]
        return {"change": change, "swis_code": k[0], "print_key_code": pk, **more}

    fate: dict[_Key, tuple[str, list[_Key]]] = {}  # key of a -> what became of it, successors
    used_added: set[tuple[str, str]] = set()
    used_removed: set[tuple[str, str]] = set()
    for r in removed:
        children = [n for n in added if n[0] == r[0] and _extends(n[1], r[1])]
        if children:
            names = [str(pb.loc[n, "print_key_code"]) for n in children]
            rows.append(row("split", r, pa, related="; ".join(names)))
            fate[r] = (f"split into {', '.join(names)}", children)
            used_added.update(children)
            used_removed.add(r)
    for n in added:
        if n in used_added:
            continue
        parts = [
            r for r in removed if r not in used_removed and r[0] == n[0] and _extends(r[1], n[1])
        ]
        if parts:
            names = [str(pa.loc[r, "print_key_code"]) for r in parts]
            rows.append(row("merged", n, pb, related="; ".join(names)))
            for r in parts:
                fate[r] = (f"merged into {pb.loc[n, 'print_key_code']}", [n])
            used_removed.update(parts)
            used_added.add(n)
    for r in removed:
        if r not in used_removed:
            rows.append(row("removed", r, pa))
            fate[r] = ("parcel removed", [])
    for n in added:
        if n not in used_added:
            rows.append(row("added", n, pb))

    both = sorted(ka & kb)
    owners_changed: dict[tuple[str, str], tuple[str, str]] = {}
    counted = "owner_count" in pa.columns and "owner_count" in pb.columns
    for k in both:
        oa, ob = pa.loc[k, "owners"], pb.loc[k, "owners"]
        sa = "" if not isinstance(oa, str) else oa
        sb = "" if not isinstance(ob, str) else ob
        if owner_set(oa) != owner_set(ob):
            owners_changed[k] = (sa, sb)
            rows.append(row("owners_changed", k, pb, field="owners", before=sa, after=sb))
        elif counted and _differs(pa.loc[k, "owner_count"], pb.loc[k, "owner_count"]):
            # the same names, another number of owners (an ownership override
            # giving the count): each co-owner's share changes
            ca, cb = _count_text(pa.loc[k, "owner_count"]), _count_text(pb.loc[k, "owner_count"])
            owners_changed[k] = (f"{sa} ({ca} owners)", f"{sb} ({cb} owners)")
            rows.append(row("owners_changed", k, pb, field="owner_count", before=ca, after=cb))
    for k in both:
        for f in VALUE_FIELDS:
            if f in pa.columns and f in pb.columns and _differs(pa.loc[k, f], pb.loc[k, f]):
                rows.append(
                    row("value_changed", k, pb, field=f, before=pa.loc[k, f], after=pb.loc[k, f])
                )

    credited_b = _credits(b.signatures)
    for k, signers in sorted(_credits(a.signatures).items()):
        if k in owners_changed:
            what, before, after = "owners changed", *owners_changed[k]
            successors = [k]
        elif k in fate:
            (what, successors), before, after = fate[k], "", ""
        else:
            continue
        still = {(p, ln) for s in successors for p, ln, _ in credited_b.get(s, [])}
        for page, line, name in signers:
            note = "still credited" if (page, line) in still else "no longer credited"
            if successors and successors != [k] and (page, line) in still:
                note += " for what it became"
            rows.append(
                row(
                    "signer_owner_changed",
                    k,
                    pa,
                    field=f"{what}; {note} in {b.name}",
                    before=before,
                    after=after,
                    page=page,
                    line=line,
                    name=name,
                )
            )

    # the roll each town used, and the regime: what the figures stand on
    for k, (ra, rb) in sorted(_rolls(a.summary, b.summary).items()):
        if ra != rb:
            rows.append(
                {"change": "roll", "swis_code": k, "field": "roll_year", "before": ra, "after": rb}
            )
    if a.summary.get("regime") != b.summary.get("regime"):
        rows.append(
            {
                "change": "regime",
                "field": "regime",
                "before": a.summary.get("regime"),
                "after": b.summary.get("regime"),
            }
        )
    field_a, field_b = _value_field(a.summary), _value_field(b.summary)
    if field_a != field_b:
        # the roll field every value is read from: the values below change with it
        rows.append(
            {"change": "value_basis", "field": "value_basis", "before": field_a, "after": field_b}
        )
    rows += _deficiency_changes(a.summary, b.summary)
    tests = _tests(a.summary, b.summary)
    for label, t in tests.iterrows():
        if _differs(t["before"], t["after"]) or (
            not isinstance(t["before"], int | float) and t["before"] != t["after"]
        ):
            rows.append(
                {
                    "change": "test",
                    "field": label,
                    "before": t["before"],
                    "after": t["after"],
                    # the owner test's dollars in two value bases: said, not subtracted
                    **({"related": t["note"]} if t["note"] else {}),
                }
            )

    clean = [{c: _plain(r.get(c)) for c in DIFF_COLUMNS} for r in rows]
    changes = pd.DataFrame(clean, columns=list(DIFF_COLUMNS), dtype=object)
    return ResultsDiff(a=a.name, b=b.name, changes=changes, tests=tests)
