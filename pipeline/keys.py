"""SWIS codes and print keys: parsing, normalising, village vs town.

A New York parcel is identified state-wide by its SWIS code (6 digits) and its
print key. Rolls and parcel layers write the same print key in different ways,
so every join goes through the *normalised* key built here.

Print keys
----------
The NYS RPS layout of a tax map number (SBL) is 20 characters::

    Section(3) Subsection(3) Block(4) Lot(3) Sublot(3) Suffix(4)

and the same parcel may be written

* in display form: ``43.11-1-2``, ``13.-3-1`` (empty subsection),
  ``18.-4-17.2`` (sublot 2), ``14.1-2-3.1A``, ``43.11-1-2/1`` (suffix ``1``);
* as an SBL with punctuation: ``043.011-0001-002.000`` (optionally ``/0001``);
* as the bare 20-character SBL: ``04301100010020000000``.

Normalisation rule (:func:`normalize_print_key`):

1. Surrounding whitespace is removed; whitespace next to a separator
   (``.``, ``-``, ``/``) is removed; any other run of whitespace separates
   groups like ``-`` (``"43.11 1 2"`` is ``"43.11-1-2"``). Letters are
   upper-cased. Any character other than letters, digits, ``.``, ``-``, ``/``
   and whitespace makes the key unparseable.
2. A key of exactly 20 letters/digits with no separator is the bare SBL: it is
   cut at the fixed widths above into ``section.subsection``, ``block``,
   ``lot.sublot`` and the suffix.
3. Otherwise the part after ``/`` (at most one) is the suffix, and the rest is
   split on ``-`` into groups and each group on ``.`` into sub-parts.
4. Each sub-part is normalised: the run of leading digits is read as an
   integer (leading zeros go: ``"011"`` -> ``"11"``, ``"01A"`` -> ``"1A"``);
   a sub-part that is empty or all zeros is *zero*.
5. Zero sub-parts at the end of a group are dropped (``"13."`` -> ``"13"``,
   ``"002.000"`` -> ``"2"``); a group that is all zeros becomes ``"0"``.
   An empty sub-part before a non-empty one (``"13..5"``, ``".5"``) or an
   empty group (``"13--1"``) makes the key unparseable.
6. Groups that are all zero at the end of the key are dropped (the key keeps
   at least one group), so ``43.11-1`` equals ``43.11-1-0``.
7. The suffix is normalised like a sub-part; a zero suffix is dropped.
8. The result is ``"-".join(groups)`` followed by ``"/" + suffix`` when there
   is one.

Consequences: ``43.11-1-2`` == ``043.011-0001-002.000`` ==
``04301100010020000000`` -> ``"43.11-1-2"``; ``13.-3-1`` -> ``"13-3-1"``;
``18.-4-17.2`` == ``01800000040170020000`` -> ``"18-4-17.2"``. Sub-parts are
compared as integers, **not** as decimal fractions: ``14.01`` == ``14.1`` but
``14.1`` != ``14.10`` (subsection 1 and subsection 10 are different map
sheets).

SWIS codes
----------
Six digits: the first two are the county, the next two the town (or city),
the last two the place within it: ``00`` the town as a whole, ``89`` the part
of the town outside any village, anything else a village within the town.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "is_village_swis",
    "normalize_print_key",
    "normalize_print_keys",
    "parcel_key",
    "schedule_keys",
    "town_of_swis",
    "validate_swis",
]

_ALLOWED = re.compile(r"[A-Za-z0-9.\-/\s]+")
_SPACE_AROUND_SEP = re.compile(r"\s*([.\-/])\s*")
_SPACE = re.compile(r"\s+")
_ALNUM20 = re.compile(r"[A-Z0-9]{20}")
_SUBPART = re.compile(r"(\d*)([A-Z0-9]*)")
_SWIS = re.compile(r"[0-9]{6}")  # ASCII digits: a full-width ７１４６００ is no SWIS code

#: Fixed widths of the bare SBL: section, subsection, block, lot, sublot, suffix.
_SBL_WIDTHS = (3, 3, 4, 3, 3, 4)


def _subpart(text: str, key: str) -> str:
    """Normalise one sub-part; ``""`` means zero/empty."""
    m = _SUBPART.fullmatch(text)
    if m is None:  # pragma: no cover - excluded by _ALLOWED
        raise ValueError(f"print key {key!r}: bad part {text!r}")
    digits, rest = m.group(1), m.group(2)
    number = str(int(digits)) if digits else ""
    if rest:
        # "01A" -> "1A"; a zero before letters is padding: "0A" -> "A"
        return rest if number in ("", "0") else number + rest
    return "" if number == "0" else number


def _group(parts: list[str], key: str) -> list[str]:
    """Normalise the sub-parts of one group and drop trailing zero sub-parts."""
    norm = [_subpart(p, key) for p in parts]
    while norm and norm[-1] == "":
        norm.pop()
    if any(p == "" for p in norm):
        # an empty sub-part before a non-empty one: "13..5", ".5"
        if any(raw == "" for raw in parts[: len(norm)]):
            raise ValueError(f"print key {key!r}: empty part before a non-empty one")
        norm = [p or "0" for p in norm]
    return norm


def _normalize(key: str) -> str:
    if not isinstance(key, str):
        raise ValueError(f"print key must be text, got {type(key).__name__}")
    text = key.strip()
    if not text:
        raise ValueError("empty print key")
    if _ALLOWED.fullmatch(text) is None:
        bad = sorted({c for c in text if not (c.isascii() and (c.isalnum() or c in ".-/ \t"))})
        raise ValueError(f"print key {key!r}: unexpected character(s) {''.join(bad)!r}")
    text = _SPACE_AROUND_SEP.sub(r"\1", text)
    text = _SPACE.sub("-", text).upper()

    groups_raw: list[list[str]]
    suffix_raw: str
    if _ALNUM20.fullmatch(text):
        cuts: list[str] = []
        pos = 0
        for width in _SBL_WIDTHS:
            cuts.append(text[pos : pos + width])
            pos += width
        sec, sub, blk, lot, sublot, suffix_raw = cuts
        groups_raw = [[sec, sub], [blk], [lot, sublot]]
    else:
        if text.count("/") > 1:
            raise ValueError(f"print key {key!r}: more than one '/'")
        main, _, suffix_raw = text.partition("/")
        if not main:
            raise ValueError(f"print key {key!r}: nothing before '/'")
        groups_raw = [g.split(".") for g in main.split("-")]
        for g in groups_raw:
            if g == [""]:
                raise ValueError(f"print key {key!r}: empty group between '-'")
            if g[0] == "":
                raise ValueError(f"print key {key!r}: a group starts with '.'")
        if "." in suffix_raw or "-" in suffix_raw:
            raise ValueError(f"print key {key!r}: separator inside the suffix")

    groups = [".".join(_group(g, key)) for g in groups_raw]
    groups = [g or "0" for g in groups]
    while len(groups) > 1 and groups[-1] == "0":
        groups.pop()
    suffix = _subpart(suffix_raw, key) if suffix_raw else ""
    out = "-".join(groups)
    return f"{out}/{suffix}" if suffix else out


@lru_cache(maxsize=1 << 20)
def normalize_print_key(print_key: str) -> str:
    """Normalise a print key so that every way of writing it compares equal.

    Parameters
    ----------
    print_key
        The print key as written (display form, punctuated SBL or bare
        20-character SBL).

    Returns
    -------
    str
        The normalised key, e.g. ``"43.11-1-2"``.

    Raises
    ------
    ValueError
        When the key cannot be parsed (empty, unexpected characters, empty
        groups).

    Notes
    -----
    The rule is given in the module docstring. Results are cached, so calling
    this once per row of a large roll costs one parse per distinct key.
    """
    return _normalize(print_key)


# Vectorised form of the same rule (RE2 patterns: no look-around).
# A key is on the fast path when, after whitespace clean-up, every group has a
# non-empty first sub-part and only its last sub-part may be empty ("13."):
_FAST_G = r"[0-9A-Z]+(?:\.[0-9A-Z]+)*\.?"
_FAST = rf"^{_FAST_G}(?:-{_FAST_G})*(?:/[0-9A-Z]*)?$"
_STEPS: tuple[tuple[str, str], ...] = (
    # leading zeros of every sub-part and of the suffix ("011" -> "11", "0A" -> "A")
    (r"(^|[.\-/])0+([0-9A-Z])", r"\1\2"),
    # zero or empty sub-parts at the end of a group ("13." -> "13", "2.0" -> "2")
    (r"(?:\.0?)+([\-/]|$)", r"\1"),
    # all-zero groups at the end of the key ("43.11-1-0" -> "43.11-1")
    (r"(?:-0)+(/|$)", r"\1"),
    # a zero or empty suffix
    (r"/0?$", ""),
)


def normalize_print_keys(keys: pd.Series, *, errors: str = "raise") -> pd.Series:
    """Vectorised :func:`normalize_print_key` over a Series of text.

    Parameters
    ----------
    keys
        Print keys as written (``str`` values).
    errors
        ``"raise"``: the first unparseable key raises ``ValueError``;
        ``"coerce"``: unparseable keys become ``NA``.

    Returns
    -------
    pandas.Series
        Normalised keys (dtype ``str``), same index as ``keys``.

    Notes
    -----
    Well-formed keys (the vast majority) are normalised by a few RE2 regular
    expression passes over the whole column (pyarrow); the others, such as
    bare 20-character SBLs, keys with odd characters or empty parts, go
    through :func:`normalize_print_key` once per distinct value. Both paths
    implement the same rule; the tests check that they agree.
    """
    arr = pc.cast(pa.array(keys.astype("str").array), pa.large_string())
    arr = pc.utf8_upper(pc.utf8_trim_whitespace(arr))
    if pc.any(pc.match_substring_regex(arr, r"\s")).as_py():
        arr = pc.replace_substring_regex(arr, r"\s*([.\-/])\s*", r"\1")
        arr = pc.replace_substring_regex(arr, r"\s+", "-")
    # bare 20-character SBL -> punctuated form, which the passes below normalise
    sbl = pc.match_substring_regex(arr, r"^[0-9A-Z]{20}$")
    if pc.any(sbl).as_py():
        parts = [
            pc.utf8_slice_codeunits(arr, start, start + width)
            for start, width in zip((0, 3, 6, 10, 13, 16), (3, 3, 4, 3, 3, 4), strict=True)
        ]
        seps = [pa.scalar(c, pa.large_string()) for c in (".", "-", "-", ".", "/", "")]
        punct = pc.binary_join_element_wise(
            parts[0],
            seps[0],
            parts[1],
            seps[1],
            parts[2],
            seps[2],
            parts[3],
            seps[3],
            parts[4],
            seps[4],
            parts[5],
            seps[5],
        )
        arr = pc.if_else(sbl, punct, arr)
    fast = pc.match_substring_regex(arr, _FAST).to_numpy(zero_copy_only=False)
    out = arr
    for pattern, repl in _STEPS:
        out = pc.replace_substring_regex(out, pattern, repl)
    result = pd.Series(pd.arrays.ArrowStringArray(out), index=keys.index, dtype="str")
    if not fast.all():
        slow_pos = np.flatnonzero(~fast)
        raw = keys.iloc[slow_pos]
        cache: dict[str, str | None] = {}
        values: list[str | None] = []
        for value in raw.astype("str"):
            if value not in cache:
                try:
                    cache[value] = normalize_print_key(value)
                except ValueError:
                    if errors == "raise":
                        raise
                    cache[value] = None
            values.append(cache[value])
        result.iloc[slow_pos] = pd.array(values, dtype="str")
    return result


def parcel_key(swis: str, print_key: str) -> str:
    """Canonical parcel key ``"<swis>|<normalised print key>"``.

    Parameters
    ----------
    swis
        The 6-digit SWIS code (surrounding whitespace is removed).
    print_key
        The print key as written.

    Returns
    -------
    str
        For example ``parcel_key("104401", "043.011-0001-002.000")`` is
        ``"104401|43.11-1-2"``.

    Raises
    ------
    ValueError
        When the SWIS code is not 6 digits or the print key is unparseable.
    """
    return f"{validate_swis(swis)}|{normalize_print_key(print_key)}"


def validate_swis(swis: str) -> str:
    """Return the SWIS code stripped of whitespace, or raise ``ValueError``.

    Parameters
    ----------
    swis
        A SWIS code, which must be 6 digits.

    Returns
    -------
    str
        The code, stripped.
    """
    if not isinstance(swis, str):
        raise ValueError(f"SWIS code must be text, got {type(swis).__name__}")
    code = swis.strip()
    if _SWIS.fullmatch(code) is None:
        raise ValueError(f"SWIS code {swis!r} is not 6 digits")
    return code


def is_village_swis(swis: str) -> bool:
    """Whether a SWIS code is a village code.

    Parameters
    ----------
    swis
        A 6-digit SWIS code.

    Returns
    -------
    bool
        ``True`` unless the last two digits are ``00`` (the town as a whole)
        or ``89`` (the town outside villages).
    """
    return validate_swis(swis)[4:] not in ("00", "89")


def town_of_swis(swis: str) -> str:
    """The town-wide SWIS code of the town that contains ``swis``.

    Parameters
    ----------
    swis
        A 6-digit SWIS code (town, town-outside-village or village).

    Returns
    -------
    str
        The first four digits followed by ``"00"``: ``"104401"`` -> ``"104400"``.
    """
    return validate_swis(swis)[:4] + "00"


_DIGITS = re.compile(r"(\d+)")


def label_order(label: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that orders parcel labels as people read them.

    ``104489:888.500-1-2`` before ``104489:888.500-1-10``: runs of digits
    compare as numbers, the rest as text.
    """
    return tuple(
        (1, int(part)) if part.isdigit() else (0, part) for part in _DIGITS.split(label) if part
    )


def print_key_order(print_key: str) -> tuple[tuple[tuple[int, int | str], ...], ...]:
    """A sort key that orders print keys as a roll lists them.

    A print key is ``SECTION.SUBSECTION-BLOCK-LOT.SUBLOT-SUFFIX``, fields
    left blank where unused: ``20.-5-3`` (no subsection) comes before
    ``20.16-1-1``, and ``1.-1-2`` before ``1.-1-10``. Each field compares as
    :func:`label_order` does (digits as numbers), a blank field first.

    Examples
    --------
    >>> sorted(["20.16-1-1", "20.-20-1", "20.-5-3"], key=print_key_order)
    ['20.-5-3', '20.-20-1', '20.16-1-1']
    >>> sorted(["1.-1-2.1", "001.000-0001-003.000", "1.-1-2/A", "1.-1-2"], key=print_key_order)
    ['1.-1-2', '1.-1-2/A', '1.-1-2.1', '001.000-0001-003.000']
    """
    head, _, rest = print_key.strip().partition("-")
    section, _, subsection = head.partition(".")
    fields = [section, subsection, *re.split(r"[-./]", rest)] if rest else [section, subsection]
    # a field of zeros is a blank one (the long SBL form, 001.000-0001-004.000,
    # is 1.-1-4), and trailing blanks are no fields
    key = [label_order(f) if f.strip("0") else ((1, -1),) for f in fields]
    while len(key) > 1 and key[-1] == ((1, -1),):
        key.pop()
    return tuple(key)


def schedule_keys(swis_codes: pd.Series, print_keys: pd.Series) -> list[str]:
    """``parcel_key(swis, print key)`` of each row, ``"<swis>|<print key>"`` when invalid.

    The key of each row of a parcel schedule (``parcels.csv``, the
    evaluation's ``parcels``), to join it to the parcel layer or the roll.

    Plain 6-digit SWIS codes with a print key that the vectorised
    :func:`normalize_print_keys` reads go the fast way (same
    rule); every other row goes through :func:`parcel_key`.
    """
    swis = swis_codes.astype("str").reset_index(drop=True)
    pk = print_keys.astype("str").reset_index(drop=True)
    norm = normalize_print_keys(pk.fillna(""), errors="coerce")
    fast = (swis.str.fullmatch("[0-9]{6}").fillna(False) & pk.notna() & norm.notna()).to_numpy(
        dtype=bool
    )
    keys: list[str] = (swis + "|" + norm).where(fast, "").tolist()
    for i in np.flatnonzero(~fast).tolist():
        s, p = swis.iloc[i], pk.iloc[i]
        try:
            keys[i] = parcel_key(s, p)
        except ValueError:
            keys[i] = f"{s}|{p}"
    return keys
