"""The canonical in-memory frames: what the readers produce and the core consumes.

The readers in :mod:`pipeline.io` turn every input layout into one of these
frames; nothing past the readers ever sees a file's own column names. Each
frame keeps the position of every record in its source (``source_row``: data
rows counted from 1, or the feature id of a vector layer) so that any figure can
be traced back to the input row it came from.

Text columns hold ``str`` (``""`` when absent, never NaN); money columns hold
``float64`` dollars; counts hold ``int64``.
"""

from __future__ import annotations

#: Canonical parcel key: ``"<swis>|<normalised print key>"`` (see :mod:`pipeline.keys`).
PARCEL_KEY = "parcel_key"
SOURCE_ROW = "source_row"

#: Assessment roll (one row per roll record).
ROLL_COLUMNS: tuple[str, ...] = (
    PARCEL_KEY,  # swis_code + normalised print key
    "swis_code",  # as written in the roll (village or town-outside-village SWIS)
    "print_key_code",  # as written in the roll
    "municipality_code",  # the town's 6-digit code
    "roll_year",  # int64; 0 when the roll does not say
    "roll_section",  # int64: 1 taxable, 3 state, 5 special franchise, 6 utility, 7, 8 exempt
    "property_class",
    "parcel_address_number",
    "parcel_address_street",
    "parcel_address_suff",
    "primary_owner_first_name",
    "primary_owner_mi",
    "primary_owner_last_name",
    "primary_owner_suffix",
    "additional_owner_1_first",
    "additional_owner_1_mi",
    "additional_owner_1_last_name",
    "additional_owner_1_suffix",
    "additional_owner_2_first",
    "additional_owner_2_mi",
    "additional_owner_2_last_name",
    "additional_owner_2_suffix",
    "additional_owner_3_first",
    "additional_owner_3_mi",
    "additional_owner_3_last_name",
    "additional_owner_3_suffix",
    "mailing_address_number",
    "mailing_address_street",
    "mailing_address_suff",
    "mailing_address_city",
    "mailing_address_state",
    "mailing_address_zip",
    "assessment_land",  # float64
    "assessment_total",  # float64
    "full_market_value",  # float64 (NaN when absent)
    "town_taxable_value",  # float64 (NaN when absent)
    SOURCE_ROW,
)
ROLL_MONEY = ("assessment_land", "assessment_total", "full_market_value", "town_taxable_value")

#: Parcel polygons (GeoDataFrame in the working CRS).
PARCEL_COLUMNS: tuple[str, ...] = (PARCEL_KEY, "swis", "print_key", SOURCE_ROW, "geometry")

#: Equalization rates.
RATE_COLUMNS: tuple[str, ...] = ("swis_code", "rate_year", "equalization_rate", SOURCE_ROW)

#: Signature pages.
PAGE_COLUMNS: tuple[str, ...] = (
    "page",  # int64
    "basis",  # "owners" | "residents"
    "witness_name",
    "witness_address",
    "stated_signature_count",  # int64
    "sworn_on",  # ISO date string or ""
    SOURCE_ROW,
)

#: Signature lines.
SIGNATURE_COLUMNS: tuple[str, ...] = (
    "page",  # int64
    "line",  # int64
    "name",
    "address",
    "town",
    "signed_on",
    "signing_for",
    "credited_assessed_value",  # float64, NaN when not written
    SOURCE_ROW,
)

#: Voters (BOE names; DOB is dropped at read time: never carried).
VOTER_COLUMNS: tuple[str, ...] = (
    "SBOEID",
    "LASTNAME",
    "FIRSTNAME",
    "MIDDLENAME",
    "NAMESUFFIX",
    "RADDNUMBER",
    "RHALFCODE",
    "RPREDIRECTION",
    "RSTREETNAME",
    "RPOSTDIRECTION",
    "RAPARTMENTTYPE",
    "RAPARTMENT",
    "RADDRNONSTD",
    "RCITY",
    "RZIP5",
    "TOWNCITY",
    "ED",
    "STATUS",
    # dates as ISO text ("2023-07-15", "" when blank): the status as of the
    # filing date is read from them; kept internal, never written to a result
    "REGDATE",
    "INACT_DATE",
    "PURGE_DATE",
    # the SBOEID of the person's first registration in the file: two
    # registrations of one name and date of birth are one person (the date of
    # birth itself is not kept); "" when not read from a BOE file (= SBOEID)
    "REGISTRANT",
    # the earliest day the file shows the voter voting on this registration
    # (LASTVOTERDATE, VOTERHISTORY), ISO text, "" when none: a voter who voted
    # before the filing date was registered then, whatever a later REGDATE says
    "VOTED_BY",
    # "1" where the date of birth shows the voter under 18 on the filing date
    # (a pre-registrant the file may show active, at its later extraction),
    # else "": no qualified voter then (the date of birth itself is not kept)
    "MINOR_ON_FILING",
    SOURCE_ROW,
)

INHABITANT_COLUMNS: tuple[str, ...] = ("name", "address", "town", SOURCE_ROW)

APPORTIONMENT_OVERRIDE_COLUMNS: tuple[str, ...] = (
    PARCEL_KEY,
    "swis_code",
    "print_key_code",
    "fraction_in_territory",  # float64 or NaN
    "value_in_territory",  # float64 or NaN
    "note",
    SOURCE_ROW,
)
OWNERSHIP_OVERRIDE_COLUMNS: tuple[str, ...] = (
    PARCEL_KEY,
    "swis_code",
    "print_key_code",
    "owner_count",  # int64
    "owners",  # tuple of names, split on ';'
    "note",
    SOURCE_ROW,
)
MATCH_DECISION_COLUMNS: tuple[str, ...] = (
    "page",
    "line",
    "decision",  # "accept" | "reject"
    PARCEL_KEY,  # "" unless an owner match is accepted
    "swis_code",
    "print_key_code",
    "SBOEID",
    "note",
    SOURCE_ROW,
)

#: The NYS Board of Elections voter file (FOIL layout): its 47 fields in file order.
#: Readers keep only :data:`VOTER_COLUMNS` of them (never DOB).
BOE_FIELDS_47: tuple[str, ...] = (
    "LASTNAME",
    "FIRSTNAME",
    "MIDDLENAME",
    "NAMESUFFIX",
    "RADDNUMBER",
    "RHALFCODE",
    "RPREDIRECTION",
    "RSTREETNAME",
    "RPOSTDIRECTION",
    "RAPARTMENTTYPE",
    "RAPARTMENT",
    "RADDRNONSTD",
    "RCITY",
    "RZIP5",
    "RZIP4",
    "MAILADD1",
    "MAILADD2",
    "MAILADD3",
    "MAILADD4",
    "DOB",
    "GENDER",
    "ENROLLMENT",
    "OTHERPARTY",
    "COUNTYCODE",
    "ED",
    "LD",
    "TOWNCITY",
    "WARD",
    "CD",
    "SD",
    "AD",
    "LASTVOTERDATE",
    "PREVYEARVOTED",
    "PREVCOUNTY",
    "PREVADDRESS",
    "PREVNAME",
    "COUNTYVRNUMBER",
    "REGDATE",
    "VRSOURCE",
    "IDREQUIRED",
    "IDMET",
    "STATUS",
    "REASONCODE",
    "INACT_DATE",
    "PURGE_DATE",
    "SBOEID",
    "VOTERHISTORY",
)
