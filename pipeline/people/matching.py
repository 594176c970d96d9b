"""Matching signers to owners and voters: blocked comparisons in tiers, with a review queue.

One engine (:class:`Reference` + :func:`match_people`) serves both the owner
pages (references: the persons on the roll, with their parcels' situs and
mailing addresses) and the resident pages (references: the voters, with their
residence address). :func:`owner_matcher` implements
:class:`pipeline.people.OwnerMatcher`.

Names
-----
A name as written is read by :func:`pipeline.people.names.person_name_parts`
(case, punctuation, accents, ``"Smith, Mary B"``, titles, the suffix split
off). Against a reference (first, middle, last, suffix), the surname is the
trailing token(s) whose letters equal the reference's surname without spaces
or hyphens (``"Van Alstyne"`` == ``"VANALSTYNE"``, ``"Smith-Jones"`` ==
``"Smith Jones"``, ``"O'Brien"`` == ``"OBrien"``); the first token is the first
name; the tokens between are the middle name(s).

======================  ==========================  ===========  ==========
part                    finding                     score cut    auto?
======================  ==========================  ===========  ==========
surname                 equal                       0            yes
surname                 one part of a double name   10           no
surname                 close (Park/Parker, typo)   15           no
first name              equal                       0            yes
first name              initial only                15           no
first name              nickname (Bill/William)     10           no
first name              close (typo)                15           no
middle                  equal initial / missing     0            yes
middle                  written, none on record     10           no
middle                  different initials          no match
suffix                  equal                       0            yes
suffix                  not written, record has     0            yes, unless a
                                                                 Jr/Sr pair of
                                                                 that name exists
suffix                  written, record has none    10           no
suffix                  different (Jr vs Sr)        no match
======================  ==========================  ===========  ==========

The name score is 100 minus the cuts. Addresses agree when the normalised keys
are equal (situs or mailing of an owner's parcel; residence of a voter); they
are *close* when the house number is equal and the street names are at least
85 % alike (rapidfuzz ``ratio``: a typo), or when no number is written and the
street is the same.

Tiers
-----
* **accept**: a reference whose name is auto-acceptable *and* whose address
  agrees exactly, and all such references are one identity. Owners of the
  same full name under other addresses are other identities (a wrong credit is
  worse than a review): the accepted line's note names their parcels, and a
  match decision accepting one adds it to the line's parcels.
* **review** (``needs_review``, no credit until a match decision settles it):
  several identities would be accepted; or a reference whose name matches in a
  review tier at an agreeing or close address, or an auto-acceptable name at a
  close address; or (owners only) an auto-acceptable name on the roll at
  another address.
* **none**: nothing of the above.

Blocking
--------
Candidates come from two hash blocks, never from a full cross product: (surname
key, first-name key) — first-name keys are the name, its canonical forms in the
``nicknames`` list and its initial — and the exact normalised address. So a
typo in the surname is found at the right address, a typo in the street with
the right name, and only both together are missed.

Speed
-----
The references are normalised once per distinct spelling and blocked by hash
grouping (no Python loop over 200,000 parcels); a name block keeps only the
first names that can pass the first-name test of :func:`compare_names` (the
rest would be rejected there), and a written name is compared once per
distinct reference name (first, middle initial, surname, suffix). The tiers
and the candidates are those of the pair-by-pair definition above.
"""

from __future__ import annotations

import datetime as dt
import heapq
import re
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Generic, TypeVar

import numpy as np
import pandas as pd
from rapidfuzz import fuzz, process
from rapidfuzz.distance import JaroWinkler

from pipeline.frames import PARCEL_KEY
from pipeline.law.checks import unauthenticated_lines
from pipeline.people import MATCH_COLUMNS
from pipeline.people.names import (
    CLOSE_NAME_JW,
    first_name_keys,
    fold_accents,
    given_names_alike,
    nickname_equivalent,
    normalize_address_columns,
    normalize_address_text,
    normalize_name,
    person_name_parts,
    spouse_style_title,
)
from pipeline.people.owners import parse_owner_text, person_like_names
from pipeline.tools.processes import fork_call

__all__ = [
    "OWNER_MATCH_EXTRA_COLUMNS",
    "Candidate",
    "MatchResult",
    "NameComparison",
    "Reference",
    "RollLookups",
    "compare_addresses",
    "compare_names",
    "match_people",
    "owner_matcher",
    "owner_references",
    "roll_lookups",
]

K = TypeVar("K")

#: Columns an :func:`owner_matcher` result has after :data:`MATCH_COLUMNS`.
OWNER_MATCH_EXTRA_COLUMNS: tuple[str, ...] = ("note", "candidates")

ADDRESS_CLOSE_RATIO = 85.0
FIRST_CLOSE_JW = CLOSE_NAME_JW
LAST_CLOSE_JW = 0.9
MAX_ADDRESS_BLOCK = 400


@dataclass(frozen=True)
class NameComparison:
    """How a written name compares with a reference's name."""

    score: float
    auto: bool
    suffix_missing: bool
    evidence: str


def _compact(tokens: Iterable[str]) -> str:
    return "".join(tokens)


def _last_close(a: str, b: str) -> bool:
    if len(a) < 3 or len(b) < 3:
        return False
    short, long_ = sorted((a, b), key=len)
    if long_.startswith(short) and len(long_) - len(short) <= 2:
        return True  # PARK / PARKER
    return JaroWinkler.similarity(a, b) >= LAST_CLOSE_JW


def compare_names(
    tokens: Sequence[str],
    suffix: str,
    first: str,
    middle: str,
    last: str,
    ref_suffix: str,
) -> NameComparison | None:
    """Compare a written name with a reference name (see the module's table).

    Parameters
    ----------
    tokens, suffix
        The written name from :func:`~pipeline.people.names.person_name_parts`.
    first, middle, last, ref_suffix
        The reference's parts, normalised (upper case, no accents); ``last``
        may hold spaces (``"VAN ALSTYNE"``, ``"SMITH JONES"``).

    Returns
    -------
    NameComparison or None
        ``None`` when the names are different people's.
    """
    if len(tokens) < 2 or not last:
        return None
    return _compare_names(tokens, _tails(tokens), suffix, first, middle, last, ref_suffix)


def _tails(tokens: Sequence[str]) -> dict[str, int]:
    """``"".join(tokens[j:]) -> j`` for ``j >= 1``, the smallest ``j`` of each string."""
    out: dict[str, int] = {}
    for j in range(len(tokens) - 1, 0, -1):
        out[_compact(tokens[j:])] = j
    return out


#: A surname's parts and their compacted letters, once per distinct surname.
_SURNAMES: dict[str, tuple[tuple[str, ...], str]] = {}

#: One shared (frozen) :class:`NameComparison` per distinct value.
_COMPARISONS: dict[tuple[float, bool, bool, str], NameComparison] = {}


def _compare_names(
    tokens: Sequence[str],
    tails: dict[str, int],
    suffix: str,
    first: str,
    middle: str,
    last: str,
    ref_suffix: str,
) -> NameComparison | None:
    """:func:`compare_names` of at least two tokens and a surname, given :func:`_tails`.

    Notes
    -----
    The surname is the trailing tokens from the smallest ``j >= 1`` whose
    compacted letters equal the compacted surname: ``tails.get(lc, 0)``.
    """
    got_last = _SURNAMES.get(last)
    if got_last is None:
        if len(_SURNAMES) > 1_000_000:
            _SURNAMES.clear()
        parts = tuple(last.split())
        got_last = _SURNAMES[last] = (parts, _compact(parts))
    last_parts, lc = got_last
    cuts: list[tuple[float, str]] = []
    k = tails.get(lc, 0)
    if not k:
        if len(last_parts) > 1 and tokens[-1] in last_parts:
            k, cut = len(tokens) - 1, (10.0, "one part of the surname")
        elif _last_close(tokens[-1], lc):
            k, cut = len(tokens) - 1, (15.0, "surname close")
        else:
            return None
        cuts.append(cut)
    q_first, q_middle = tokens[0], tokens[1:k]
    if q_first != first:
        if (len(q_first) == 1 and first.startswith(q_first)) or (
            len(first) == 1 and q_first.startswith(first)
        ):
            cuts.append((15.0, "first name as an initial"))
        elif nickname_equivalent(q_first, first):
            cuts.append((10.0, f"nickname {q_first}/{first}"))
        elif len(q_first) > 2 and JaroWinkler.similarity(q_first, first) >= FIRST_CLOSE_JW:
            cuts.append((15.0, "first name close"))
        else:
            return None
    ref_middle = middle.split()
    if q_middle and ref_middle:
        qm, rm = q_middle[0], ref_middle[0]
        if qm[0] != rm[0]:
            return None
        if len(qm) > 1 and len(rm) > 1 and qm != rm:
            # both written in full, one initial: JOHN ALLEN SMITH is not
            # "John Albert Smith" without a look (a close spelling may be a slip)
            if given_names_alike(qm, rm):
                cuts.append((15.0, f"middle name close {qm}/{rm}"))
            else:
                cuts.append((25.0, f"middle name {qm} written, {rm} on record"))
    elif q_middle:
        cuts.append((10.0, "middle name written, none on record"))
    missing = False
    if suffix != ref_suffix:
        if not suffix:
            missing = True
        elif not ref_suffix:
            cuts.append((10.0, f"suffix {suffix} written, none on record"))
        else:
            return None
    auto = not cuts
    evidence = "; ".join(c[1] for c in cuts) or "name agrees"
    if missing:
        evidence += f"; suffix {ref_suffix} not written"
    value = (100.0 - sum(c[0] for c in cuts), auto, missing, evidence)
    got = _COMPARISONS.get(value)
    if got is None:
        if len(_COMPARISONS) > 100_000:
            _COMPARISONS.clear()
        got = _COMPARISONS[value] = NameComparison(*value)
    return got


#: The town a street address is keyed with where the street is in several
#: towns (:func:`_town_keyed`): ``"1 PINE ST [104400]"``.
_TOWN_KEY = re.compile(r" \[\d{6}\]$")


def _without_town(key: str) -> str:
    """An address key without its town key (``"1 PINE ST [104400]"`` -> ``"1 PINE ST"``)."""
    return _TOWN_KEY.sub("", key) if key.endswith("]") else key


def _split_address(addr: str) -> tuple[str, str]:
    """House number and street of an address key (its town key, if any, left out).

    A street of one name in two towns is two homes for an address that must
    agree (:func:`_agree`'s "same"), but close for one that may (a typo, a
    review): the town key is no part of the street compared.
    """
    head, _, rest = _without_town(addr).partition(" ")
    if head and head[0].isdigit():
        return head, rest
    return "", addr


def compare_addresses(written: str, addresses: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """How a written address (normalised) compares with a reference's addresses.

    Parameters
    ----------
    written
        Key from :func:`~pipeline.people.names.normalize_address_text`.
    addresses
        ``(key, kind)`` pairs of the reference, e.g. ``("12 OAK ST", "situs")``.

    Returns
    -------
    tuple[str, str]
        ``(agreement, kind)``: agreement ``"same"``, ``"close"`` or ``""``
        (none), and the kind of the best address (``""`` when none).
    """
    best = ("", "")
    if not written:
        return best
    num, street = _split_address(written)
    for key, kind in addresses:
        if key == written:
            return "same", kind
        if best[0]:
            continue
        rnum, rstreet = _split_address(key)
        if (num and num == rnum and _streets_close(street, rstreet)) or (
            not num and street and street == rstreet
        ):
            best = ("close", kind)
    return best


def _streets_close(written: str, recorded: str) -> bool:
    """Street names alike (ratio at least :data:`ADDRESS_CLOSE_RATIO`), or one the other's start.

    "MAIN" for "MAIN ST": a street written without its type is close (a
    review), never the same.
    """
    if fuzz.ratio(written, recorded) >= ADDRESS_CLOSE_RATIO:
        return True
    short, long = sorted((written, recorded), key=len)
    return bool(short) and long.startswith(short + " ")


def _agree(
    written: str, num: str, street: str, addresses: Sequence[tuple[str, str]]
) -> tuple[str, str]:
    """:func:`compare_addresses` with ``written`` already split into ``num``, ``street``.

    Notes
    -----
    ``compare_addresses`` returns the kind of the first equal key, else of the
    first close one: one with the same house number (the key is ``num`` or
    starts with ``num + " "``) whose street is at least
    :data:`ADDRESS_CLOSE_RATIO` alike, or, with no number written, one with
    the same street.
    """
    if not written:
        return "", ""
    for key, kind in addresses:
        if key == written:
            return "same", kind
    if num:
        cut = len(num) + 1
        for key, kind in addresses:
            if (key == num or (key.startswith(num) and key[cut - 1 : cut] == " ")) and (
                _streets_close(street, _without_town(key[cut:]))
            ):
                return "close", kind
    elif street:
        for key, kind in addresses:
            if _split_address(key)[1] == street:
                return "close", kind
    return "", ""


def _codes(keys: list[np.ndarray]) -> np.ndarray:
    """Group numbers ``0..g-1`` of the rows by the tuple of ``keys`` (first seen, first)."""
    codes = pd.factorize(keys[0])[0]
    for k in keys[1:]:
        c, u = pd.factorize(k)
        codes = pd.factorize(codes * len(u) + c)[0]
    return codes


class _Blocks(Generic[K]):
    """A read-only ``key -> list of references`` map stored as one flat list."""

    __slots__ = ("_flat", "_span")

    def __init__(self, flat: list[Any], span: dict[K, tuple[int, int]]) -> None:
        self._flat = flat
        self._span = span

    def get(self, key: K, default: list[Any] | None = None) -> list[Any]:
        """The references under ``key`` in the order given (``default`` or ``[]``)."""
        span = self._span.get(key)
        if span is None:
            return [] if default is None else default
        return self._flat[span[0] : span[1]]

    def __contains__(self, key: object) -> bool:
        return key in self._span

    def __len__(self) -> int:
        return len(self._span)

    def __iter__(self) -> Iterator[K]:
        return iter(self._span)


def _groups(
    values: np.ndarray, keys: list[np.ndarray], *, codes: np.ndarray | None = None
) -> _Blocks[Any]:
    """``key -> values`` (in the order given) for the rows sharing each key.

    A key is the element of ``keys[0]`` when one array is given, else the tuple
    of the elements of ``keys``. Hash factorisation and one stable sort, no
    Python loop over the rows. ``codes``, when given, are group numbers of the
    rows equal where (and only where) the keys are equal (:func:`_codes` of
    integer codes of the keys, say).
    """
    if not len(values):
        return _Blocks([], {})
    if codes is None:
        codes = _codes(keys)
    order = np.argsort(codes, kind="stable")
    bounds = (np.flatnonzero(np.diff(codes[order])) + 1).tolist()
    starts = order[[0, *bounds]]
    if len(keys) == 1:
        labels: list[Any] = keys[0][starts].tolist()
    else:
        labels = list(zip(*(k[starts].tolist() for k in keys), strict=True))
    edges = [0, *bounds, len(order)]
    return _Blocks(
        values[order].tolist(),
        dict(zip(labels, pairwise(edges), strict=True)),
    )


#: Generational suffixes as a reference's suffix field may spell them.
#: The note of an owner line whose name is no owner's on the roll, near or far.
NO_OWNER_NOTE = (
    "no owner of the roll matches this name, at this address or elsewhere (a name that "
    "differs in its middle initial or its suffix is another person's)"
)

#: Owner pages with at least this many lines are matched in two processes
#: (:func:`owner_matcher`); below it a fork costs more than it saves.
_SPLIT_LINES = 2000

_SUFFIX_SPELLING = {"JUNIOR": "JR", "SENIOR": "SR", "2ND": "II", "3RD": "III", "4TH": "IV"}


def _norm_codes(
    values: Sequence[str] | pd.Series, spelling: dict[str, str] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Normalised name keys of ``values`` as ``(codes, keys)``: row ``i`` is ``keys[codes[i]]``.

    Each distinct value is normalised once (:func:`normalize_name` of
    :func:`fold_accents`; a missing or non-text value gives ``""``), then
    respelled by ``spelling``; ``keys`` are distinct, so equal keys have equal
    codes.
    """
    if isinstance(values, pd.Series) and isinstance(values.dtype, pd.StringDtype):
        raw_codes, uniq = pd.factorize(values)
        codes = np.asarray(raw_codes)
        distinct: list[Any] = uniq.tolist()
    else:
        codes, uniq_arr = pd.factorize(np.asarray(values, dtype=object))
        distinct = uniq_arr.tolist()
    keys = [normalize_name(fold_accents(v)) if isinstance(v, str) else "" for v in distinct]
    if spelling:
        keys = [spelling.get(k, k) for k in keys]
    keys.append("")  # the code -1 of a missing value
    key_codes, key_values = pd.factorize(np.asarray(keys, dtype=object))
    return key_codes[codes], np.asarray(key_values, dtype=object)


def _ragged(starts: np.ndarray, which: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Positions ``starts[w] .. starts[w] + counts[k] - 1`` for each ``w = which[k]``, in order."""
    total = int(counts.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    begin = np.repeat(starts[which], counts)
    offset = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    out: np.ndarray = begin + offset
    return out


def _factorize_tuples(values: list[Any]) -> tuple[np.ndarray, list[Any]]:
    """``(codes, distinct)`` of hashable values, numbered in first-seen order."""
    seen: dict[Any, int] = {}
    codes = np.fromiter(
        (seen.setdefault(v, len(seen)) for v in values), dtype=np.int64, count=len(values)
    )
    return codes, list(seen)


def _linked_initials(
    rows: np.ndarray, groups: np.ndarray, initial: np.ndarray, blank: int
) -> np.ndarray:
    """The middle initial each reference is linked by (codes of ``initial``).

    Parameters
    ----------
    rows
        The reference of each (reference, address) pair.
    groups
        The group of each pair: first name, surname, address and suffix.
    initial
        The middle-initial code of every reference.
    blank
        The code of "no middle initial" (-1 when every reference has one).

    Returns
    -------
    numpy.ndarray
        Per reference: its own initial; for one written without a middle
        initial, the one initial that the references of its name have at
        its addresses, when they all have the same one (``JOHN SMITH`` and
        ``JOHN A SMITH`` at one address are one person), else none.

    Notes
    -----
    ``JOHN A SMITH`` and ``JOHN B SMITH`` at one address are two people
    (father and son, say): a wrong credit is worse than a review. A
    reference without an initial that meets two initials (at one address or
    at two) takes neither, so that it never joins the two through itself.
    """
    out = initial.copy()
    if blank < 0 or not len(rows):
        return out
    own = initial[rows]
    given = own != blank
    # the distinct initials given in each group
    pairs = pd.DataFrame({"g": groups[given], "i": own[given]}).drop_duplicates()
    per_group = pairs.groupby("g")["i"].agg(["nunique", "first"])
    n_groups = int(groups.max()) + 1
    count = np.zeros(n_groups, dtype=np.int64)
    only = np.full(n_groups, -1, dtype=np.int64)
    count[per_group.index.to_numpy()] = per_group["nunique"].to_numpy()
    only[per_group.index.to_numpy()] = per_group["first"].to_numpy()
    # for the pairs of references without an initial: the group's one
    # initial, -2 where the group has several, nothing where it has none
    bare = ~given
    cand = np.where(count[groups[bare]] > 1, -2, only[groups[bare]])
    met = pd.DataFrame({"r": rows[bare], "c": cand})
    met = met[met["c"] != -1].drop_duplicates()
    per_ref = met.groupby("r")["c"].agg(["nunique", "first"])
    one = per_ref[(per_ref["nunique"] == 1) & (per_ref["first"] >= 0)]
    out[one.index.to_numpy()] = one["first"].to_numpy()
    return out


def _first_ok(q_first: str, first: str) -> bool:
    """Whether :func:`compare_names` gets past the first name (same tests, same order)."""
    if q_first == first:
        return True
    if (len(q_first) == 1 and first.startswith(q_first)) or (
        len(first) == 1 and q_first.startswith(first)
    ):
        return True
    if nickname_equivalent(q_first, first):
        return True
    return len(q_first) > 2 and JaroWinkler.similarity(q_first, first) >= FIRST_CLOSE_JW


@dataclass
class Reference:
    """The people one matches against, normalised and blocked.

    Build it with :meth:`build`. ``identity[i]`` groups references that are
    one person (owners: same name sharing an address; voters: each alone).

    The name block is held as ``(surname key, first name) -> references``
    (``by_last_first``) and ``surname key -> first names`` (``firsts_by_last``):
    a reference is in the block of ``(surname key, first-name key)`` when its
    surname key is that one and its first name has that key.
    """

    first: list[str]
    middle: list[str]
    last: list[str]
    suffix: list[str]
    addresses: list[tuple[tuple[str, str], ...]]
    identity: list[int]
    label: list[str]
    by_last_first: _Blocks[tuple[str, str]] = field(default_factory=lambda: _Blocks([], {}))
    firsts_by_last: dict[str, list[str]] = field(default_factory=dict)
    by_address: _Blocks[str] = field(default_factory=lambda: _Blocks([], {}))
    by_fullname: _Blocks[tuple[str, str]] = field(default_factory=lambda: _Blocks([], {}))
    _first_pair: dict[tuple[str, str], bool] = field(default_factory=dict, repr=False)
    _members: _Blocks[int] | None = field(default=None, repr=False)
    _name_key: list[tuple[str, str, str, str]] = field(default_factory=list, repr=False)
    #: (first, first word of the middle name, surname, suffix): what names are compared on
    _compare_key: list[tuple[str, str, str, str]] = field(default_factory=list, repr=False)
    _name_cache: dict[
        tuple[tuple[str, ...], str, tuple[str, str, str, str]], NameComparison | None
    ] = field(default_factory=dict, repr=False)
    _name_ids: list[int] | None = field(default=None, repr=False)
    _first_index: dict[str, dict[str, list[str]]] = field(default_factory=dict, repr=False)
    _query_keys: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)

    @classmethod
    def build(
        cls,
        first: Sequence[str] | pd.Series,
        middle: Sequence[str] | pd.Series,
        last: Sequence[str] | pd.Series,
        suffix: Sequence[str] | pd.Series,
        addresses: Sequence[tuple[tuple[str, str], ...]],
        label: Sequence[str],
        *,
        link_identities: bool,
        address_groups: tuple[np.ndarray, Sequence[tuple[tuple[str, str], ...]]] | None = None,
    ) -> Reference:
        """Normalise the names and build the blocks.

        Parameters
        ----------
        first, middle, last, suffix
            Name parts as recorded (any case, accents, punctuation).
        addresses
            Normalised ``(key, kind)`` addresses of each reference.
        label
            What a match to the reference is reported as.
        link_identities
            Link references with the same first name, surname and suffix that
            share an address into one identity (owners); otherwise every
            reference is its own.
        address_groups
            Optional ``(codes, distinct)`` with ``addresses[i] ==
            distinct[codes[i]]`` (the references of one parcel share its
            addresses): the addresses are then read once per group.

        Notes
        -----
        Each distinct spelling is normalised once; the blocks are built by
        hash grouping (pandas), not by a Python loop over the references.
        """

        n = len(first)
        f_c, f_u = _norm_codes(first)
        m_c, m_u = _norm_codes(middle)
        l_c, l_u = _norm_codes(last)
        s_c, s_u = _norm_codes(suffix, _SUFFIX_SPELLING)
        f_arr, m_arr, la_arr, s_arr = f_u[f_c], m_u[m_c], l_u[l_c], s_u[s_c]
        f, m, la, s = f_arr.tolist(), m_arr.tolist(), la_arr.tolist(), s_arr.tolist()
        addrs = list(addresses)
        ref = cls(f, m, la, s, addrs, list(range(n)), list(label))
        # the middle initial, once per distinct middle name
        mi_c, mi_u = pd.factorize(np.asarray([x[:1] for x in m_u.tolist()], dtype=object))
        mi_c = mi_c[m_c] if n else mi_c[:0]
        ref._name_key = list(zip(f, mi_u[mi_c].tolist(), la, s, strict=True))
        # the first word of the middle name, once per distinct middle name: a
        # middle name written in full is compared in full (compare_names)
        mw_c, mw_u = pd.factorize(
            np.asarray([(x.split() or [""])[0] for x in m_u.tolist()], dtype=object)
        )
        mw_c = mw_c[m_c] if n else mw_c[:0]
        ref._compare_key = list(zip(f, mw_u[mw_c].tolist(), la, s, strict=True))
        ref._name_ids = _codes([f_c, mw_c, l_c, s_c]).tolist() if n else []
        rows = np.arange(n, dtype=np.int64)
        named = (f_u != "")[f_c] & (l_u != "")[l_c] if n else np.zeros(0, dtype=bool)
        # surname keys of each distinct surname: the whole (compacted) and, for a
        # double name, each part
        lks_u: list[tuple[str, ...]] = []
        for name in l_u.tolist():
            parts = name.split()
            lks_u.append(
                tuple(sorted({_compact(parts), *parts}))
                if len(parts) > 1
                else (parts[0],)
                if parts
                else ("",)
            )
        compact_u = np.asarray([_compact(x.split()) for x in l_u.tolist()], dtype=object)
        lc_c, _ = pd.factorize(compact_u)
        nr = rows[named]
        nf_c, nl_c = f_c[named], l_c[named]
        nf = f_u[nf_c]
        counts_u = np.asarray([len(t) for t in lks_u], dtype=np.int64)
        counts = counts_u[nl_c]
        lk_u_flat = np.asarray([k for t in lks_u for k in t], dtype=object)
        if len(counts) and (counts_u == 1).all():
            lk_pos = nl_c
        else:
            lk_pos = _ragged(np.cumsum(counts_u) - counts_u, nl_c, counts)
        lk_flat = lk_u_flat[lk_pos]
        lk_code = pd.factorize(lk_u_flat)[0][lk_pos]
        ref.by_last_first = _groups(
            np.repeat(nr, counts),
            [lk_flat, np.repeat(nf, counts)],
            codes=_codes([lk_code, np.repeat(nf_c, counts)]),
        )
        for lk, fn in ref.by_last_first:
            ref.firsts_by_last.setdefault(lk, []).append(fn)
        nlc_c = lc_c[nl_c]
        lc = compact_u[nl_c]
        ref.by_fullname = _groups(nr, [nf, lc], codes=_codes([nf_c, nlc_c]))
        # addresses: every named reference once per address it lists
        t_u: Sequence[tuple[tuple[str, str], ...]]
        if address_groups is None:
            t_c, t_u = _factorize_tuples([addrs[i] for i in nr.tolist()])
        else:
            t_c, t_u = np.asarray(address_groups[0], dtype=np.int64)[nr], address_groups[1]
        n_addr_u = np.asarray([len(t) for t in t_u], dtype=np.int64)
        a_u_flat = np.asarray([a for t in t_u for a, _ in t], dtype=object)
        n_addr = n_addr_u[t_c]
        a_pos = _ragged(np.cumsum(n_addr_u) - n_addr_u, t_c, n_addr)
        a_flat = a_u_flat[a_pos]
        a_code = pd.factorize(a_flat)[0] if len(a_flat) else np.zeros(0, dtype=np.int64)
        ref.by_address = _groups(np.repeat(nr, n_addr), [a_flat], codes=a_code)
        if link_identities:
            link_rows = np.repeat(nr, n_addr)
            link_keys = [
                np.repeat(nf_c, n_addr),
                np.repeat(nlc_c, n_addr),
                a_code,
                np.repeat(s_c[named], n_addr),
            ]
            blank = np.flatnonzero(mi_u == "")
            initial = _linked_initials(
                link_rows, _codes(link_keys), mi_c, int(blank[0]) if len(blank) else -1
            )
            # owners of one name listed twice on one parcel (the same label) are
            # two owners (the divisor counts both): the k-th of them on a parcel
            # links only to the k-th elsewhere, never to the other on its parcel
            lab_c = (
                np.asarray(address_groups[0], dtype=np.int64)  # the parcel of each reference
                if address_groups is not None
                else pd.factorize(np.asarray(label, dtype=object))[0]
            )
            same = _codes([lab_c[nr], nf_c, nlc_c, s_c[named], initial[nr]])
            rank = pd.Series(same).groupby(same).cumcount().to_numpy(dtype=np.int64)
            # middle names written in full that differ (ALLEN and ALBERT: two
            # people, as compare_names reads them) split a group their one
            # initial would join; in such a group an initial alone (A) is
            # neither of them. Groups without such a conflict link as before.
            group = _codes([*link_keys, initial[link_rows]])
            word = mw_u[mw_c[link_rows]].astype(str) if len(link_rows) else np.zeros(0, str)
            full = np.char.str_len(word) > 1 if len(word) else np.zeros(0, dtype=bool)
            words = pd.DataFrame({"g": group[full], "w": word[full]}).drop_duplicates()
            torn = np.isin(group, words["g"][words["g"].duplicated()].to_numpy())
            split = pd.factorize(np.where(torn, word, ""))[0]
            ref._link(link_rows, [*link_keys, initial[link_rows], split, np.repeat(rank, n_addr)])
        return ref

    def _link(self, rows: np.ndarray, keys: list[np.ndarray]) -> None:
        """Join references sharing first name, surname, address, suffix and middle initial.

        ``rows[k]`` has the key ``(first, compacted surname, address, suffix)``
        of ``keys[...][k]``; every reference sharing a key with another is one
        identity with it (transitively), and an identity is numbered by its
        smallest reference.
        """
        if not len(rows):
            return
        codes = _codes(keys)
        n_keys = int(codes.max()) + 1
        big = np.iinfo(np.int64).max
        # label propagation: each reference takes the smallest label of the keys
        # it shares, then the label of its label, until nothing changes; the
        # label of a component is then its smallest reference
        ident = np.asarray(self.identity, dtype=np.int64)
        while True:
            smallest = np.full(n_keys, big, dtype=np.int64)
            np.minimum.at(smallest, codes, ident[rows])
            new = ident.copy()
            np.minimum.at(new, rows, smallest[codes])
            new = new[new]
            if np.array_equal(new, ident):
                break
            ident = new
        self.identity[:] = ident.tolist()

    def first_can_match(self, q_first: str, first: str) -> bool:
        """Whether a written first name shares a block key with ``first`` and passes its test.

        The block keys of a first name are the name, its canonical forms
        (:func:`~pipeline.people.names.first_name_keys`) and its initial.
        """
        key = (q_first, first)
        got = self._first_pair.get(key)
        if got is None:
            shared = (first_name_keys(q_first) | {q_first[:1]}) & (
                first_name_keys(first) | {first[:1]}
            )
            got = bool(shared) and _first_ok(q_first, first)
            self._first_pair[key] = got
        return got

    def firsts_sharing_key(self, lk: str, q_first: str) -> list[str]:
        """The first names of surname key ``lk`` sharing a block key with ``q_first``.

        The same names as ``[fn for fn in firsts_by_last[lk] if keys(q_first) &
        keys(fn)]`` (``keys`` as in :meth:`first_can_match`), possibly in another
        order, found through a ``block key -> first names`` map of ``lk`` built
        on first use instead of testing every first name of the surname.
        """
        index = self._first_index.get(lk)
        if index is None:
            index = {}
            for fn in self.firsts_by_last.get(lk, ()):
                for key in first_name_keys(fn) | {fn[:1]}:
                    index.setdefault(key, []).append(fn)
            self._first_index[lk] = index
        qkeys = self._query_keys.get(q_first)
        if qkeys is None:
            qkeys = self._query_keys[q_first] = tuple(first_name_keys(q_first) | {q_first[:1]})
        if len(qkeys) == 1:
            return index.get(qkeys[0], [])
        seen: dict[str, None] = {}
        for key in qkeys:
            for fn in index.get(key, ()):
                seen[fn] = None
        return list(seen)

    def members(self, identity: int) -> list[int]:
        """References of one identity."""
        if self._members is None:
            ids = np.asarray(self.identity, dtype=np.int64)
            self._members = _groups(np.arange(len(ids), dtype=np.int64), [ids])
        return self._members.get(identity, [identity])

    def compare(
        self,
        tokens: tuple[str, ...],
        suffix: str,
        i: int,
        *,
        tails: dict[str, int] | None = None,
    ) -> NameComparison | None:
        """:func:`compare_names` of a written name with reference ``i``, cached.

        Notes
        -----
        ``compare_names`` reads of the middle name only its first word (or its
        absence), so references differing only past it share one cached
        answer. ``tails`` is :func:`_tails` of ``tokens`` (computed when not
        given).
        """
        key = (tokens, suffix, self._compare_key[i])
        if key in self._name_cache:
            return self._name_cache[key]
        f, mi, la, sf = self._compare_key[i]
        if len(tokens) < 2 or not la:
            got = None
        else:
            got = _compare_names(
                tokens, _tails(tokens) if tails is None else tails, suffix, f, mi, la, sf
            )
        self._name_cache[key] = got
        return got

    def name_ids(self) -> list[int]:
        """Number of each reference's name as compared (first, middle word, surname, suffix)."""
        if self._name_ids is None:
            seen: dict[tuple[str, str, str, str], int] = {}
            self._name_ids = [seen.setdefault(k, len(seen)) for k in self._compare_key]
        return self._name_ids

    def name_of(self, i: int) -> str:
        """Display name of a reference."""
        return " ".join(
            p for p in (self.first[i], self.middle[i], self.last[i], self.suffix[i]) if p
        )


@dataclass(frozen=True)
class Candidate:
    """A reference considered for a line, with the evidence."""

    ref: int
    name_score: float
    name_evidence: str
    address: str  # "same" | "close" | ""
    address_kind: str  # "situs" | "mailing" | "residence" | ""
    auto: bool = False  # the name alone would allow an automatic match
    suffix_missing: bool = False


@dataclass(frozen=True)
class MatchResult:
    """The tier reached by one written name and address."""

    tier: str  # "accept" | "review" | "none"
    identity: int  # the accepted identity, -1 otherwise
    score: float
    note: str
    candidates: tuple[Candidate, ...]


def _candidates(ref: Reference, tokens: tuple[str, ...], address: str) -> tuple[set[int], set[int]]:
    """The name block (only first names that can match) and the address block of a line.

    Notes
    -----
    A reference of the name block whose first name fails the first-name test
    of :func:`compare_names` is left out here: ``compare_names`` would reject it.
    """
    by_name: set[int] = set()
    if len(tokens) >= 2:
        lkeys = {tokens[-1]}
        if len(tokens) >= 3:
            lkeys.add(_compact(tokens[-2:]))
        if len(tokens) >= 4:
            lkeys.add(_compact(tokens[-3:]))
        q_first = tokens[0]
        pair_ok = ref._first_pair
        for lk in lkeys:
            for fn in ref.firsts_sharing_key(lk, q_first):
                ok = pair_ok.get((q_first, fn))
                if ok is None:
                    ok = ref.first_can_match(q_first, fn)
                if ok:
                    by_name.update(ref.by_last_first.get((lk, fn)))
    at = ref.by_address.get(address, []) if address else []
    if len(at) > MAX_ADDRESS_BLOCK:
        at = []
    return by_name, set(at)


def match_people(
    ref: Reference,
    tokens: tuple[str, ...],
    suffix: str,
    address: str,
    *,
    review_name_elsewhere: bool,
    max_candidates: int = 5,
    candidates_on_accept: bool = True,
) -> MatchResult:
    """Match one written name and address against the references.

    Parameters
    ----------
    ref
        The references.
    tokens, suffix
        The written name (:func:`~pipeline.people.names.person_name_parts`).
    address
        The written address, normalised.
    review_name_elsewhere
        Send an auto-acceptable name found only at other addresses to review
        (owners: the roll's mailing address may be stale) rather than to none
        (voters: the residence written must be the registered one).
    max_candidates
        Candidates kept as evidence for a review.
    candidates_on_accept
        Keep the candidates of an accepted line too (``False``: an accepted
        line has none, for callers that read them only on a review).

    Returns
    -------
    MatchResult
    """
    by_name, by_addr = _candidates(ref, tokens, address)
    # one record per candidate whose name can match, in reference order:
    # (ref, comparison, address agreement, address kind)
    recs: list[tuple[int, NameComparison, str, str]] = []
    name_ids = ref.name_ids()
    addresses = ref.addresses
    num, street = _split_address(address)
    names: dict[int, NameComparison | None] = {}  # name key number -> comparison
    tails = _tails(tokens)
    name_key = ref._compare_key
    two = len(tokens) >= 2
    unsettled = False  # some record's address is neither same nor yet tested for close
    for i in sorted(by_name | by_addr):
        nid = name_ids[i]
        if nid in names:
            nc = names[nid]
        else:
            f, mi, la, sf = name_key[i]
            nc = _compare_names(tokens, tails, suffix, f, mi, la, sf) if two and la else None
            names[nid] = nc
        if nc is None:
            continue
        # the "same" test of _agree here; the "close" test only when needed
        for key, kind in addresses[i]:
            if key == address:
                recs.append((i, nc, "same", kind))
                break
        else:
            recs.append((i, nc, "", ""))
            unsettled = True
    if not recs:
        return MatchResult("none", -1, 0.0, "", ())

    def order(r: tuple[int, NameComparison, str, str]) -> tuple[float, bool, bool, str, int]:
        # the best name, an address that agrees, a home (situs) before a
        # mailing address, then the parcel's label: not the roll's order
        return (-r[1].score, r[2] != "same", r[3] != "situs", ref.label[r[0]], r[0])

    def candidate(r: tuple[int, NameComparison, str, str]) -> Candidate:
        nc = r[1]
        return Candidate(r[0], nc.score, nc.evidence, r[2], r[3], nc.auto, nc.suffix_missing)

    auto = [r for r in recs if r[1].auto and r[2] == "same"]
    idents = sorted({ref.identity[r[0]] for r in auto})
    if (
        unsettled
        and address
        and (candidates_on_accept or len(idents) != 1 or any(r[1].suffix_missing for r in auto))
    ):
        # every path but a plain accept reads the close addresses too
        recs = [
            r if r[2] else (r[0], r[1], *_agree(address, num, street, addresses[r[0]]))
            for r in recs
        ]
    # the order key ends with the (distinct) reference: nsmallest == sorted()[:k]
    kept: tuple[Candidate, ...] = ()
    if candidates_on_accept or len(idents) != 1:
        kept = tuple(candidate(r) for r in heapq.nsmallest(max_candidates, recs, key=order))
    elif any(r[1].suffix_missing for r in auto):
        # a possible review (a Jr/Sr pair): the candidates as evidence
        kept = tuple(candidate(r) for r in heapq.nsmallest(max_candidates, recs, key=order))
    if len(idents) == 1:
        # a Jr/Sr pair: a missing suffix is not enough when a namesake has another suffix
        missing = any(r[1].suffix_missing for r in auto)
        if missing:
            chosen = auto[0][0]
            namesakes = ref.by_fullname.get((ref.first[chosen], _compact(ref.last[chosen].split())))
            if not review_name_elsewhere:
                # a residence (voters): only a namesake living at the address written
                # can be the one meant; a Jr elsewhere is no rival of the Sr here
                namesakes = [
                    j for j in namesakes or () if any(k == address for k, _ in addresses[j])
                ]
            suffixes = {ref.suffix[j] for j in namesakes or ()}
            if len(suffixes) > 1:
                return MatchResult(
                    "review",
                    -1,
                    max(r[1].score for r in auto),
                    "suffix not written and the roll has "
                    + " and ".join(sorted(s or "no suffix" for s in suffixes))
                    + " of this name",
                    kept,
                )
        return MatchResult("accept", idents[0], max(r[1].score for r in auto), "", kept)
    if len(idents) > 1:
        labels = sorted({ref.label[r[0]] for r in auto})
        return MatchResult(
            "review",
            -1,
            max(r[1].score for r in auto),
            "several match: " + ";".join(labels),
            kept,
        )
    near = [r for r in recs if r[2] in ("same", "close")]
    if near:
        best = min(near, key=order)
        return MatchResult(
            "review",
            -1,
            best[1].score,
            f"review: {best[1].evidence}; address {best[2] or 'differs'} ({ref.label[best[0]]})",
            kept,
        )
    exact_elsewhere = [r for r in recs if r[1].auto and not r[1].suffix_missing]
    if exact_elsewhere:
        labels = sorted({ref.label[r[0]] for r in exact_elsewhere})
        note = "name found at another address: " + ";".join(labels[:5])
        if review_name_elsewhere:
            return MatchResult("review", -1, 100.0, note, kept)
        return MatchResult("none", -1, 0.0, note, kept)
    return MatchResult("none", -1, 0.0, "", kept)


#: A name written as signed on someone's behalf ("John Smith for ABC LLC").
_SIGNED_FOR = re.compile(r"(?i)(?:^|\s)(?:for|on behalf of|o/b/o)(?=\s)")
_SIGNED_FOR_NOTE = (
    "the name reads as signed for someone ('... for ...'): write whom it is for in "
    "signing_for, or decide the line"
)


def match_written_name(
    ref: Reference, name: str, address: str, *, review_name_elsewhere: bool
) -> tuple[tuple[str, ...], str, MatchResult]:
    """:func:`match_people` of a name as written: its tokens, suffix and result.

    The candidates are kept only where a review may need them (a name written
    ``Mrs. John Smith``, which :func:`spouse_style_review` sends to review).
    """
    tokens, suffix = person_name_parts(name)
    two = names_two_people(name)
    result = match_people(
        ref,
        tokens,
        suffix,
        address,
        review_name_elsewhere=review_name_elsewhere,
        candidates_on_accept=two or spouse_style_title(name),
    )
    if two and result.tier != "none":
        return (
            tokens,
            suffix,
            MatchResult("review", -1, result.score, _TWO_PEOPLE_NOTE, result.candidates),
        )
    return tokens, suffix, spouse_style_review(name, result)


#: A name written for two people: "John and Mary Smith", "John & Mary Smith".
_TWO_PEOPLE = re.compile(r"(?i)(?:^|[\s,])(?:and|&)(?=[\s,]|$)|\w&\w")
_TWO_PEOPLE_NOTE = (
    "the line names two people ('and' or '&'): each signer signs a line of their own; review"
)


def names_two_people(name: str) -> bool:
    """Whether a written name joins two people with "and" or "&" ("John & Mary Smith")."""
    return bool(_TWO_PEOPLE.search(name))


def spouse_style_review(name: str, result: MatchResult) -> MatchResult:
    """``result``, sent to review when the name is written ``Mrs. John Smith``.

    An automatic match of a name written after ``Mrs.``, ``Ms.`` or ``Miss``
    (:func:`~pipeline.people.names.spouse_style_title`) becomes a review with
    the same candidates (the caller asks :func:`match_people` to keep them
    for such a name): by an old custom the line may be the wife of the person
    named, who is not that person.
    """
    if result.tier != "accept" or not spouse_style_title(name):
        return result
    return MatchResult(
        "review",
        -1,
        result.score,
        "written after Mrs./Ms./Miss: the name may be her husband's (a wife is not "
        "the person named); review",
        result.candidates,
    )


# ------------------------------------------------------------------------- owners


def _text_series(frame: pd.DataFrame, name: str) -> pd.Series:
    """:func:`_text_col` as a ``str`` series on a fresh range index."""
    if name not in frame.columns:
        return pd.Series([""] * len(frame), dtype="str")
    s = frame[name]
    if isinstance(s.dtype, pd.StringDtype):
        return s.fillna("").reset_index(drop=True)
    return s.astype(object).where(s.notna(), "").astype(str).reset_index(drop=True)


def _text_col(frame: pd.DataFrame, name: str) -> list[str]:
    if name not in frame.columns:
        return [""] * len(frame)
    s = frame[name]
    if isinstance(s.dtype, pd.StringDtype):
        out: list[str] = s.fillna("").tolist()
        return out
    return s.astype(object).where(s.notna(), "").astype(str).tolist()


def _roll_addresses(
    roll: pd.DataFrame, *, situs_norm: Sequence[str] | pd.Series | None = None
) -> dict[str, tuple[tuple[str, str], ...]]:
    """``parcel_key`` -> normalised ``(address, "situs"|"mailing")`` pairs.

    :func:`_roll_addresses_away` without the cities away.
    """
    return _roll_addresses_away(roll, situs_norm=situs_norm)[0]


def _town_codes(places: Iterable[str]) -> dict[str, str]:
    """A town's name as a key (:func:`place_key`) -> its SWIS (``places`` a mapping; else none)."""
    if not isinstance(places, Mapping):
        return {}
    return {place_key(name): str(code) for name, code in places.items()}


def _town_keyed(
    roll: pd.DataFrame, situs: list[str], mailing: list[str], places: Iterable[str]
) -> tuple[list[str], list[str], frozenset[str]]:
    """Street addresses found in several towns keyed with the town.

    ``1 PINE ST`` in Harlow and ``1 PINE ST`` in Brinton are two homes: their
    situs keys become ``1 PINE ST [104400]`` and ``1 PINE ST [104600]`` (the
    record's ``municipality_code``), so two owners of one name there are not
    linked as one person. A mailing address of that street is keyed with the
    town its city names (``places``: town name -> SWIS), else with the
    record's own town when it is its situs (an owner living there, with a
    post office named otherwise), else left as it is.
    Returns the situs and mailing keys and the set of addresses so split.
    """
    if "municipality_code" not in roll.columns or not len(roll):
        return situs, mailing, frozenset()
    muni = _text_col(roll, "municipality_code")
    if len(set(muni)) < 2:
        return situs, mailing, frozenset()
    frame = pd.DataFrame({"a": situs, "t": muni})
    towns = frame[frame["a"] != ""].groupby("a", sort=False)["t"].nunique()
    split = frozenset(towns.index[towns.to_numpy() > 1].tolist())
    if not split:
        return situs, mailing, split
    codes = _town_codes(places)
    if "mailing_address_city" in roll.columns:
        written = _text_col(roll, "mailing_address_city")
        key_of = {c: place_key(c) for c in set(written)}  # a few hundred distinct cities
        city = [key_of[c] for c in written]
    else:
        city = [""] * len(roll)
    # a mailing address of such a street: in the town its city names, else
    # the record's own home when it is its situs (an owner living there, with
    # a post office named otherwise, or none), else left as written
    mailing = [
        m
        if m not in split
        else f"{m} [{codes[c]}]"
        if c in codes
        else f"{m} [{t}]"
        if m == a
        else m
        for m, a, t, c in zip(mailing, situs, muni, city, strict=True)
    ]
    situs = [f"{a} [{t}]" if a in split else a for a, t in zip(situs, muni, strict=True)]
    return situs, mailing, split


#: Words around a town's name as people write it ("Town of Harlow", "Harlow, NY").
_PLACE_NOISE = re.compile(r"^(?:TOWN|CITY|VILLAGE|HAMLET) OF |[ ,]+(?:NY|N Y|NEW YORK)$")


def place_key(text: str) -> str:
    """A town or city name as a key: ``"Town of Harlow, N.Y."`` -> ``"HARLOW"``."""
    t = re.sub(r"\s+", " ", re.sub(r"[.']", "", str(text)).upper()).strip(" ,")
    return _PLACE_NOISE.sub("", t).strip(" ,")


def _local_places(
    roll: pd.DataFrame, situs: list[str], mailing: list[str], places: Iterable[str] = ()
) -> tuple[list[str], frozenset[str]]:
    """Each record's mailing city as a key, and the places local to the towns.

    Local (keys of :func:`place_key`): the mailing city of every record whose
    mailing address is its own situs address (an owner living on the parcel:
    that post office serves the town), the roll's ``municipality_name``,
    ``places`` (the petition's town names) and ``""`` (no city written).
    """
    written = _text_col(roll, "mailing_address_city")
    key_of = {c: place_key(c) for c in set(written)}  # a few hundred distinct cities
    city = [key_of[c] for c in written]
    local = {c for c, a, m in zip(city, situs, mailing, strict=True) if m and m == a}
    if "municipality_name" in roll.columns:
        local |= {place_key(n) for n in set(_text_col(roll, "municipality_name"))}
    local |= {place_key(n) for n in places}
    local.add("")
    return city, frozenset(local)


def _home_places(
    roll: pd.DataFrame, situs: list[str], mailing: list[str], places: Iterable[str] = ()
) -> frozenset[str] | None:
    """The places local to the towns (:func:`_local_places`), or None when unknown.

    None when the roll names no post office of a home (no mailing city of an
    owner living on the parcel): a city written can then not be told local
    or away.
    """
    if "mailing_address_city" not in roll.columns or not len(roll):
        return None
    city, local = _local_places(roll, situs, mailing, places)
    if not any(c and m and m == a for c, a, m in zip(city, situs, mailing, strict=True)):
        return None
    return local


def _away_mailing(
    roll: pd.DataFrame, situs: list[str], mailing: list[str], places: Iterable[str] = ()
) -> tuple[list[str], frozenset[str]]:
    """Mailing addresses in a city away from the towns keyed with that city.

    Returns the mailing keys (``"12 MAIN ST (ALBANY)"`` for a city away) and
    the set of those keyed with a city away.

    Notes
    -----
    A street address names a home only with its city: 12 Main St in Albany is
    not 12 Main St in Harlow, and two JOHN SMITHs at those two addresses are
    two people. The cities of the towns are learned from the roll itself:
    the mailing city of every record whose mailing address is its own situs
    address (an owner living on the parcel: that post office serves the
    town), the roll's ``municipality_name`` and ``places`` (the names of the
    petition's towns, from the config: a roll read by
    :func:`pipeline.io.load.load_inputs` keeps no ``municipality_name``).
    A mailing address in any
    other city is keyed with its city, so that it is never the same address
    as a situs or a local mailing address (for linking owners and for
    matching lines); a line whose ``town`` is one of those cities is keyed
    the same way (:func:`owner_matcher`). A blank city is local.
    """
    if "mailing_address_city" not in roll.columns:
        return mailing, frozenset()
    city, local = _local_places(roll, situs, mailing, places)
    away = frozenset(c for c, m in zip(city, mailing, strict=True) if m and c not in local)
    if not away:
        return mailing, away
    keyed = [f"{m} ({c})" if m and c in away else m for c, m in zip(city, mailing, strict=True)]
    return keyed, frozenset(
        f"{m} ({c})" for c, m in zip(city, mailing, strict=True) if m and c in away
    )


def _roll_addresses_away(
    roll: pd.DataFrame,
    *,
    situs_norm: Sequence[str] | pd.Series | None = None,
    places: Iterable[str] = (),
) -> tuple[
    dict[str, tuple[tuple[str, str], ...]], frozenset[str], frozenset[str], frozenset[str] | None
]:
    """``parcel_key`` -> normalised ``(address, "situs"|"mailing")`` pairs, and those away.

    The second: the mailing addresses keyed with a city away from the towns
    (:func:`_away_mailing`, with the towns' names ``places``); the third: the
    street addresses found in several towns (:func:`_town_keyed`); the fourth:
    the places local to the towns (:func:`_home_places`).

    Situs addresses first, then mailing, each in roll order, without repeats;
    a parcel with no address is absent. ``situs_norm``, when given, is the
    normalised situs address of each roll record in roll order (the
    ``address_norm`` of :func:`pipeline.people.placement.situs_addresses`,
    which normalises the same three columns the same way): it is then not
    computed again.
    """
    if not len(roll):
        return {}, frozenset(), frozenset(), None
    keys = _text_col(roll, PARCEL_KEY)
    found = []
    for prefix in ("parcel_address", "mailing_address"):
        if prefix == "parcel_address" and situs_norm is not None:
            if len(situs_norm) != len(roll):
                raise ValueError("situs_norm must hold one address per roll record")
            found.append(
                situs_norm.tolist() if isinstance(situs_norm, pd.Series) else list(situs_norm)
            )
            continue
        cols = [_text_series(roll, f"{prefix}_{p}") for p in ("number", "street", "suff")]
        found.append(normalize_address_columns(*cols).tolist())
    situs, mailing = found
    local = _home_places(roll, situs, mailing, places)
    mailing, away = _away_mailing(roll, situs, mailing, places)
    situs, mailing, split = _town_keyed(roll, situs, mailing, places)
    if len(set(keys)) == len(keys):
        # each parcel once (the usual roll): no repeats to drop; the parcels
        # with a situs address first, then those with a mailing address only
        once: dict[str, tuple[tuple[str, str], ...]] = {
            k: ((a, "situs"), (m, "mailing")) if m else ((a, "situs"),)
            for k, a, m in zip(keys, situs, mailing, strict=True)
            if a
        }
        once.update(
            {
                k: ((m, "mailing"),)
                for k, a, m in zip(keys, situs, mailing, strict=True)
                if m and not a
            }
        )
        return once, away, split, local
    out: dict[str, list[tuple[str, str]]] = {}
    for kind, column in (("situs", situs), ("mailing", mailing)):
        for k, a in zip(keys, column, strict=True):
            if not a:
                continue
            got = out.get(k)
            if got is None:
                out[k] = [(a, kind)]
            elif (a, kind) not in got:
                got.append((a, kind))
    return {k: tuple(v) for k, v in out.items()}, away, split, local


def _labels(roll: pd.DataFrame) -> dict[str, str]:
    """``parcel_key -> "swis:print_key"`` (the key when both are blank); first record wins."""
    keys = _text_series(roll, PARCEL_KEY)
    sw = _text_series(roll, "swis_code")
    pk = _text_series(roll, "print_key_code")
    label = (sw + ":" + pk).where((sw != "") | (pk != ""), keys)
    first = ~keys.duplicated(keep="first").to_numpy(dtype=bool)
    return dict(zip(keys[first].tolist(), label[first].tolist(), strict=True))


@dataclass(frozen=True)
class RollLookups:
    """What owner matching reads from the roll alone, by parcel key.

    Built by :func:`roll_lookups`; it does not depend on the owners, so a
    caller can build it while the owners are being parsed.
    """

    #: ``parcel_key`` -> normalised ``(address, "situs"|"mailing")`` pairs.
    addresses: dict[str, tuple[tuple[str, str], ...]]
    #: ``parcel_key`` -> ``"swis:print_key"`` as the review queue shows it.
    labels: dict[str, str]
    #: Mailing addresses keyed with a city away from the towns (:func:`_away_mailing`).
    away: frozenset[str] = frozenset()
    #: Street addresses found in several towns, keyed with the town (:func:`_town_keyed`).
    split: frozenset[str] = frozenset()
    #: A town's name as a key (:func:`place_key`) -> its SWIS code.
    town_codes: dict[str, str] = field(default_factory=dict)
    #: The places local to the towns, as keys of :func:`place_key`: the towns
    #: and the post offices of their homes (:func:`_home_places`); None when
    #: the roll names none.
    local: frozenset[str] | None = None


def roll_lookups(
    roll: pd.DataFrame,
    *,
    situs_norm: Sequence[str] | pd.Series | None = None,
    places: Iterable[str] = (),
) -> RollLookups:
    """The roll's addresses and labels by parcel key (see :func:`owner_references`).

    ``places`` are the names of the petition's towns (or a mapping of each
    name to its SWIS code): a mailing address in one of them is local, as one
    in a city learned from the roll is (:func:`_away_mailing`); with the codes,
    a street address found in several towns is told apart by the town a line
    writes (:func:`_town_keyed`).
    """
    addresses, away, split, local = _roll_addresses_away(roll, situs_norm=situs_norm, places=places)
    return RollLookups(addresses, _labels(roll), away, split, _town_codes(places), local)


@dataclass
class OwnerIndex:
    """Person references and entity names of a roll, ready for matching."""

    persons: Reference
    person_keys: list[tuple[str, int]]
    entities: dict[str, list[tuple[str, int]]]
    entity_names: list[str]
    labels: dict[str, str]
    addresses: dict[str, tuple[tuple[str, str], ...]]
    #: The owner rows (parcel keys, owner indexes, kinds, names) for :attr:`rows_on_parcel`.
    owner_rows: tuple[list[str], list[int], list[str], list[str]]
    #: Mailing addresses keyed with a city away from the towns (:func:`_away_mailing`).
    away: frozenset[str] = frozenset()
    _rows_on: dict[str, list[tuple[int, str, str]]] | None = field(default=None, repr=False)
    _groups_of: dict[str, list[list[tuple[str, int]]]] = field(default_factory=dict, repr=False)
    _addresses_of: dict[str, list[frozenset[str]]] = field(default_factory=dict, repr=False)
    _person_at: dict[tuple[str, int], int] = field(default_factory=dict, repr=False)
    _persons_on: dict[str, list[int]] = field(default_factory=dict, repr=False)
    _bare: dict[str, list[str]] | None = field(default=None, repr=False)
    _person_like: dict[str, list[tuple[str, str, str, str, str]]] | None = field(
        default=None, repr=False
    )
    #: ``(first word, last word)`` of a trustee's or executor's name the roll
    #: gives -> ``(entity name, role)`` of the trusts and estates they act for.
    agents: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)
    #: Street addresses found in several towns, keyed with the town (:func:`_town_keyed`).
    split: frozenset[str] = frozenset()
    #: A town's name as a key (:func:`place_key`) -> its SWIS code.
    town_codes: dict[str, str] = field(default_factory=dict)

    @property
    def rows_on_parcel(self) -> dict[str, list[tuple[int, str, str]]]:
        """``parcel_key -> [(owner_index, kind, name), ...]`` (built on first use)."""
        if self._rows_on is None:
            rows_on: dict[str, list[tuple[int, str, str]]] = {}
            keys, idx, kind, names = self.owner_rows
            for k, oi, kd, nm in zip(keys, idx, kind, names, strict=True):
                rows_on.setdefault(k, []).append((oi, kd, nm))
            self._rows_on = rows_on
        return self._rows_on

    def bare_entity_names(self) -> dict[str, list[str]]:
        """Entity names by the name without its legal form (built on first use)."""
        if self._bare is None:
            bare: dict[str, list[str]] = {}
            for name in self.entity_names:
                b = _bare_entity(name)
                if b:
                    bare.setdefault(b, []).append(name)
            self._bare = bare
        return self._bare

    def person_like_entities(self) -> dict[str, list[tuple[str, str, str, str, str]]]:
        """Owners read as entities whose name reads as a person's: by surname.

        An ORPTS owner written in the last-name field alone, with no first name
        and no entity word (``WALSH DAVID R``, ``SMITH JOHN & MARY``), is read
        as an entity (:func:`pipeline.people.owners.parse_owners`): its words
        cannot tell ``MAPLE GROVE`` from a person. Returns ``surname ->
        [(entity name, first, middle, surname, suffix), ...]`` of each person
        the name reads as in ``LAST FIRST`` order (built on first use).
        """
        if self._person_like is None:
            found: dict[str, list[tuple[str, str, str, str, str]]] = {}
            for name in self.entity_names:
                for p in person_like_names(name):
                    parts = [normalize_name(x) for x in (p.first, p.middle, p.last, p.suffix)]
                    found.setdefault(parts[2], []).append((name, *parts))  # type: ignore[arg-type]
            self._person_like = found
        return self._person_like

    def person_row(self, owner_row: tuple[str, int]) -> int:
        """The first person reference of an owner row (``-1`` when none)."""
        if not self._person_at and self.person_keys:
            for j, pk in enumerate(self.person_keys):
                self._person_at.setdefault(pk, j)
        return self._person_at.get(owner_row, -1)

    def persons_on(self, parcel: str) -> list[int]:
        """The person references on a parcel, in order."""
        if not self._persons_on and self.person_keys:
            for j, (key, _) in enumerate(self.person_keys):
                self._persons_on.setdefault(key, []).append(j)
        return self._persons_on.get(parcel, [])


def owner_references(
    owners: pd.DataFrame,
    roll: pd.DataFrame,
    *,
    situs_norm: Sequence[str] | pd.Series | None = None,
    lookups: RollLookups | None = None,
) -> OwnerIndex:
    """Build the matching index of the owners of a roll.

    Parameters
    ----------
    owners
        The owners frame (:func:`pipeline.people.owners.parse_owners`).
    roll
        The roll frame (situs and mailing addresses, SWIS and print keys).
    situs_norm
        Optional normalised situs address of each roll record, in roll order
        (``situs_addresses(roll)["address_norm"]``,
        :func:`pipeline.people.placement.situs_addresses`), so that a caller
        that already has it does not pay for it twice.
    lookups
        Optional :func:`roll_lookups` of this roll, built beforehand (then
        ``situs_norm`` is not needed).

    Returns
    -------
    OwnerIndex
    """
    lookups = lookups or roll_lookups(roll, situs_norm=situs_norm)
    addresses, labels = lookups.addresses, lookups.labels
    keys = _text_col(owners, PARCEL_KEY)
    idx = owners["owner_index"].astype("int64").tolist() if len(owners) else []
    kind = _text_col(owners, "kind")
    kind_arr = np.asarray(kind, dtype=object)
    person = np.flatnonzero(kind_arr == "person")
    entity = np.flatnonzero(kind_arr == "entity")

    def pick(values: list[Any], rows: np.ndarray) -> list[Any]:
        out: list[Any] = np.asarray(values, dtype=object)[rows].tolist()
        return out

    def part(name: str) -> pd.Series | list[str]:
        col = owners[name] if name in owners.columns else None
        if col is not None and isinstance(col.dtype, pd.StringDtype):
            return col.iloc[person].reset_index(drop=True)
        return pick(_text_col(owners, name), person)

    names = _text_col(owners, "name")
    person_keys = pick(keys, person)
    # the addresses and the label of each parcel of a person, once per parcel
    parcel_code, parcel_of = pd.factorize(np.asarray(person_keys, dtype=object))
    parcel_list = parcel_of.tolist()
    addr_of = [addresses.get(k, ()) for k in parcel_list]
    addr_arr = np.fromiter(addr_of, dtype=object, count=len(addr_of))
    label_arr = np.asarray([labels.get(k, k) for k in parcel_list], dtype=object)
    persons = Reference.build(
        part("first"),
        part("middle"),
        part("last"),
        part("suffix"),
        addr_arr[parcel_code].tolist(),
        label_arr[parcel_code].tolist(),
        link_identities=True,
        address_groups=(parcel_code, addr_of),
    )
    # entities: each distinct name normalised once
    ent_names = pick(names, entity)
    norm_of = {v: normalize_name(fold_accents(v)) for v in set(ent_names)}
    entities: dict[str, list[tuple[str, int]]] = {}
    for nm, k, oi in zip(ent_names, pick(keys, entity), pick(idx, entity), strict=True):
        entities.setdefault(norm_of[nm], []).append((k, oi))
    # an estate written the roll's way (GREEN PETER EST) is found under the
    # name a signer writes too (ESTATE OF PETER GREEN)
    for name, aliases in _estate_aliases(norm_of.values()).items():
        for alias in aliases:
            rows = entities.setdefault(alias, [])
            rows.extend(r for r in entities[name] if r not in rows)
    agents: dict[tuple[str, str], list[tuple[str, str]]] = {}
    if "agent" in owners.columns and len(entity):
        roles = pick(_text_col(owners, "role"), entity)
        for nm, agent, role in zip(
            ent_names, pick(_text_col(owners, "agent"), entity), roles, strict=True
        ):
            for who in agent.split(";"):
                words = normalize_name(fold_accents(who)).split()
                if len(words) >= 2:
                    got = agents.setdefault((words[0], words[-1]), [])
                    if (norm_of[nm], role) not in got:
                        got.append((norm_of[nm], role))
    return OwnerIndex(
        persons,
        list(zip(person_keys, pick(idx, person), strict=True)),
        entities,
        sorted(entities),
        labels,
        addresses,
        (keys, idx, kind, names),
        away=lookups.away,
        agents=agents,
        split=lookups.split,
        town_codes=lookups.town_codes,
    )


#: Words that make an entity name worth reading as an estate's.
_ESTATE_WORDS = re.compile(r"\b(?:EST|ESTATE|DECEASED|DECD|DEC D)\b")


def _estate_aliases(names: Iterable[str]) -> dict[str, list[str]]:
    """Normalised estate names -> the names of the estate as a signer writes it.

    ``GREEN PETER EST`` (the last-name field, the roll's ``LAST FIRST`` order)
    and ``PETER GREEN EST`` (first name ``PETER``, last name ``GREEN EST``) ->
    ``ESTATE OF PETER GREEN``: the name is read in both orders
    (:func:`parse_owner_text`), as it cannot tell which its fields were.
    Names already written so, or not read as one estate with a decedent's
    name, are absent.
    """
    out: dict[str, list[str]] = {}
    for name in set(names):
        if not _ESTATE_WORDS.search(name):
            continue
        for order in ("last_first", "first_last"):
            parsed = [p for p in parse_owner_text(name, order=order) if p.is_owner]
            if len(parsed) != 1 or parsed[0].subkind != "estate" or parsed[0].role:
                continue
            p = parsed[0]
            if not (p.first and p.last):
                continue
            alias = normalize_name(fold_accents(p.name))
            if alias != name and alias not in out.get(name, []):
                out.setdefault(name, []).append(alias)
    return out


def _person_candidate(ref: Reference, j: int, score: float, evidence: str) -> dict[str, object]:
    """A review candidate for a person owner at the line's address."""
    return {
        "candidate": ref.label[j],
        "candidate_name": ref.name_of(j),
        "name_score": score,
        "name_evidence": evidence,
        "address_agreed": "same",
        "candidate_addresses": "; ".join(f"{k}: {a}" for a, k in ref.addresses[j]),
    }


def _reordered_review(
    index: OwnerIndex, tokens: Sequence[str], suffix: str, address: str
) -> tuple[str, tuple[dict[str, object], ...]] | None:
    """A review when an owner at the line's address has the line's words in another order.

    ``SMITH JOHN`` in an ownership override (read ``First Last``: first name
    SMITH) and "John Smith" at the parcel's address: the same words, so
    perhaps the same person, but which is the surname the words alone do
    not say. No credit; a match decision (accept) settles it.
    """
    ref = index.persons
    at = ref.by_address.get(address, []) if address else []
    if not at or len(tokens) < 2:
        return None
    words = sorted([*tokens, *([suffix] if suffix else [])])
    hits = [
        j
        for j in at
        if sorted(
            " ".join(
                p for p in (ref.first[j], ref.middle[j], ref.last[j], ref.suffix[j]) if p
            ).split()
        )
        == words
    ]
    if not hits:
        return None
    cands = tuple(
        _person_candidate(ref, j, 0.0, "the same words in another order") for j in hits[:5]
    )
    note = (
        f"the owner at this address is written {ref.name_of(hits[0])!r}, the line's words in "
        "another order: if the same person, a match decision (accept) credits the share"
    )
    return note, cands


def _agent_review(
    index: OwnerIndex, written: str, signing_for: str
) -> tuple[str, tuple[dict[str, object], ...]] | None:
    """A review when the signer is the trustee or executor the roll names.

    ``DOE JANE TRUSTEE`` on the roll, ``Jane Doe`` signing (for "Doe Family
    Trust", or for no one): the roll does not name the trust as written, so
    no credit, but not ``not_owner`` either.
    """
    words = normalize_name(fold_accents(written)).split()
    if len(words) < 2 or not index.agents:
        return None
    acting = index.agents.get((words[0], words[-1]), [])
    if not acting:
        return None
    cands = tuple(
        _entity_candidate(
            index,
            name,
            0.0,
            f"the signer is the {role or 'agent'} the roll names",
            agreed="not tested (an agent's address)",
        )
        for name, role in acting[:5]
    )
    name, role = acting[0]
    whom = f"for {signing_for!r}" if signing_for.strip() else "with no signing_for"
    note = (
        f"the roll names the signer as {role or 'agent'} of {name!r}; the line is signed "
        f"{whom}: if it is for that owner, write signing_for as the roll names it "
        f"({name}) and the share is credited"
    )
    return note, cands


def _candidate_records(
    index: OwnerIndex, cands: Iterable[Candidate]
) -> tuple[dict[str, object], ...]:
    out = []
    for c in cands:
        key = index.person_keys[c.ref][0]
        out.append(
            {
                "candidate": index.labels.get(key, key),
                "candidate_name": index.persons.name_of(c.ref),
                "name_score": c.name_score,
                "name_evidence": c.name_evidence,
                "address_agreed": f"{c.address} {c.address_kind}".strip() if c.address else "none",
                "candidate_addresses": "; ".join(
                    f"{k}: {a}" for a, k in index.persons.addresses[c.ref]
                ),
            }
        )
    return tuple(out)


def _entity_groups(index: OwnerIndex, norm: str) -> list[list[tuple[str, int]]]:
    """The rows of one entity name, grouped by shared (situs or mailing) addresses."""
    got = index._groups_of.get(norm)
    if got is None:
        got = index._groups_of[norm] = _entity_groups_uncached(index, norm)
    return got


def _entity_addresses(index: OwnerIndex, norm: str) -> list[frozenset[str]]:
    """The (situs and mailing) addresses of each group of :func:`_entity_groups`."""
    got = index._addresses_of.get(norm)
    if got is None:
        got = index._addresses_of[norm] = [
            frozenset(a for k, _ in g for a, _x in index.addresses.get(k, ()))
            for g in _entity_groups(index, norm)
        ]
    return got


def _entity_groups_uncached(index: OwnerIndex, norm: str) -> list[list[tuple[str, int]]]:
    rows = sorted(index.entities.get(norm, []))
    parent = list(range(len(rows)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_at: dict[str, int] = {}
    for i, (key, _) in enumerate(rows):
        for a, _kind in index.addresses.get(key, ()):
            j = first_at.setdefault(a, i)
            ri, rj = find(i), find(j)
            if ri != rj:
                parent[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[tuple[str, int]]] = {}
    for i, r in enumerate(rows):
        groups.setdefault(find(i), []).append(r)
    return list(groups.values())


def _entity_candidate(
    index: OwnerIndex,
    name: str,
    score: float,
    evidence: str,
    *,
    agreed: str = "not tested (officer's address)",
    addresses: bool = False,
) -> dict[str, object]:
    """A review candidate for an entity owner: its parcels (and their addresses)."""
    rows = index.entities[name]
    return {
        "candidate": ";".join(sorted({index.labels.get(k, k) for k, _ in rows})),
        "candidate_name": name,
        "name_score": score,
        "name_evidence": evidence,
        "address_agreed": agreed,
        "candidate_addresses": "; ".join(
            sorted({f"{kd}: {a}" for k, _ in rows for a, kd in index.addresses.get(k, ())})
        )
        if addresses
        else "",
    }


#: How the note of a line in an entity owner's own name begins.
_ITSELF_NOTE = "the line names the owner "


def _entity_signing_itself(
    index: OwnerIndex, name: str, address: str
) -> tuple[str, tuple[dict[str, object], ...]] | None:
    """A line whose name is an entity owner's, with no person and no ``signing_for``.

    An entity is one owner, credited through a person signing on its behalf
    (§ 2-202.1.a(2)): a line naming ``ACME HOLDINGS LLC`` alone lacks the
    person, and perhaps only in the transcription. Review, not credit: the
    note says how the line is written to be credited.
    """
    norm = normalize_name(fold_accents(name))
    if not norm or norm not in index.entities:
        return None
    _st, _rows, _sc, _nt, cands = _match_entity(index, name, address)
    held = sorted({index.labels.get(k, k) for g in _entity_groups(index, norm) for k, _ in g})
    note = (
        f"{_ITSELF_NOTE}{norm!r} itself ({';'.join(held[:5])}"
        + (f" and {len(held) - 5} more" if len(held) > 5 else "")
        + "), with no person: an entity signs through a person; write the name of the "
        f"person who signed and signing_for {norm!r}, and the entity's share is credited"
    )
    return note, cands


def _match_entity(
    index: OwnerIndex, signing_for: str, address: str
) -> tuple[str, tuple[tuple[str, int], ...], float, str, tuple[dict[str, object], ...]]:
    norm = normalize_name(fold_accents(signing_for))
    if norm in index.entities:
        groups = _entity_groups(index, norm)
        if len(groups) == 1:
            return "counted", tuple(groups[0]), 100.0, "", ()
        # several holdings of that name with no address in common: the address decides
        at = [
            g
            for g, where in zip(groups, _entity_addresses(index, norm), strict=True)
            if address in where
        ]
        if len(at) == 1:
            others = sorted(
                {index.labels.get(k, k) for g in groups if g is not at[0] for k, _ in g}
            )
            note = (
                f"entity {norm!r} also holds {';'.join(others[:5])}"
                + (f" and {len(others) - 5} more" if len(others) > 5 else "")
                + " under another address; if the same entity, a match decision (accept) "
                "credits them too"
            )
            return "counted", tuple(at[0]), 100.0, note, ()
        cands: tuple[dict[str, object], ...] = tuple(
            {
                "candidate": ";".join(sorted({index.labels.get(k, k) for k, _ in g})),
                "candidate_name": norm,
                "name_score": 100.0,
                "name_evidence": "entity name agrees",
                "address_agreed": "same" if g in at else "none",
                "candidate_addresses": "; ".join(
                    sorted({f"{kd}: {a}" for k, _ in g for a, kd in index.addresses.get(k, ())})
                ),
            }
            for g in groups
        )
        return (
            "needs_review",
            (),
            100.0,
            f"{len(groups)} holdings of entity {norm!r} share no address; which one signed?",
            cands,
        )
    close = process.extract(
        norm, index.entity_names, scorer=fuzz.token_sort_ratio, score_cutoff=_ENTITY_CLOSE, limit=5
    )
    if close:
        cands2 = tuple(
            _entity_candidate(index, name, float(score), "entity name close")
            for name, score, _ in close
        )
        return (
            "needs_review",
            (),
            float(close[0][1]),
            f"entity {signing_for!r} not on the roll as written; close: {close[0][0]}",
            cands2,
        )
    # "Maple Holdings" for MAPLE HOLDINGS LLC: the same name without its form
    bare = _bare_entity(norm)
    if bare:
        names = index.bare_entity_names().get(bare, [])
        if names:
            cands3 = tuple(
                _entity_candidate(index, name, 90.0, "entity name without its form (LLC, INC...)")
                for name in names[:5]
            )
            return (
                "needs_review",
                (),
                90.0,
                f"entity {signing_for!r} not on the roll as written; with its form: {names[0]}",
                cands3,
            )
    return "not_owner", (), 0.0, f"entity {signing_for!r} not on the roll", ()


#: Words of an entity's legal form, left out to compare "Maple Holdings" with
#: MAPLE HOLDINGS LLC.
_ENTITY_FORMS = frozenset(
    {"LLC", "INC", "CORP", "CO", "LP", "LLP", "LTD", "PLLC", "PC", "THE", "COMPANY"}
)


def _bare_entity(norm: str) -> str:
    """A normalised entity name without the words of its legal form."""
    return " ".join(w for w in norm.split() if w not in _ENTITY_FORMS)


#: Owner records of one full name up to which :func:`_namesakes_note` names
#: the others; above it, the name is common and only their number is given.
_NAMESAKES_LISTED = 20


def _namesakes_note(
    ref: Reference,
    identity: int,
    limit: int = 5,
    *,
    known: dict[tuple[str, str], list[tuple[int, str, str, str]]] | None = None,
) -> str:
    """A note naming other owners of the same full name as an accepted identity.

    They are other identities (no address in common, so not linked): the same
    person with parcels billed elsewhere, or a namesake. A wrong credit is
    worse than a review: only a match decision credits them. ``known`` caches
    the (identity, suffix, middle initial, label) of each full name's owners.
    """
    j = ref.members(identity)[0]
    name = (ref.first[j], _compact(ref.last[j].split()))
    group = None if known is None else known.get(name)
    if group is None:
        same = ref.by_fullname.get(name) or []
        if len(same) > _NAMESAKES_LISTED:  # a common name: other people, mostly
            return (
                f"the roll lists {len(same)} owner records named {ref.name_of(j)}; if another "
                "is the same person, a match decision (accept) credits it too"
            )
        group = [(ref.identity[k], ref.suffix[k], ref._name_key[k][1], ref.label[k]) for k in same]
        if known is not None:
            known[name] = group
    if len(group) < 2:
        return ""
    mid, suffix = ref._name_key[j][1], ref.suffix[j]
    own = {ref.label[k] for k in ref.members(identity)}
    others = sorted(
        {
            label
            for ident, sfx, m, label in group
            if ident != identity
            and label not in own  # a co-owner of the same name on its parcel: not "another address"
            and sfx == suffix
            and (not mid or not m or m == mid)
        }
    )
    if not others:
        return ""
    more = f" and {len(others) - limit} more" if len(others) > limit else ""
    # the others may be written with or without the middle name: name them by
    # what they share, the first name and surname (and suffix)
    shared = " ".join(p for p in (ref.first[j], ref.last[j], suffix) if p)
    return (
        f"the roll also lists the name {shared} as owner of {';'.join(others[:limit])}{more} "
        "under another address; if the same person, a match decision (accept) credits it too"
    )


#: An entity name this close to one on the roll (token sort ratio) goes to
#: review, and a reviewer's accept of it applies.
_ENTITY_CLOSE = 88.0

#: An accepted parcel is credited to a line only when one of its owners'
#: names resembles the line's: the name rules see a relation, or the first
#: names agree (a married name: "Mary Jones" for MARY SMITH), or the words are
#: nearly the same in another order (token sort ratio at least this). A
#: decision written for another line ("John Smith" now where "Jane Smith"
#: was) is not applied.
_DECIDED_NAME_RATIO = 95.0


def names_resemble(
    tokens: Sequence[str], suffix: str, first: str, middle: str, last: str, ref_suffix: str
) -> bool:
    """Whether a written name may be this person's: what a decision naming them needs.

    Parameters
    ----------
    tokens, suffix
        The name written on the line (:func:`~pipeline.people.names.person_name_parts`).
    first, middle, last, ref_suffix
        The person's name as recorded, normalised.

    Notes
    -----
    The name rules relate them (:func:`compare_names`), or the first names
    agree (a married name: "Mary Jones" for MARY SMITH), or the words are
    nearly the same in another order (token sort ratio at least
    :data:`_DECIDED_NAME_RATIO`). A decision written for another line ("John
    Smith" now where "Jane Smith" was) fails all three.
    """
    if compare_names(tuple(tokens), suffix, first, middle, last, ref_suffix) is not None:
        return True
    if tokens and first and _first_ok(tokens[0], first):
        return True
    name = " ".join(p for p in (first, middle, last, ref_suffix) if p)
    return bool(fuzz.token_sort_ratio(" ".join(tokens), name) >= _DECIDED_NAME_RATIO)


def _decided_rows(
    index: OwnerIndex,
    parcel: str,
    tokens: tuple[str, ...],
    suffix: str,
    entity: str,
    *,
    taken: Collection[tuple[str, int]] = (),
    spouse: bool = False,
) -> list[tuple[str, int]]:
    """The owner rows an accepted decision on ``parcel`` points at ([] when none fits).

    The owner whose name is nearest the line's (the entity signed for, or the
    signer); none when no owner's name resembles it (the decision was made
    for another line, or the lines were renumbered since). Owners whose names
    are equally near (CAROL J and CAROL D BROOKS for "Carol Brooks") are told
    apart by ``taken``, the owner rows other lines are credited with: the line
    gets one not taken. For a name written ``Mrs. John Smith`` (``spouse``),
    the owner is an owner of that surname whose first name is not the one
    written (the wife, MARY SMITH), when the parcel has one.
    """
    rows = index.rows_on_parcel.get(parcel, [])
    if entity:
        norm = normalize_name(fold_accents(entity))
        # the nearest entity name: a subset of the words written scores 100 by
        # token_set_ratio (MAPLE LLC and MAPLE HOLDINGS LLC for "Maple
        # Holdings Co LLC"), so the words in common, then the whole name in
        # order, decide; of names equally near, one no other line is credited with
        scored = [
            (
                (
                    fuzz.token_set_ratio(norm, other),
                    fuzz.token_sort_ratio(norm, other),
                    fuzz.ratio(norm, other),
                ),
                (parcel, i),
            )
            for i, k, n in rows
            if k == "entity"
            for other in (normalize_name(fold_accents(n)),)
        ]
        fits = [(sc, r) for sc, r in scored if sc[0] >= _ENTITY_CLOSE]
        if not fits:
            return []
        nearest = max(sc for sc, _ in fits)
        ties = sorted(r for sc, r in fits if sc == nearest)
        return [next((r for r in ties if r not in taken), ties[0])]
    best: list[tuple[float, tuple[str, int]]] = []
    ref = index.persons
    wives: list[tuple[str, int]] = []
    for j in index.persons_on(parcel):
        key, oi = index.person_keys[j]
        same_first = bool(tokens) and bool(ref.first[j]) and _first_ok(tokens[0], ref.first[j])
        surname = _compact(ref.last[j].split())
        if spouse and len(tokens) >= 2 and not same_first and surname in {tokens[-1]}:
            wives.append((key, oi))
        parts = (ref.first[j], ref.middle[j], ref.last[j], ref.suffix[j])
        if not names_resemble(tokens, suffix, *parts):
            continue  # another person's name
        nc = compare_names(tokens, suffix, *parts)
        best.append(
            (
                nc.score if nc else fuzz.token_sort_ratio(" ".join(tokens), ref.name_of(j)) / 2,
                (key, oi),
            )
        )
    free = [r for r in wives if r not in taken]
    if free or wives:
        return [(free or wives)[0]]
    if best:
        top = max(sc for sc, _ in best)
        tied = sorted(r for sc, r in best if sc == top)
        return [next((r for r in tied if r not in taken), tied[0])]
    return []


def _signed_for_entity(name: str) -> str:
    """Whom a name written ``"Tom Reed for Oak Holdings LLC, member"`` signs for ("" if none)."""
    found = _SIGNED_FOR.search(name)
    if found is None:
        return ""
    return name[found.end() :].split(",")[0].strip()


def _parcel_labels(roll: pd.DataFrame, keys: set[str]) -> dict[str, str]:
    """``SWIS:PRINT_KEY`` as written on the roll, for some parcel keys."""
    if PARCEL_KEY not in roll.columns:
        return {}
    rows = roll[roll[PARCEL_KEY].astype("str").isin(keys)]
    return dict(
        zip(
            rows[PARCEL_KEY].astype("str"),
            rows["swis_code"].astype("str") + ":" + rows["print_key_code"].astype("str"),
            strict=True,
        )
    )


def _person_like_entity(
    index: OwnerIndex, tokens: Sequence[str], suffix: str
) -> tuple[str, tuple[dict[str, object], ...]] | None:
    """A review note and candidates when a written name is an owner read as an entity.

    The owners of :meth:`OwnerIndex.person_like_entities` whose person the
    name rules relate to the written name (:func:`compare_names`), or whose
    words are the written words in another order (``Walsh David R``). No
    credit: a reviewer settles it with an ownership override naming the
    owners, which also gives the parcel its number of owners.
    """
    like = index.person_like_entities()
    if not like or len(tokens) < 2:
        return None
    words = sorted(tokens)
    hits: dict[str, None] = {}
    for tok in dict.fromkeys(tokens):
        for name, first, middle, last, sfx in like.get(tok, ()):
            if name in hits:
                continue
            if (
                compare_names(tuple(tokens), suffix, first, middle, last, sfx) is not None
                or sorted(" ".join((first, middle, last)).split()) == words
            ):
                hits[name] = None
    if not hits:
        return None
    cands = tuple(
        _entity_candidate(
            index,
            name,
            0.0,
            "a person's name in the roll's last-name field, read as an entity",
            agreed="not tested",
            addresses=True,
        )
        for name in list(hits)[:5]
    )
    first = next(iter(hits))
    note = (
        f"the roll writes {first!r} in the last-name field with no first name, read as an "
        "entity (one owner, credited only through signing_for); if it names this signer "
        "(and co-owners), an ownership override naming the owners credits the share"
    )
    return note, cands


def owner_matcher(
    signatures: pd.DataFrame,
    pages: pd.DataFrame,
    owners: pd.DataFrame,
    roll: pd.DataFrame,
    *,
    decisions: pd.DataFrame | None = None,
    situs_norm: Sequence[str] | pd.Series | None = None,
    lookups: RollLookups | None = None,
    filed_on: dt.date | None = None,
) -> pd.DataFrame:
    """Match the lines of owner pages to owners (:class:`pipeline.people.OwnerMatcher`).

    Parameters
    ----------
    signatures
        Signature lines (:data:`pipeline.frames.SIGNATURE_COLUMNS`).
    pages
        Signature pages (:data:`pipeline.frames.PAGE_COLUMNS`).
    owners
        The owners frame (:func:`pipeline.people.owners.parse_owners`).
    roll
        The roll frame (situs and mailing addresses).
    decisions
        Match decisions (:data:`pipeline.frames.MATCH_DECISION_COLUMNS`),
        re-applied on every run: ``reject`` makes the line ``not_owner``;
        ``accept`` with a parcel credits the signer as the owner of that parcel
        whose name is nearest (and every parcel of that identity), on top of
        the parcels of a line matched automatically. A decision
        naming a parcel not on the roll is ignored here (reported by
        :func:`pipeline.people.review.stale_decisions`).
    situs_norm
        Optional normalised situs address of each roll record
        (:func:`owner_references`).
    lookups
        Optional :func:`roll_lookups` of this roll (:func:`owner_references`).
    filed_on
        The filing date (:class:`datetime.date`): a line signed after it, or
        after its page's witness affidavit, is ``page_defect``
        (:func:`pipeline.law.checks.unauthenticated_lines`).

    Returns
    -------
    pandas.DataFrame
        Index aligned with ``signatures``: :data:`MATCH_COLUMNS` then
        ``note`` (the reason for the status) and ``candidates`` (a tuple of
        evidence records for a line to review). Lines of resident pages pass
        through with status ``""``.

    Notes
    -----
    A line without an address, or without a name, is ``page_defect``
    (§ 2-202.1.e(3)); a line on a page missing from the pages file too.
    Entity lines (``signing_for``) are credited when the normalised entity
    name is on the roll (``"The Example Holdings, L.L.C."`` ==
    ``"EXAMPLE HOLDINGS LLC"``), whatever the officer's address; a close
    entity name (token sort ratio >= 88) goes to review. A person is credited
    for every parcel of the identity matched. Later lines of a person already
    counted are ``duplicate``.
    """
    index = owner_references(owners, roll, situs_norm=situs_norm, lookups=lookups)
    basis_of = dict(
        zip(pages["page"].astype("int64").tolist(), _text_col(pages, "basis"), strict=True)
    )
    n = len(signatures)
    pg = signatures["page"].astype("int64").tolist()
    ln = signatures["line"].astype("int64").tolist()
    names = _text_col(signatures, "name")
    addrs = _text_col(signatures, "address")
    sfor = _text_col(signatures, "signing_for")
    towns = _text_col(signatures, "town")
    status = [""] * n
    keys_out: list[tuple[tuple[str, int], ...]] = [()] * n
    score = [0.0] * n
    person = [""] * n
    note = [""] * n
    cands: list[tuple[dict[str, object], ...]] = [()] * n
    parsed: list[tuple[tuple[str, ...], str]] = [((), "")] * n
    late = unauthenticated_lines(signatures, pages, filed_on=filed_on).tolist()
    ref = index.persons
    namesakes: dict[tuple[str, str], list[tuple[int, str, str, str]]] = {}

    def identity_rows(ident: int) -> tuple[tuple[str, int], ...]:
        return tuple(sorted(index.person_keys[j] for j in ref.members(ident)))

    def person_id(rows: Sequence[tuple[str, int]], j: int) -> str:
        # the name with its middle initial, at the identity's first owner row:
        # two owners of one name on one parcel are two people
        mi = ref._name_key[j][1]
        nm = " ".join(p for p in (ref.first[j], mi, ref.last[j], ref.suffix[j]) if p)
        key, oi = rows[0]
        return f"person:{nm}@{key}" + (f"#{oi}" if oi else "")

    Line = tuple[
        str, tuple[tuple[str, int], ...], float, str, str, tuple[dict[str, object], ...], Any
    ]

    def _own_name_review(i: int, address: str) -> tuple[str, tuple[dict[str, object], ...]] | None:
        """A line signed for an entity not on the roll by a signer who owns in person.

        An ownership override may have put the people behind a name the roll
        wrote as one owner (WALSH DAVID R): the line, written for that old
        name, is the signer's own. Review, not credit: the line says otherwise.
        """
        _tokens, _suffix, res = match_written_name(
            ref, names[i], address, review_name_elsewhere=True
        )
        if res.tier != "accept":
            return None
        js = ref.members(res.identity)
        cands = tuple(
            _person_candidate(ref, j, res.score, "the signer's own name, as an owner")
            for j in js[:5]
        )
        note = (
            f"entity {sfor[i]!r} not on the roll, but the signer is an owner in person of "
            f"{';'.join(sorted({ref.label[j] for j in js}))}: if the line is for the signer's "
            "own share, leave signing_for blank"
        )
        return note, cands

    def match_line(i: int) -> Line:
        """status, owner rows, score, person, note, candidates, parsed name of owner line ``i``."""
        address = normalize_address_text(addrs[i])
        if address and index.away:
            # an address in a city away from the towns, when the roll has it
            # there (else the town written is taken for a local post office)
            away = f"{address} ({place_key(towns[i])})"
            if away in index.away:
                address = away
        if address in index.split:
            # a street of that name in several towns: the town written says
            # which (else no home is known there, and the line goes to review)
            code = index.town_codes.get(place_key(towns[i]))
            if code:
                address = f"{address} [{code}]"
        if not names[i].strip() or not address:
            nt = "line without " + ("a name" if not names[i].strip() else "an address")
            return "page_defect", (), 0.0, "", nt, (), None
        if late[i]:
            return "page_defect", (), 0.0, "", late[i], (), None
        if sfor[i].strip():
            st, rows, sc, nt, cd = _match_entity(index, sfor[i], address)
            if st == "not_owner":
                agent = _agent_review(index, names[i], sfor[i]) or _own_name_review(i, address)
                if agent:
                    return "needs_review", (), 0.0, "", agent[0], agent[1], None
            who = (
                f"entity:{normalize_name(fold_accents(sfor[i]))}@{rows[0][0]}"
                if st == "counted"
                else ""
            )
            return st, rows, sc, who, nt, cd, None
        if _SIGNED_FOR.search(names[i]):
            # "John Smith for ABC Holdings LLC, member": whom the line is for
            # belongs in signing_for; the words are not read as one name
            return "needs_review", (), 0.0, "", _SIGNED_FOR_NOTE, (), None
        tokens, suffix, res = match_written_name(ref, names[i], address, review_name_elsewhere=True)
        cd = _candidate_records(index, res.candidates) if res.tier != "accept" else ()
        if res.tier == "accept":
            rows = identity_rows(res.identity)
            who = person_id(rows, ref.members(res.identity)[0])
            nt = res.note or _namesakes_note(ref, res.identity, known=namesakes)
            return "counted", rows, res.score, who, nt, cd, (tokens, suffix)
        if res.tier == "review":
            return "needs_review", (), res.score, "", res.note, cd, (tokens, suffix)
        like = (
            _person_like_entity(index, tokens, suffix)
            or _agent_review(index, names[i], "")
            or _reordered_review(index, tokens, suffix, address)
        )
        if like:
            return "needs_review", (), 0.0, "", like[0], like[1], (tokens, suffix)
        itself = _entity_signing_itself(index, names[i], address)
        if itself:
            return "needs_review", (), 0.0, "", itself[0], itself[1], (tokens, suffix)
        return "not_owner", (), 0.0, "", res.note, cd, (tokens, suffix)

    def match_lines(which: Sequence[int]) -> list[Line]:
        return [match_line(i) for i in which]

    # the lines are independent of one another: a large petition matches every
    # other owner line in a forked child (same answers, about half the wait)
    owner_lines = [i for i in range(n) if basis_of.get(pg[i]) == "owners"]
    here, there = (
        (owner_lines[0::2], owner_lines[1::2])
        if len(owner_lines) >= _SPLIT_LINES
        else (owner_lines, [])
    )
    for i in range(n):
        if basis_of.get(pg[i]) is None:
            status[i], note[i] = "page_defect", "page not in the pages file"
    later = fork_call(lambda: match_lines(there)) if there else None
    try:
        done = match_lines(here)
    except BaseException:
        if later is not None:
            later.cancel()
        raise
    answers = [*zip(here, done, strict=True)]
    if later is not None:
        answers += zip(there, later.result(), strict=True)
    for i, line in answers:
        status[i], keys_out[i], score[i], person[i], note[i], cands[i], name_parts = line
        if name_parts is not None:
            parsed[i] = name_parts

    # match decisions, re-applied on every run
    if decisions is not None and len(decisions):
        roll_keys: set[str] = set()

        def on_roll() -> set[str]:
            if not roll_keys:
                roll_keys.update(roll[PARCEL_KEY].astype("str"))
            return roll_keys

        where = {(p, q): i for i, (p, q) in enumerate(zip(pg, ln, strict=True))}
        dec_keys = _text_col(decisions, PARCEL_KEY)
        accepted: dict[int, list[str]] = {}
        rejected: dict[int, set[str]] = {}
        whole: set[int] = set()  # lines rejected as a whole
        for p, q, kind, key in zip(
            decisions["page"].astype("int64").tolist(),
            decisions["line"].astype("int64").tolist(),
            (s.strip().lower() for s in _text_col(decisions, "decision")),
            dec_keys,
            strict=True,
        ):
            i = where.get((p, q), -1)
            if i < 0 or basis_of.get(pg[i]) != "owners" or status[i] == "page_defect":
                continue
            if kind == "reject" and key:
                rejected.setdefault(i, set()).add(key)
            elif kind == "reject":
                status[i], keys_out[i], score[i], person[i] = "not_owner", (), 0.0, ""
                note[i], cands[i] = "rejected by match decision", ()
                whole.add(i)
            elif kind == "accept" and key and (key in index.rows_on_parcel or key in on_roll()):
                # a parcel of the roll without an owner row (care-of names
                # only) cannot be credited: told below, not dropped unseen
                accepted.setdefault(i, []).append(key)
        # a reject naming a parcel rejects that candidate only: the line keeps
        # its other parcels (and any it is accepted for)
        for i, keys in rejected.items():
            if i in whole:
                continue
            shown = _parcel_labels(roll, set(keys))
            said = "rejected by match decision: " + ", ".join(sorted(shown.get(k, k) for k in keys))
            kept = tuple(r for r in keys_out[i] if r[0] not in keys)
            if kept != keys_out[i]:
                keys_out[i] = kept
                if status[i] == "counted" and not kept:
                    status[i], score[i], person[i] = "not_owner", 0.0, ""
                note[i] = said
            elif status[i] == "needs_review":
                # the rejected candidates leave the review; the others stay
                labels = set(shown.values())
                cands[i] = tuple(c for c in cands[i] if c.get("candidate") not in labels)
                note[i] = f"{said}; {note[i]}" if note[i] else said
        # the owner rows lines are credited with so far: an accepted line takes
        # one not taken by another line when several owners fit it equally
        taken: dict[tuple[str, int], int] = {}
        for i in range(n):
            if status[i] == "counted":
                for r in keys_out[i]:
                    taken.setdefault(r, i)
        for i in sorted(accepted, key=lambda i: (pg[i], ln[i], i)):
            parcels = accepted[i]
            if i in whole:
                continue
            parcels = [k for k in parcels if k not in rejected.get(i, set())]
            tokens, suffix = parsed[i] if parsed[i][0] else person_name_parts(names[i])
            # "Tom Reed for Oak Holdings LLC" without signing_for: accepted for
            # the entity written after "for"
            entity = sfor[i].strip() or _signed_for_entity(names[i])
            others = {r for r, at in taken.items() if at != i}
            # an accepted parcel adds to what the line was matched to (the same
            # owner's parcels under another mailing address): credited for all
            rows_set: set[tuple[str, int]] = set(keys_out[i]) if status[i] == "counted" else set()
            unfit: list[str] = []
            for key in parcels:
                picked = _decided_rows(
                    index,
                    key,
                    tokens,
                    suffix,
                    entity,
                    taken=others,
                    spouse=spouse_style_title(names[i]),
                )
                if not picked:
                    unfit.append(key)
                for r in picked:
                    rows_set.add(r)
                    if not entity:
                        j = index.person_row(r)
                        if j >= 0:
                            rows_set.update(identity_rows(ref.identity[j]))
            rows_t = tuple(sorted(rows_set))
            for r in rows_t:
                taken.setdefault(r, i)
            if rows_t:
                status[i], keys_out[i], score[i] = "counted", rows_t, 100.0
                person[i] = (
                    f"entity:{normalize_name(fold_accents(entity))}"
                    if entity
                    else f"decided:{rows_t[0][0]}:{rows_t[0][1]}"
                )
                # the same owner rows as an automatic match: same person
                j = index.person_row(rows_t[0])
                if j >= 0:
                    person[i] = person_id(identity_rows(ref.identity[j]), j)
                note[i], cands[i] = "accepted by match decision", ()
            if unfit:
                # the decision names a parcel none of whose owners resembles
                # this line's name: made for another line (renumbered since?);
                # or one the roll names no owner of (care-of names only)
                if not rows_t:
                    status[i], keys_out[i], score[i], person[i] = "needs_review", (), 0.0, ""
                shown = _parcel_labels(roll, set(unfit))
                ownerless = [k for k in unfit if k not in index.rows_on_parcel]
                unlike = [k for k in unfit if k in index.rows_on_parcel]
                why: list[str] = []
                if unlike:
                    why.append(
                        "no owner of "
                        + ", ".join(shown.get(k, k) for k in unlike)
                        + f" resembles {(sfor[i].strip() or names[i].strip())!r}; was it made "
                        "for another line?"
                    )
                if ownerless:
                    why.append(
                        "the roll names no owner of "
                        + ", ".join(shown.get(k, k) for k in ownerless)
                        + " (a care-of name only): give its owners in an ownership override"
                    )
                note[i] = (
                    "match decision not applied: "
                    + "; ".join(why)
                    + (f" ({note[i]})" if rows_t else "")
                )

    # a parcel whose roll owners end in ETAL (ET UX, ET VIR) has more owners
    # than the names read: value / names would credit the signer too much
    # (§ 2-202.1.a(2) divides by the number of owners), so the line awaits the
    # assessor's count (an ownership override) or a match decision
    if "etal" in owners.columns and len(owners):
        flagged = owners["etal"].astype(bool).to_numpy()
        if "owner_source" in owners.columns:
            flagged = flagged & (owners["owner_source"].astype("str") != "override").to_numpy()
        etal = set(owners.loc[flagged, PARCEL_KEY].astype("str"))
        if etal:
            written = _parcel_labels(roll, etal)
            for i in range(n):
                if status[i] != "counted":
                    continue
                hit = sorted({k for k, _ in keys_out[i] if k in etal})
                if hit:
                    status[i] = "needs_review"
                    note[i] = (
                        "the roll writes ETAL for "
                        + ", ".join(written.get(k, k) for k in hit)
                        + ": more owners than the names read, so the share per owner is "
                        "unknown; give the number of owners in an ownership override"
                    )

    # duplicates: the first counted line in (page, line) order counts, and is
    # credited for every parcel the person's lines were matched to (a person
    # is the same identity, or the same owner rows: an accepted parcel may
    # join two lines matched under two mailing addresses)
    by_person: dict[str, int] = {}
    by_row: dict[tuple[str, int], int] = {}
    for i in sorted(range(n), key=lambda i: (pg[i], ln[i], i)):
        if status[i] != "counted":
            continue
        first = by_person.get(person[i])
        if first is None:
            first = next((by_row[r] for r in keys_out[i] if r in by_row), None)
        if first is not None:
            status[i], note[i] = "duplicate", "same person counted on an earlier line"
            keys_out[first] = tuple(sorted(set(keys_out[first]) | set(keys_out[i])))
            for r in keys_out[i]:
                by_row.setdefault(r, first)
            by_person.setdefault(person[i], first)
            continue
        by_person[person[i]] = i
        for r in keys_out[i]:
            by_row.setdefault(r, i)
    # a line in an entity's own name (review) whose entity is credited through
    # a line signed for it adds nothing: the review would hold out a rise of
    # the signers' value that cannot come
    itself = [
        i for i in range(n) if status[i] == "needs_review" and note[i].startswith(_ITSELF_NOTE)
    ]
    if itself:
        # the owner rows (parcel, owner index) credited through a line signed
        # for an entity: a co-owner's own line credits no entity
        credited: dict[tuple[str, int], int] = {}
        for j in sorted(range(n), key=lambda j: (pg[j], ln[j], j)):
            if status[j] == "counted" and person[j].startswith("entity:"):
                for row in keys_out[j]:
                    credited.setdefault(row, j)
        for i in itself:
            norm = normalize_name(fold_accents(names[i]))
            held = sorted({row for g in _entity_groups(index, norm) for row in g})
            by = sorted({credited[row] for row in held if row in credited})
            if by and all(row in credited for row in held):
                j = by[0]
                status[i] = "duplicate"
                note[i] = (
                    f"the owner {norm!r} is credited on page {pg[j]} line {ln[j]}, signed "
                    "for it; this line in its own name adds nothing"
                )
    # every line not counted says why: a plain miss had no note
    for i in range(n):
        if status[i] == "not_owner" and not note[i]:
            note[i] = NO_OWNER_NOTE

    out = pd.DataFrame(
        {
            "page": np.asarray(pg, dtype="int64"),
            "line": np.asarray(ln, dtype="int64"),
            "status": pd.array(status, dtype="str"),
            "owner_keys": pd.Series(keys_out, dtype=object).to_numpy(),
            "match_score": np.asarray(score, dtype="float64"),
            "person_id": pd.array(person, dtype="str"),
            "note": pd.array(note, dtype="str"),
            "candidates": pd.Series(cands, dtype=object).to_numpy(),
        },
        index=signatures.index,
    )
    return out.loc[:, [*MATCH_COLUMNS, *OWNER_MATCH_EXTRA_COLUMNS]]
