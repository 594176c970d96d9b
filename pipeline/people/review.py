"""The review queue, stale match decisions, and written-versus-computed values.

* :func:`review_queue`: every line left ``needs_review``, one row per candidate
  with the evidence (name score, what in the name differs, which address
  agreed), for a person to settle in the match-decision file.
* :func:`stale_decisions`: decisions that no longer fit the data (a line that
  is gone, a parcel not on the roll, an SBOEID not in the voter file, an
  accept without a target), as messages; nothing crashes on them.
* :func:`value_differences`: the value a signer wrote on an owner page beside
  the credit computed.
"""

from __future__ import annotations

import math

import pandas as pd

from pipeline.frames import PARCEL_KEY, SOURCE_ROW

__all__ = [
    "REVIEW_COLUMNS",
    "review_queue",
    "stale_decisions",
    "value_differences",
    "with_unlisted_lines",
]

#: Columns of ``review.csv``.
REVIEW_COLUMNS: tuple[str, ...] = (
    "page",
    "line",
    "basis",
    "name",
    "address",
    "signing_for",
    "reason",  # why the line is in review
    "candidate",  # SWIS:PRINT_KEY (owner pages) or SBOEID (resident pages); "" when none
    "candidate_name",
    "name_score",  # 0-100
    "name_evidence",  # "name agrees", "nickname BILL/WILLIAM", "surname close", ...
    "address_agreed",  # "same situs", "same mailing", "close residence", "none"...
    "candidate_addresses",
)


def _text(frame: pd.DataFrame, col: str) -> list[str]:
    if col not in frame.columns:
        return [""] * len(frame)
    return [x if isinstance(x, str) else "" for x in frame[col].tolist()]


def review_queue(
    signatures: pd.DataFrame,
    pages: pd.DataFrame,
    owner_matches: pd.DataFrame,
    resident_lines: pd.DataFrame | None,
) -> pd.DataFrame:
    """The lines to review, each with its candidates and the evidence.

    Parameters
    ----------
    signatures
        Signature lines (:data:`pipeline.frames.SIGNATURE_COLUMNS`).
    pages
        Signature pages.
    owner_matches
        From :func:`pipeline.people.matching.owner_matcher` (columns
        ``status``, ``note``, ``candidates``).
    resident_lines
        From :func:`pipeline.people.voters.resident_test` (same columns), or
        ``None``.

    Returns
    -------
    pandas.DataFrame
        :data:`REVIEW_COLUMNS`, in page/line order, candidates best first; a
        line with no candidate has one row with an empty ``candidate``.
    """
    basis_of = dict(zip(pages["page"].tolist(), _text(pages, "basis"), strict=True))
    info = _line_info(signatures)
    rows: list[dict[str, object]] = []
    for frame, basis in ((owner_matches, "owners"), (resident_lines, "residents")):
        if frame is None or not len(frame):
            continue
        sel = frame[frame["status"] == "needs_review"]
        cands = sel["candidates"].tolist() if "candidates" in sel else [None] * len(sel)
        for p, q, note, cand in zip(
            sel["page"].tolist(), sel["line"].tolist(), _text(sel, "note"), cands, strict=True
        ):
            if basis_of.get(p, basis) != basis:
                continue
            name, address, sfor = info.get((int(p), int(q)), ("", "", ""))
            base = {
                "page": int(p),
                "line": int(q),
                "basis": basis,
                "name": name,
                "address": address,
                "signing_for": sfor,
                "reason": note,
            }
            records = list(cand) if isinstance(cand, tuple | list) else []
            if not records:
                rows.append(base)
            for r in records:
                rows.append({**base, **r})
    return _typed(pd.DataFrame(rows, columns=list(REVIEW_COLUMNS)))


def _line_info(signatures: pd.DataFrame) -> dict[tuple[int, int], tuple[str, str, str]]:
    """(page, line) -> (name, address, signing_for) as written."""
    return {
        (int(p), int(q)): (n, a, f)
        for p, q, n, a, f in zip(
            signatures["page"].tolist(),
            signatures["line"].tolist(),
            _text(signatures, "name"),
            _text(signatures, "address"),
            _text(signatures, "signing_for"),
            strict=True,
        )
    }


def _typed(out: pd.DataFrame) -> pd.DataFrame:
    """Review rows with their column types (text, whole page/line, float score), sorted."""
    for col in REVIEW_COLUMNS:
        if col not in ("page", "line", "name_score"):
            out[col] = out[col].fillna("").astype(str)
    out["page"] = out["page"].astype("int64")
    out["line"] = out["line"].astype("int64")
    out["name_score"] = pd.to_numeric(out["name_score"], errors="coerce").astype("float64")
    return out.sort_values(["page", "line"], kind="stable").reset_index(drop=True)


def with_unlisted_lines(
    review: pd.DataFrame, schedule: pd.DataFrame, signatures: pd.DataFrame
) -> pd.DataFrame:
    """``review`` with a row for every line awaiting review that it does not list.

    Parameters
    ----------
    review
        From :func:`review_queue`.
    schedule
        The signature schedule (``page``, ``line``, ``basis``, ``status``,
        ``note``): its ``needs_review`` lines are the ones to decide.
    signatures
        The signature lines (name, address, ``signing_for``).

    Returns
    -------
    pandas.DataFrame
        :data:`REVIEW_COLUMNS`, in page/line order. A line awaiting review
        with no match to weigh (a resident line without a voter file) gets
        one row without a candidate, its note as the reason.
    """
    waiting = schedule.loc[schedule["status"].astype("str") == "needs_review"]
    listed = set(zip(review["page"].astype("int64"), review["line"].astype("int64"), strict=True))
    keys = list(zip(waiting["page"].astype("int64"), waiting["line"].astype("int64"), strict=True))
    missing = [i for i, k in enumerate(keys) if k not in listed]
    if not missing:
        return review
    info = _line_info(signatures)
    basis, note = _text(waiting, "basis"), _text(waiting, "note")
    rows = []
    for i in missing:
        name, address, sfor = info.get(keys[i], ("", "", ""))
        rows.append(
            {
                "page": keys[i][0],
                "line": keys[i][1],
                "basis": basis[i],
                "name": name,
                "address": address,
                "signing_for": sfor,
                "reason": note[i],
            }
        )
    extra = pd.DataFrame(rows, columns=list(REVIEW_COLUMNS))
    return _typed(pd.concat([review, extra], ignore_index=True) if len(review) else extra)


def stale_decisions(
    decisions: pd.DataFrame | None,
    signatures: pd.DataFrame,
    pages: pd.DataFrame,
    roll: pd.DataFrame,
    voters: pd.DataFrame | None,
) -> list[str]:
    """Match decisions that no longer fit the data, as messages.

    Parameters
    ----------
    decisions
        The match-decision file (:data:`pipeline.frames.MATCH_DECISION_COLUMNS`).
    signatures, pages
        The signature lines and pages.
    roll
        The roll (its ``parcel_key`` values).
    voters
        The voter file (its ``SBOEID`` values), or ``None``.

    Returns
    -------
    list[str]
        One message per stale decision: a line not in the signatures; an
        unknown decision; an accept on an owner page without a parcel or with a
        parcel not on the roll; an accept on a resident page without an SBOEID
        or with one not in the voter file; a reject naming a parcel not on the
        roll or an SBOEID not in the voter file (it rejects no candidate).
        Such decisions are not applied.
    """
    if decisions is None or not len(decisions):
        return []
    basis_of = dict(zip(pages["page"].astype("int64").tolist(), _text(pages, "basis"), strict=True))
    lines = set(
        zip(
            signatures["page"].astype("int64").tolist(),
            signatures["line"].astype("int64").tolist(),
            strict=True,
        )
    )
    parcels = set(_text(roll, PARCEL_KEY))
    sboe = set(_text(voters, "SBOEID")) if voters is not None else set()
    out: list[str] = []
    # a line both accepted and rejected (naming no candidate): the reject wins
    kinds: dict[tuple[int, int], set[str]] = {}
    for p, q, kind, key, sid in zip(
        decisions["page"].tolist(),
        decisions["line"].tolist(),
        (s.strip().lower() for s in _text(decisions, "decision")),
        _text(decisions, PARCEL_KEY),
        (s.strip() for s in _text(decisions, "SBOEID")),
        strict=True,
    ):
        if p is None or q is None or (isinstance(p, float) and math.isnan(p)):
            continue
        whole = kind == "reject" and not (key or sid)
        kinds.setdefault((int(p), int(q)), set()).add("whole" if whole else kind)
    both = sorted(at for at, ks in kinds.items() if {"accept", "whole"} <= ks)
    out += [
        f"match decision for page {p} line {q}: both accepted and rejected; the reject "
        "(of the whole line) wins"
        for p, q in both
    ]
    rows = (
        decisions[SOURCE_ROW].tolist()
        if SOURCE_ROW in decisions.columns
        else list(range(1, len(decisions) + 1))
    )
    for p, q, kind, key, sw, pk, sid, row in zip(
        decisions["page"].tolist(),
        decisions["line"].tolist(),
        (s.strip().lower() for s in _text(decisions, "decision")),
        _text(decisions, PARCEL_KEY),
        _text(decisions, "swis_code"),
        _text(decisions, "print_key_code"),
        (s.strip() for s in _text(decisions, "SBOEID")),
        rows,
        strict=True,
    ):
        if p is None or q is None or (isinstance(p, float) and math.isnan(p)):
            continue
        # the decisions file's row (data rows from 1), to find the decision by
        where = f"match decision for page {int(p)} line {int(q)} (decisions file, row {row})"
        if (int(p), int(q)) not in lines:
            out.append(f"{where}: no such signature line")
            continue
        if kind not in ("accept", "reject"):
            out.append(f"{where}: decision {kind!r} is neither accept nor reject")
            continue
        if kind == "reject":
            # a reject naming a candidate rejects that one only: one that is not
            # there rejects nothing, and the line keeps its match
            if basis_of.get(int(p)) == "owners" and key and key not in parcels:
                out.append(
                    f"{where}: reject of parcel {sw}:{pk}, which is not on the roll: it rejects "
                    "no candidate (to reject the line, name no parcel)"
                )
            elif basis_of.get(int(p)) == "residents" and sid and sid not in sboe:
                out.append(
                    f"{where}: reject of SBOEID {sid}, which is not in the voter file: it "
                    "rejects no candidate (to reject the line, name no voter)"
                )
            continue
        if basis_of.get(int(p)) == "owners":
            if not key:
                out.append(f"{where}: accept without a parcel (swis_code + print_key_code)")
            elif key not in parcels:
                out.append(f"{where}: parcel {sw}:{pk} is not on the roll (not applied)")
        elif basis_of.get(int(p)) == "residents":
            if not sid:
                out.append(f"{where}: accept without an SBOEID")
            elif sid not in sboe:
                out.append(f"{where}: SBOEID {sid} is not in the voter file (not applied)")
    return out


def value_differences(
    schedule: pd.DataFrame,
    signatures: pd.DataFrame,
    *,
    owner_matches: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Add ``written_value`` and ``value_difference`` to the signature schedule.

    Parameters
    ----------
    schedule
        The ``signatures.csv`` frame (``page``, ``line``, ``basis``,
        ``credit_assessed``...).
    signatures
        The signature lines (``credited_assessed_value`` as written).

    Returns
    -------
    pandas.DataFrame
        ``schedule`` with ``written_value`` (NaN when not written or not an
        owner page) and ``value_difference`` = ``written_value -
        credit_assessed`` (NaN when nothing was written) appended. With
        ``owner_matches``, an owner line's empty ``note`` gets the matcher's
        note (why it is under review, not an owner, a defect...).
    """
    out = schedule.copy()
    if owner_matches is not None and "note" in owner_matches.columns and len(out):
        notes = pd.Series(
            owner_matches["note"].astype(str).to_numpy(),
            index=pd.MultiIndex.from_arrays(
                [owner_matches["page"].astype("int64"), owner_matches["line"].astype("int64")]
            ),
        )
        notes = notes[~notes.index.duplicated()]
        key = pd.MultiIndex.from_arrays([out["page"].astype("int64"), out["line"].astype("int64")])
        got = pd.Series(notes.reindex(key).fillna("").to_numpy(), index=out.index, dtype=str)
        fill = (out["basis"] == "owners") & (out["note"].astype(str) == "")
        out["note"] = out["note"].astype(str).where(~fill, got)
    if "credited_assessed_value" in signatures.columns and len(out):
        written = pd.Series(
            pd.to_numeric(signatures["credited_assessed_value"], errors="coerce").to_numpy(),
            index=pd.MultiIndex.from_arrays(
                [signatures["page"].astype("int64"), signatures["line"].astype("int64")]
            ),
        )
        written = written[~written.index.duplicated()]
        key = pd.MultiIndex.from_arrays([out["page"].astype("int64"), out["line"].astype("int64")])
        vals = written.reindex(key).to_numpy(dtype="float64")
        out["written_value"] = vals
        out.loc[out["basis"] != "owners", "written_value"] = float("nan")
    else:
        out["written_value"] = pd.Series(float("nan"), index=out.index, dtype="float64")
    out["value_difference"] = out["written_value"] - out["credit_assessed"].astype("float64")
    return out
