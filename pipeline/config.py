"""The petition's TOML config, validated and fully resolved.

The layout is the one of ``shared/spec/contract.md`` (binding): the project may
add keys, never rename or drop one. Paths are relative to the config file.
Unknown keys are an error that names the key and suggests the nearest valid
one. Every default is resolved here, so that the manifest can record the
config exactly as the run used it.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from pipeline.errors import InputError

Basis = Literal["owners", "residents"]
RegimeName = Literal["auto", "2-202-pre-2024", "2024"]
#: The kinds of body § 2-200's area exception lists (``[territory] coterminous_kind``).
CoterminousKind = Literal[
    "school", "fire", "fire_protection", "fire_alarm", "town_special", "town_improvement", "town"
]

#: The STATUS codes of the BOE voter file: active (A), military (AM), special
#: federal (AF), special presidential (AP), overseas (AU), inactive (I), purged
#: (P), pre-registered under 18 (17).
VOTER_STATUS_CODES: tuple[str, ...] = ("A", "AM", "AF", "AP", "AU", "I", "P", "17")

#: BOE voter statuses counted by default: active (A, AM, AF, AP, AU) and inactive (I).
DEFAULT_VOTER_STATUSES: tuple[str, ...] = ("A", "AM", "AF", "AP", "AU", "I")


#: Control characters no text of a filing may hold (XML 1.0 cannot, so no
#: document could be written): tab, newline and return are allowed.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*", mode="after")
    @classmethod
    def _no_control_character(cls, v: Any) -> Any:
        found = _CONTROL.search(v) if isinstance(v, str) else None
        if found:
            raise ValueError(
                f"holds a control character (U+{ord(found.group()):04X}), as text pasted "
                "from a word processor may: retype the text"
            )
        return v


class PetitionSection(_Section):
    name: str = Field(min_length=1, pattern=r"\S")
    filed_on: dt.date
    bases: tuple[Basis, ...] = Field(min_length=1)
    regime: RegimeName = "auto"

    @field_validator("filed_on", mode="before")
    @classmethod
    def _a_date(cls, v: Any) -> Any:
        if isinstance(v, dt.datetime) or not isinstance(v, dt.date | str):
            raise ValueError("should be a date, written 2023-06-01 (no time, no quotes needed)")
        return v

    @field_validator("bases")
    @classmethod
    def _distinct(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(v)) != len(v):
            raise ValueError("a basis is listed twice")
        return v


class TerritorySection(_Section):
    boundary: Path
    crs: str | None = None
    coterminous_with: str | None = None
    #: Added: the kind of body the coterminous claim is, as the petition states
    #: it (:data:`pipeline.law.coterminous.CLAIM_KINDS`), for a claim whose text
    #: the tool cannot read (:func:`pipeline.law.coterminous.read_claim`).
    coterminous_kind: CoterminousKind | None = None
    district: Path | None = None
    #: Added: street centrelines for the streets description (§ 2-202.1.c(1)(b)).
    streets: Path | None = None
    #: Added: boundaries of existing villages (a territory may include no part
    #: of one, § 2-200): an overlap is ``includes_existing_village``.
    villages: Path | None = None

    @field_validator("crs")
    @classmethod
    def _a_crs(cls, v: str | None) -> str | None:
        # checked here, so that a bad value is told against the config's key,
        # not the first layer read with it
        if v is None:
            return v
        from pyproj import CRS
        from pyproj.exceptions import CRSError

        try:
            CRS.from_user_input(v)
        except CRSError:
            raise ValueError(f"{v!r} is not a coordinate reference system") from None
        return v


class TownSection(_Section):
    swis: str = Field(pattern=r"^\d{6}$")
    name: str = Field(min_length=1, pattern=r"\S")
    #: One roll file, a folder of yearly rolls, or (added) a list of yearly roll
    #: files; with several years, the year's roll is chosen by
    #: :func:`pipeline.io.load.resolve_roll`.
    roll: Path | tuple[Path, ...]
    parcels: Path
    boundary: Path | None = None
    equalization_rate: float | None = Field(
        default=None, gt=0, le=1000, strict=True, allow_inf_nan=False
    )
    #: Added by this project: the county (for the jurat of the certification).
    county: str | None = None
    #: Added: month and day the town's final roll is completed (default 1 July).
    roll_completion: str = "07-01"
    #: Added: force the roll year instead of deriving it from ``filed_on``.
    roll_year: int | None = Field(default=None, ge=1800, le=2200, strict=True)

    @field_validator("roll_completion")
    @classmethod
    def _month_day(cls, v: str) -> str:
        if not re.fullmatch(r"\d{2}-\d{2}", v):
            raise ValueError(f'{v!r} is not a month and day (MM-DD, e.g. "07-01")')
        month, day = (int(x) for x in v.split("-"))
        try:
            dt.date(2000, month, day)  # a leap year: 02-29 is a day
        except ValueError:
            raise ValueError(f"{v!r} is not a month and day (MM-DD)") from None
        return v

    @field_validator("roll")
    @classmethod
    def _roll_list(cls, v: Path | tuple[Path, ...]) -> Path | tuple[Path, ...]:
        if isinstance(v, tuple) and not v:
            raise ValueError("an empty list of roll files: name at least one")
        return v


class EqualizationSection(_Section):
    rates: Path | None = None


class SignersSection(_Section):
    pages: Path | None = None
    signatures: Path | None = None

    @model_validator(mode="after")
    def _both(self) -> SignersSection:
        if (self.pages is None) != (self.signatures is None):
            raise ValueError("give both `pages` and `signatures`, or neither")
        return self


class VotersSection(_Section):
    file: Path | None = None


class InhabitantsSection(_Section):
    file: Path | None = None


class Designee(_Section):
    name: str = Field(min_length=1, pattern=r"\S")
    address: str = ""
    town: str = ""


class OverridesSection(_Section):
    apportionment: Path | None = None
    ownership: Path | None = None
    matches: Path | None = None


class PolicySection(_Section):
    value_basis: Literal["assessment_total", "town_taxable_value"] = "assessment_total"
    sliver_tolerance: float = Field(default=0.005, ge=0, lt=0.5, strict=True, allow_inf_nan=False)
    voter_statuses: tuple[str, ...] = DEFAULT_VOTER_STATUSES
    #: Added: a voter at a straddling parcel counts as inside at this fraction or more
    #: (above 0: at 0 a parcel wholly outside would count as inside).
    straddle_voter_threshold: float = Field(default=0.5, gt=0, le=1, strict=True)
    #: Added: projected CRS the geometry is worked in (``None``: chosen from the place).
    working_crs: str | None = None

    @field_validator("voter_statuses")
    @classmethod
    def _known_statuses(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if not v:
            raise ValueError("no voter status listed: no voter would count")
        unknown = [s for s in v if s not in VOTER_STATUS_CODES]
        if unknown:
            raise ValueError(
                f"{', '.join(map(repr, unknown))} is no voter status of the BOE file (known: "
                f"{', '.join(VOTER_STATUS_CODES)})"
            )
        return v

    @field_validator("working_crs")
    @classmethod
    def _projected(cls, v: str | None) -> str | None:
        if v is None:
            return v
        from pyproj import CRS
        from pyproj.exceptions import CRSError

        try:
            crs = CRS.from_user_input(v)
        except CRSError:
            raise ValueError(f"{v!r} is not a coordinate reference system") from None
        if not crs.is_projected:
            raise ValueError(
                f"{v} is not a projected CRS: areas and fractions are worked in feet or "
                "metres, never in degrees (e.g. the county's State Plane zone, EPSG:2260)"
            )
        return v

    #: Added: tolerance of the coterminous check, as a share of the district's area.
    coterminous_tolerance: float = Field(default=0.001, ge=0, lt=1, strict=True)


class OutputSection(_Section):
    dir: Path | None = None


class PetitionConfig(_Section):
    """The whole config, paths resolved against the config file's folder."""

    petition: PetitionSection
    territory: TerritorySection
    towns: tuple[TownSection, ...] = Field(min_length=1)
    equalization: EqualizationSection = EqualizationSection()
    signers: SignersSection = SignersSection()
    voters: VotersSection = VotersSection()
    inhabitants: InhabitantsSection = InhabitantsSection()
    designees: tuple[Designee, ...] = ()
    overrides: OverridesSection = OverridesSection()
    policy: PolicySection = PolicySection()
    output: OutputSection = OutputSection()
    #: The config file itself (set by :func:`load_config`).
    source: Path | None = None

    @field_validator("towns")
    @classmethod
    def _towns_distinct(cls, v: tuple[TownSection, ...]) -> tuple[TownSection, ...]:
        seen: set[str] = set()
        for town in v:
            if town.swis in seen:
                raise ValueError(f"town {town.swis} is listed twice (two [[towns]] tables)")
            seen.add(town.swis)
        return v

    def input_files(self) -> dict[str, Path]:
        """Every input file the config names, keyed by its config key."""
        files: dict[str, Path] = {"territory.boundary": self.territory.boundary}
        if self.territory.district:
            files["territory.district"] = self.territory.district
        if self.territory.streets:
            files["territory.streets"] = self.territory.streets
        if self.territory.villages:
            files["territory.villages"] = self.territory.villages
        for town in self.towns:
            if isinstance(town.roll, tuple):  # a list of yearly rolls: each file by its index
                files.update({f"towns.{town.swis}.roll[{i}]": r for i, r in enumerate(town.roll)})
            else:
                files[f"towns.{town.swis}.roll"] = town.roll
            files[f"towns.{town.swis}.parcels"] = town.parcels
            if town.boundary:
                files[f"towns.{town.swis}.boundary"] = town.boundary
        optional = {
            "equalization.rates": self.equalization.rates,
            "signers.pages": self.signers.pages,
            "signers.signatures": self.signers.signatures,
            "voters.file": self.voters.file,
            "inhabitants.file": self.inhabitants.file,
            "overrides.apportionment": self.overrides.apportionment,
            "overrides.ownership": self.overrides.ownership,
            "overrides.matches": self.overrides.matches,
        }
        files.update({k: v for k, v in optional.items() if v is not None})
        return files

    def resolved(self) -> dict[str, Any]:
        """The config as the run used it, every default filled in (for the manifest).

        Paths are written relative to the config's folder, so that the manifest
        does not depend on where the petition folder sits.
        """
        base = self.source.parent if self.source else None

        def rel(value: Any) -> Any:
            if isinstance(value, Path):
                if base is not None:
                    try:
                        return value.relative_to(base).as_posix()
                    except ValueError:
                        return value.as_posix()
                return value.as_posix()
            if isinstance(value, Mapping):
                return {k: rel(v) for k, v in value.items()}
            if isinstance(value, list | tuple):
                return [rel(v) for v in value]
            if isinstance(value, dt.date):
                return value.isoformat()
            return value

        data = self.model_dump(exclude={"source"})
        return dict(rel(data))


_PATH_KEYS: dict[str, tuple[str, ...]] = {
    "territory": ("boundary", "district", "streets", "villages"),
    "towns": ("roll", "parcels", "boundary"),
    "equalization": ("rates",),
    "signers": ("pages", "signatures"),
    "voters": ("file",),
    "inhabitants": ("file",),
    "overrides": ("apportionment", "ownership", "matches"),
    "output": ("dir",),
}


def _model_for(section: str) -> type[BaseModel] | None:
    field = PetitionConfig.model_fields.get(section)
    if field is None:
        return None
    ann = field.annotation
    args = getattr(ann, "__args__", None)
    if args:  # tuple[TownSection, ...]
        ann = args[0]
    return ann if isinstance(ann, type) and issubclass(ann, BaseModel) else None


def _suggest(word: str, choices: list[str]) -> str:
    near = difflib.get_close_matches(word, choices, n=1, cutoff=0.5)
    return f"; did you mean '{near[0]}'?" if near else f"; valid keys: {', '.join(sorted(choices))}"


def _key_part(raw: dict[str, Any], before: list[Any], part: Any) -> str:
    """One part of a config key for a message: ``.name``, ``.<town SWIS>`` or `` #n``.

    A table of a list (``[[designees]]``) is numbered from 1, as the
    unknown-key message numbers it (``designees #2.name``).
    """
    if not isinstance(part, int):
        return f".{part}"
    if before == ["towns"]:
        towns = raw.get("towns")
        if isinstance(towns, list) and part < len(towns) and isinstance(towns[part], dict):
            swis = towns[part].get("swis")
            if isinstance(swis, str) and re.fullmatch(r"\d{6}", swis.strip()):
                return f".{swis.strip()}"
    return f" #{part + 1}"


def _plain_words(err: Mapping[str, Any]) -> str:
    """A validation error in words a town clerk can act on (pydantic's otherwise)."""
    kind = str(err.get("type", ""))
    given = err.get("input")
    field = str(err["loc"][-1]) if err.get("loc") else ""
    if kind == "string_pattern_mismatch" and field == "swis":
        return f'{given!r} is no SWIS code: write the town\'s 6 digits in quotes ("104400")'
    if kind == "string_pattern_mismatch" and field == "name":
        return "must not be blank: write the name"
    if kind == "string_type" and isinstance(given, int | float) and not isinstance(given, bool):
        return f'write the value in quotes, as text ("{given}")'
    if kind in ("too_short", "string_too_short"):
        return "must not be empty" if kind == "string_too_short" else "give at least one value"
    if kind in ("tuple_type", "list_type"):
        example = f", e.g. [{json.dumps(given)}]" if isinstance(given, str | int | float) else ""
        return f"should be a list in brackets{example}"
    if kind.startswith("date"):
        return f"{given!r} is no date: write it as YYYY-MM-DD, without quotes (2023-06-01)"
    msg: str = str(err.get("msg", "")).removeprefix("Value error, ")
    return msg


def _check_unknown_keys(raw: Mapping[str, Any], file: Path) -> None:
    top = [k for k in PetitionConfig.model_fields if k != "source"]
    for key, value in raw.items():
        if key not in top:
            raise InputError(file, f"unknown section [{key}]{_suggest(key, top)}", column=key)
        model = _model_for(key)
        if model is None:
            continue
        allowed = list(model.model_fields)
        tables = value if isinstance(value, list) else [value]
        for i, table in enumerate(tables):
            if not isinstance(table, Mapping):
                continue
            for sub in table:
                if sub not in allowed:
                    where = f"[[{key}]] #{i + 1}" if isinstance(value, list) else f"[{key}]"
                    raise InputError(
                        file,
                        f"unknown key '{sub}' in {where}{_suggest(sub, allowed)}",
                        column=f"{key}.{sub}",
                    )


#: Path keys a config must give (section, key): an empty one cannot be left out.
_REQUIRED_PATHS = frozenset({("territory", "boundary"), ("towns", "roll"), ("towns", "parcels")})


def _resolve_paths(raw: dict[str, Any], base: Path, file: Path) -> dict[str, Any]:
    out = dict(raw)
    for section, keys in _PATH_KEYS.items():
        value = out.get(section)
        tables = value if isinstance(value, list) else [value]
        for table in tables:
            if not isinstance(table, dict):
                continue
            for k in keys:
                given = table.get(k)
                if (isinstance(given, str) and not given.strip()) or (
                    isinstance(given, list)
                    and any(isinstance(v, str) and not v.strip() for v in given)
                ):
                    # an empty path would be the config's own folder
                    where = (
                        f"towns.{table.get('swis', '?')}.{k}"
                        if section == "towns"
                        else f"{section}.{k}"
                    )
                    optional = (section, k) not in _REQUIRED_PATHS
                    raise InputError(
                        file,
                        "an empty path: name the file (relative to the config)"
                        + (", or leave the key out" if optional else ""),
                        column=where,
                    )
                if isinstance(table.get(k), str):
                    table[k] = (base / table[k]).resolve()
                elif isinstance(table.get(k), list):  # a town's list of yearly rolls
                    table[k] = [(base / v).resolve() if isinstance(v, str) else v for v in table[k]]
    return out


def load_config(path: str | Path) -> PetitionConfig:
    """Read, validate and resolve a petition config.

    Parameters
    ----------
    path
        The TOML file.

    Raises
    ------
    InputError
        Missing or unreadable file, TOML syntax, unknown key (with the nearest
        valid key), a value of the wrong type, or a named input file that does
        not exist.
    """
    file = Path(path)
    if not file.is_file():
        raise InputError(file, "config file not found")
    try:
        raw = tomllib.loads(file.read_text(encoding="utf-8-sig"))  # a BOM (Notepad) allowed
    except UnicodeDecodeError as exc:
        raise InputError(file, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(file, f"not valid TOML: {exc}") from None
    except OSError as exc:
        raise InputError(file, f"cannot be read ({exc.strerror or exc})") from None
    _check_unknown_keys(raw, file)
    raw = _resolve_paths(raw, file.resolve().parent, file)
    try:
        config = PetitionConfig.model_validate({**raw, "source": file.resolve()})
    except ValidationError as exc:
        err = exc.errors()[0]
        # pydantic's own names of a union's branches ("lax-or-strict[...]") are no
        # key; a town is named by its SWIS, as elsewhere (towns.104400.roll[1]),
        # another list's item by its position (designees[0].name)
        parts = [p for p in err["loc"] if "[" not in str(p)]
        loc = "".join(_key_part(raw, parts[:i], p) for i, p in enumerate(parts)).lstrip(".")
        raise InputError(file, _plain_words(err), column=loc) from None
    for key, p in config.input_files().items():
        if not p.exists():
            raise InputError(file, f"the file {p} does not exist", column=key)
        if key.startswith("towns.") and ".roll[" in key and not p.is_file():
            raise InputError(file, f"{p} is a folder: a list of rolls names roll files", column=key)
    return config
