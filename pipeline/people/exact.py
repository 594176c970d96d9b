"""The interim owner matcher: exact normalised name and address.

Implements :class:`pipeline.people.OwnerMatcher` with the simplest rule that is
still right: a signer is an owner when an owner on the roll has exactly the
same normalised name (:func:`pipeline.people.names.normalize_name`) and the
signer's address (normalised) is the situs or the mailing address of a parcel
of that owner. The full fuzzy matcher (nicknames, typos, review queue) is a
later issue and fills the same interface.

Decisions
---------
* **Identity.** Owners with the same normalised name are one person when
  their parcels share an address (situs or mailing), transitively: owner rows
  are linked through the addresses of their parcels, and each connected group
  is one identity. A matched signer is credited for *every* parcel of the
  identity (§ 2-202.1.a(2): a person who owns several parcels is credited for
  all of them). ``person_id`` is ``"person:<norm name>@<lowest parcel key of
  the identity>"``: stable across runs on the same roll.
* **Entities** are credited only through ``signing_for``: the normalised
  entity name (``"The Example Holdings, L.L.C."`` == ``"EXAMPLE HOLDINGS
  LLC"``) must equal the normalised name of an owner on the roll; the entity is
  credited for every parcel it owns; ``person_id`` is ``"entity:<norm name>"``.
  No address test: the address written is the signing officer's.
* **Duplicates.** Lines are read in (page, line) order; a later line with the
  same ``person_id`` as a counted line is ``"duplicate"`` (credit 0).
* **Missing address** -> ``"page_defect"``. § 2-202.1.e(3) requires the
  signer's address after each signature; a line without it is defective in
  its execution whoever signed it. ``"not_owner"`` would claim the signer was
  looked up and not found, which is not what happened.
* **A line on a page absent from the pages file** -> ``"page_defect"`` (its
  basis, witness and count are unknown).
* **needs_review**: the exact name is on the roll but not at the address
  written, or the name matches ignoring the middle name/initial at the
  address written. A person decides (match decisions file); the line is not
  counted meanwhile.
* Lines of resident pages pass through with status ``""``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.frames import PARCEL_KEY
from pipeline.people import MATCH_COLUMNS
from pipeline.people.names import normalize_address, normalize_address_text, normalize_name

__all__ = ["exact_owner_matcher", "parcel_addresses"]

OwnerKey = tuple[str, int]


def parcel_addresses(roll: pd.DataFrame, keys: set[str] | None = None) -> dict[str, set[str]]:
    """Normalised situs and mailing addresses of parcels.

    Parameters
    ----------
    roll
        The roll frame.
    keys
        Only these parcel keys (all when ``None``).

    Returns
    -------
    dict[str, set[str]]
        ``parcel_key`` -> the non-empty normalised addresses (situs, mailing)
        of its roll record(s).
    """
    rows = roll if keys is None else roll[roll[PARCEL_KEY].isin(keys)]
    out: dict[str, set[str]] = {}
    cols = (
        ("parcel_address_number", "parcel_address_street", "parcel_address_suff"),
        ("mailing_address_number", "mailing_address_street", "mailing_address_suff"),
    )
    for number_col, street_col, suff_col in cols:
        if street_col not in rows.columns:
            continue

        def col(name: str) -> list[object]:
            if name not in rows.columns:
                return [""] * len(rows)
            return list(np.asarray(rows[name], dtype=object))

        for key, n, st, sf in zip(
            col(PARCEL_KEY), col(number_col), col(street_col), col(suff_col), strict=True
        ):
            addr = normalize_address(n, st, sf)
            bucket = out.setdefault(str(key), set())
            if addr:
                bucket.add(addr)
    return out


def _identities(
    rows: list[tuple[str, int]], addresses: dict[str, set[str]]
) -> tuple[list[int], dict[str, int]]:
    """Group owner rows of one name into identities linked by shared addresses.

    Returns the component of each row and a map address -> component.
    """
    parent = list(range(len(rows)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_at: dict[str, int] = {}
    for i, (key, _) in enumerate(rows):
        for addr in addresses.get(key, ()):
            j = first_at.setdefault(addr, i)
            ri, rj = find(i), find(j)
            if ri != rj:
                parent[max(ri, rj)] = min(ri, rj)
    comp = [find(i) for i in range(len(rows))]
    return comp, {addr: find(i) for addr, i in first_at.items()}


def _loose(norm: str) -> str:
    """First and last word of a normalised name (middle names/initials dropped)."""
    tokens = norm.split()
    return f"{tokens[0]} {tokens[-1]}" if len(tokens) >= 2 else norm


def exact_owner_matcher(
    signatures: pd.DataFrame,
    pages: pd.DataFrame,
    owners: pd.DataFrame,
    roll: pd.DataFrame,
) -> pd.DataFrame:
    """Match signature lines to owners by exact normalised name and address.

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

    Returns
    -------
    pandas.DataFrame
        Index aligned with ``signatures``; columns
        :data:`pipeline.people.MATCH_COLUMNS`. See the module docstring for
        the rules.
    """
    basis_of = dict(zip(pages["page"].astype("int64"), pages["basis"].astype("str"), strict=True))
    n = len(signatures)
    status = [""] * n
    keys_out: list[tuple[OwnerKey, ...]] = [()] * n
    score = [0.0] * n
    person = [""] * n

    sig_pages = signatures["page"].astype("int64").tolist()
    sig_norm = [normalize_name(x) for x in signatures["name"].tolist()]
    sig_for = [
        normalize_name(x)
        for x in (signatures["signing_for"].tolist() if "signing_for" in signatures else [""] * n)
    ]
    sig_addr = [normalize_address_text(x) for x in signatures["address"].tolist()]

    # owners reachable from the signers' names only (keeps the work small)
    wanted = {x for x in sig_norm if x} | {x for x in sig_for if x}
    cand = owners[owners["norm_name"].isin(wanted)]
    by_name: dict[str, list[OwnerKey]] = {}
    kind_of: dict[OwnerKey, str] = {}
    for key, idx, norm, kind in zip(
        cand[PARCEL_KEY], cand["owner_index"], cand["norm_name"], cand["kind"], strict=True
    ):
        ok: OwnerKey = (str(key), int(idx))
        by_name.setdefault(str(norm), []).append(ok)
        kind_of[ok] = str(kind)
    addresses = parcel_addresses(roll, {k for k, _ in kind_of})
    ident_cache: dict[str, tuple[list[int], dict[str, int]]] = {}

    def identity_at(norm: str, addr: str) -> tuple[tuple[OwnerKey, ...], str] | None:
        rows = by_name.get(norm, [])
        if not rows:
            return None
        if norm not in ident_cache:
            ident_cache[norm] = _identities(rows, addresses)
        comp, at = ident_cache[norm]
        if addr not in at:
            return None
        c = at[addr]
        members = tuple(sorted(r for r, k in zip(rows, comp, strict=True) if k == c))
        return members, f"person:{norm}@{members[0][0]}"

    unmatched: list[int] = []
    for i in range(n):
        basis = basis_of.get(sig_pages[i])
        if basis is None:
            status[i] = "page_defect"
            continue
        if basis != "owners":
            continue  # resident pages: another matcher's business
        if not sig_addr[i]:
            status[i] = "page_defect"
            continue
        if sig_for[i]:
            rows = [r for r in by_name.get(sig_for[i], []) if kind_of[r] == "entity"]
            if rows:
                status[i], keys_out[i], score[i] = "counted", tuple(sorted(rows)), 1.0
                person[i] = f"entity:{sig_for[i]}"
            else:
                status[i] = "not_owner"
            continue
        found = identity_at(sig_norm[i], sig_addr[i])
        if found is not None:
            status[i], (keys_out[i], person[i]), score[i] = "counted", found, 1.0
        elif sig_norm[i] in by_name:
            status[i] = "needs_review"  # the name is on the roll, not at this address
        else:
            status[i] = "not_owner"
            unmatched.append(i)

    if unmatched:
        # same first and last name at the address written, middle name differing
        loose_keys = {_loose(sig_norm[i]) for i in unmatched}
        persons = owners[owners["kind"] == "person"]
        loose = persons["norm_name"].str.replace("^([^ ]+) .* ([^ ]+)$", r"\1 \2", regex=True)
        hit = persons[loose.isin(loose_keys)]
        loose_addr: dict[str, set[str]] = {}
        hit_addresses = parcel_addresses(roll, set(hit[PARCEL_KEY].astype("str")))
        for key, norm in zip(hit[PARCEL_KEY], hit["norm_name"], strict=True):
            loose_addr.setdefault(_loose(str(norm)), set()).update(
                hit_addresses.get(str(key), set())
            )
        for i in unmatched:
            if sig_addr[i] in loose_addr.get(_loose(sig_norm[i]), set()):
                status[i] = "needs_review"

    # duplicates: the first line in (page, line) order counts
    sig_lines = signatures["line"].astype("int64").tolist()
    order = sorted(range(n), key=lambda i: (sig_pages[i], sig_lines[i], i))
    seen: set[str] = set()
    for i in order:
        if status[i] == "counted":
            if person[i] in seen:
                status[i] = "duplicate"
            seen.add(person[i])

    out = pd.DataFrame(
        {
            "page": signatures["page"].astype("int64").to_numpy(),
            "line": signatures["line"].astype("int64").to_numpy(),
            "status": pd.array(status, dtype="str"),
            "owner_keys": pd.Series(keys_out, dtype=object).to_numpy(),
            "match_score": pd.array(score, dtype="float64"),
            "person_id": pd.array(person, dtype="str"),
        },
        index=signatures.index,
    )
    return out.loc[:, list(MATCH_COLUMNS)]
