"""People: owners parsed from rolls, names and addresses normalised, signers matched.

The owner matcher (:func:`pipeline.people.matching.owner_matcher`: exact and
fuzzy tiers, review queue) is behind the :class:`OwnerMatcher` interface.
"""

from __future__ import annotations

from typing import Protocol

import pandas as pd

__all__ = ["MATCH_COLUMNS", "MATCH_STATUSES", "OwnerMatcher"]

#: Columns of a matcher's result (index aligned with the signatures frame).
MATCH_COLUMNS: tuple[str, ...] = (
    "page",  # int64
    "line",  # int64
    "status",  # one of MATCH_STATUSES, or "" for a line of a resident page
    "owner_keys",  # tuple of (parcel_key, owner_index) credited to the signer
    "match_score",  # float64: 1.0 exact, 0.0 no match
    "person_id",  # stable id of the owner identity ("" when none)
)

#: The statuses of a signature line (contract: ``signatures.csv``).
MATCH_STATUSES: tuple[str, ...] = (
    "counted",
    "duplicate",
    "not_owner",
    "not_qualified_voter",
    "outside_territory",
    "needs_review",
    "page_defect",
)


class OwnerMatcher(Protocol):
    """Matches the signature lines of owner pages to owners on the roll.

    A matcher is pure: it reads the frames it is given and returns a new frame.
    """

    def __call__(
        self,
        signatures: pd.DataFrame,
        pages: pd.DataFrame,
        owners: pd.DataFrame,
        roll: pd.DataFrame,
    ) -> pd.DataFrame:
        """Match every signature line.

        Parameters
        ----------
        signatures
            Signature lines (:data:`pipeline.frames.SIGNATURE_COLUMNS`).
        pages
            Signature pages (:data:`pipeline.frames.PAGE_COLUMNS`): gives each
            line's basis.
        owners
            The owners frame (:func:`pipeline.people.owners.parse_owners`).
        roll
            The roll frame (:data:`pipeline.frames.ROLL_COLUMNS`): situs and
            mailing addresses.

        Returns
        -------
        pandas.DataFrame
            One row per signature line, index aligned with ``signatures``,
            columns :data:`MATCH_COLUMNS`. Lines of resident pages pass
            through with status ``""``.
        """
        ...
