"""Shared machinery of the tabular readers: strict CSV/JSON loading and conversion.

Every table is read as text (no type guessing, no NA guessing), then each
column is converted strictly; the first bad value raises :class:`InputError`
with the file, the data row (counted from 1), the column and the value.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from pipeline.errors import InputError
from pipeline.frames import PARCEL_KEY, SOURCE_ROW
from pipeline.keys import normalize_print_key, normalize_print_keys

_FLOAT = r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_INT = r"-?[0-9]{1,18}"
_SWIS = r"[0-9]{6}"
_NON_WORD = re.compile(r"[^0-9a-z]+")

# a cell opened by a stray quote may hold the rest of the file: the stdlib reader
# must read it (to name its row), not fail at its default 128 KiB
csv.field_size_limit(max(csv.field_size_limit(), (1 << 31) - 1))


def snake(name: str) -> str:
    """Header to snake_case: ``"Print Key Code"`` -> ``"print_key_code"``."""
    return _NON_WORD.sub("_", name.strip().lower()).strip("_")


# ---------------------------------------------------------------- reading files


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a file; missing file or empty file is an :class:`InputError`."""
    p = Path(path)
    if not p.exists():
        raise InputError(p, "file not found")
    if p.is_dir():
        raise InputError(p, "is a folder, not a file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(p, f"cannot be read ({exc.strerror or exc})") from None
    if not data.strip():
        raise InputError(p, "file is empty")
    return data


def decode_utf8(data: bytes, path: str | Path, *, header: bool | None = True) -> str:
    """Decode UTF-8 (a BOM is allowed) or raise naming the line and row of the bad byte.

    ``header`` says whether the CSV's first record is a header (for the data
    row of the byte); None for a file that is not CSV (the line alone).
    """
    if data.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise InputError(
            path,
            "is an Excel workbook (or another binary file), not a CSV text file: save it "
            'from Excel as "CSV UTF-8 (Comma delimited)"',
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        byte = data[exc.start : exc.start + 1].hex()
        before = data[: exc.start].decode("utf-8-sig", errors="replace")
        raise InputError(
            path,
            f"not valid UTF-8 (byte 0x{byte} on line {line} of the file); save the file as UTF-8",
            row=None if header is None else data_row_at(before, header=header),
        ) from None


def data_row_at(before: str, *, header: bool) -> int | None:
    """The data row (counted from 1) of the character that follows the text ``before``.

    Records are counted as a CSV reader counts them: a quoted field may span
    lines, so the line of the file and the row differ after one. None for a
    character of the header.
    """
    records = sum(1 for r in csv.reader(io.StringIO(before)) if r)
    if not before or before.endswith(("\n", "\r")):
        records += 1  # the character begins a record of its own
    row = records - 1 if header else records
    return row if row >= 1 else None


def _csv_records_python(text: str, path: str | Path, *, header: bool) -> list[list[str]]:
    """Parse with the stdlib (slow path); checks every record's field count."""
    rows = [r for r in csv.reader(io.StringIO(text)) if r]
    if not rows:
        raise InputError(path, "file is empty")
    width = len(rows[0])
    body = rows[1:] if header else rows
    if not header and len(rows) > 2 and len(rows[1]) == len(rows[2]) != width:
        # a headerless file whose first row is the odd one out: name that row
        raise InputError(path, f"{width} fields where the rows after it have {len(rows[1])}", row=1)
    for i, r in enumerate(body, start=1):
        if len(r) != width:
            where = "the header" if header else "the first row"
            raise InputError(path, f"{len(r)} fields where {where} has {width}", row=i)
    return rows


_QUOTED_VALUE = re.compile(r'"(?:[^"]|"")*"[ \t]*')
"""A quoted value written as CSV asks: closed by a quote, then a comma or the line's end."""
_LENIENT_FIELD = re.compile(r'"(?:[^"]|"")*(?:"[^,\n]*)?|[^,\n]*')
"""A field as the lenient parsers read it: text after a closing quote is appended."""
_UNCLOSED = re.compile(r'"(?:[^"]|"")*')
"""A quoted field that no quote closes."""
_DIGITS = re.compile(r"\d+")
_LETTERS = re.compile(r"[^\W\d_]+")
_SPACES = re.compile(r"\s+")


def _shape(value: str) -> str:
    """The shape of a value: digits run to ``9``, letters to ``A`` (``"12-1.3"`` -> ``"9-9.9"``)."""
    return _SPACES.sub(" ", _LETTERS.sub("A", _DIGITS.sub("9", value.strip())))


def _physical_lines(text: str) -> int:
    """Lines of the text that hold anything (a CSV reader skips the empty ones)."""
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    if "\n\n" in text or "\n\r\n" in text or text.startswith(("\n", "\r\n")):
        lines -= len(re.findall(r"(?m)^\r?\n", text))
    return lines


def _fields_of(record: str) -> list[str]:
    """The raw fields of one record's text (its line end stripped), as read leniently."""
    fields: list[str] = []
    pos = 0
    while True:
        m = _LENIENT_FIELD.match(record, pos)
        end = m.end() if m else pos
        fields.append(record[pos:end])
        if end < len(record) and record[end] == ",":
            pos = end + 1
            continue
        return fields


def _fit(fields: Sequence[str], shapes: Sequence[set[str] | None]) -> bool | None:
    """Whether more than half of the fields are shaped as their column's values are.

    None when no field can be judged: none written (an empty field may stand in
    any column), or no shapes known.
    """
    known = [(f, s) for f, s in zip(fields, shapes, strict=True) if s is not None and f.strip()]
    if not known:
        return None
    fit = sum(_shape(f.replace('"', "")) in s for f, s in known)
    return 2 * fit > len(known)


def _holds_rows(
    value: str, column: int, raw: Sequence[str], shapes: Sequence[set[str] | None]
) -> bool:
    """Whether a value of several lines is rows of the file run together.

    Two stray quotes, one opening a value in column ``c`` and one closing a
    value of the same column rows later, leave a value closed as CSV closes
    one: the rest of the first row (its fields ``c`` to the last), the whole
    rows between, and the start of the last row (its fields up to ``c``). The
    value is judged so when its lines split into those numbers of fields and
    more than half of each line's fields are shaped as their columns' values
    are, in the other rows and in this record's other fields (which, read so,
    are fields of those rows). The two fields of column ``c`` (where the
    quotes stand) are not judged: any text may be there. A note of several
    lines with commas is not rows; nor is a value of a file of one column.
    """
    width = len(shapes)
    pieces = [x.rstrip("\r") for x in value.rstrip("\r\n").split("\n")]
    first, last = pieces[0].split(","), pieces[-1].split(",")
    middle = [x.split(",") for x in pieces[1:-1]]
    if width < 2 or len(first) != width - column or len(last) != column + 1:
        return False
    if any(len(m) != width for m in middle):
        return False
    own = [_shape(f.replace('"', "")) for f in raw]
    ref = [
        ((s or set()) | ({own[j]} if j < len(own) and j != column else set())) or None
        for j, s in enumerate(shapes)
    ]
    ends = [_fit(first[1:], ref[column + 1 :]), _fit(last[:-1], ref[:column])]
    rows = [_fit(m, ref) for m in middle]
    judged = [v for v in ends + rows if v is not None]
    # a line between whose fields, as many as a row's, are shaped as the
    # rows' are is a row of the file, whatever the ends (a name of a shape
    # no other has, Mary-Jo O'Neil, on the last line: audit A35 F4)
    return bool(judged) and (all(judged) or any(v is True for v in rows))


def _refuse_stray_quotes(
    text: str,
    df: pd.DataFrame,
    cols: Sequence[str],
    *,
    header: bool,
    path: str | Path,
) -> None:
    """Refuse a quoted value that holds rows of the file (a stray quote).

    A stray quote (``,"Harlow`` never closed, or closed by another stray
    quote lines later) makes a quoted value run over the next lines, and the
    rows there are read into that one cell: lost without a word. A line
    break in a quoted value is allowed (a note of two lines). A value that
    runs over lines is refused, naming its row and column, when

    - its quote is not closed as a quoted value's is (by ``"`` before a
      comma or the line's end): a second stray quote, or none, ended it;
    - its lines are rows of the file run together (:func:`_holds_rows`): a
      second stray quote closed it as a quoted value is closed.

    Files where no record runs over lines (the lines of the file are the
    header and the rows) are not looked into.
    """
    if _physical_lines(text) == len(df) + int(header):
        return
    lines = text.split("\n")
    feed = [x + "\n" for x in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    reader = csv.reader(feed)
    before = 0
    row = -1 if header else 0
    shapes: list[set[str] | None] | None = None
    for record in reader:
        start, before = before, reader.line_num
        if not record:
            continue
        row += 1
        if before - start == 1 or row < 1:
            continue
        spanning = [i for i, v in enumerate(record) if "\n" in v]
        if not spanning:
            continue
        raw = _fields_of("".join(feed[start:before]).rstrip("\r\n"))
        for i in spanning:
            name = cols[i] if i < len(cols) else f"field {i + 1}"
            pieces = record[i].rstrip("\r\n").split("\n")
            if i >= len(raw) or not _QUOTED_VALUE.fullmatch(raw[i]):
                raise InputError(
                    path,
                    f'a stray " opens a value that runs over {len(pieces) - 1} more line(s) '
                    'of the file and is not closed as a quoted value is (by " before a comma '
                    "or the line's end): the rows there would be read into this one cell; "
                    'remove the quote, or write a quote in a value as ""',
                    row=row,
                    column=name,
                )
            commas = [x.count(",") for x in pieces]
            if commas[0] != len(cols) - 1 - i or commas[-1] != i:
                continue  # not fields of rows: a value of several lines
            if shapes is None:
                shapes = _column_shapes(df, cols)
            if _holds_rows(record[i], i, raw, shapes):
                raise InputError(
                    path,
                    f"a quoted value runs over {len(pieces) - 1} more line(s) of the file "
                    'that read as rows of it: a stray " opens it and another closes it, and '
                    "those rows would be read into this one cell; remove the quotes, or "
                    'write a quote in a value as ""',
                    row=row,
                    column=name,
                )


def _column_shapes(df: pd.DataFrame, cols: Sequence[str]) -> list[set[str] | None]:
    """The shapes of each column's one-line values (None: a column not read)."""
    out: list[set[str] | None] = []
    for c in cols:
        if c not in df.columns:
            out.append(None)
            continue
        one_line = df[c][~df[c].str.contains("\n", regex=False)]
        out.append({_shape(v) for v in one_line.unique()} if len(one_line) else None)
    return out


def _check_delimiter(header: list[str], path: str | Path) -> None:
    """A header of one field holding semicolons or tabs: another delimiter than commas.

    Excel saves "CSV" with semicolons where the decimal mark is a comma; the
    columns would otherwise be reported missing, their names run together.
    """
    if len(header) != 1:
        return
    for mark, name in ((";", "semicolons"), ("\t", "tabs")):
        if header[0].count(mark) >= 1:
            raise InputError(
                path,
                f"the header's fields are separated by {name}, not commas: save the file as "
                'CSV with commas (in Excel: "CSV UTF-8 (Comma delimited)")',
                row=None,
            )


def _lines_of(text: str) -> Iterator[str]:
    """The lines of a text with their line ends, one at a time."""
    start = 0
    while start < len(text):
        nl = text.find("\n", start)
        end = len(text) if nl < 0 else nl + 1
        yield text[start:end]
        start = end


def first_record(text: str) -> list[str]:
    """The fields of the first record of a CSV text (a quoted value may span lines)."""
    for record in csv.reader(_lines_of(text)):
        if record:
            return record
    return []


def _refuse_quote_in_header(text: str, path: str | Path) -> None:
    """Refuse a header whose line opens a quote it does not close.

    The header would run on into the rows, and they would be read as its
    last name: no rows, without a word.
    """
    nl = text.find("\n")
    line = (text if nl < 0 else text[:nl]).rstrip("\r")
    for i, field in enumerate(_fields_of(line)):
        if field.startswith('"') and _UNCLOSED.fullmatch(field):
            raise InputError(
                path,
                f"the header's field {i + 1} ({field.split(',')[0]!r}) opens a quote that its "
                "line does not close: the rows after it would be read into the header; remove "
                "the quote",
            )


_LEADING_BLANK_LINES = re.compile(r"(?:[ \t,]*\r?\n)+")  # blank, or empty cells only


def csv_text_frame(
    data: bytes,
    path: str | Path,
    *,
    encoding: str = "utf-8",
    header: bool = True,
    names: Sequence[str] | None = None,
    keep: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Read CSV bytes into a frame of ``str`` columns (``""`` for empty cells).

    Parameters
    ----------
    data
        The file's bytes.
    path
        The file (for messages).
    encoding
        ``"utf-8"`` (checked, a BOM is allowed) or ``"latin-1"``.
    header
        Whether the first record is a header.
    names
        Column names for a headerless file (default ``f0, f1, ...``).
    keep
        Only these columns are converted and returned (default: all).

    Returns
    -------
    pandas.DataFrame
        Text columns plus ``source_row`` (data rows counted from 1).

    Notes
    -----
    The fast path is pyarrow's multi-threaded parser; on any parse error the
    file is re-read with the standard library to name the offending row.
    Empty header cells are named ``unnamed_<position>``. Rows of empty cells
    after the last row with any value (what a spreadsheet's export leaves) are
    not rows (all columns read only).
    """
    if encoding == "utf-8":
        text = decode_utf8(data, path, header=header)
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
    else:
        if data.startswith(b"\xef\xbb\xbf"):
            # a UTF-8 byte-order mark before a Latin-1 file (an editor's save):
            # no part of the first value
            data = data[3:]
        text = data.decode(encoding)
        data = text.encode("utf-8")
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise InputError(
            path,
            f"a NUL byte on line {line} of the file: not a CSV text file",
            row=data_row_at(text[:nul], header=header),
        )
    if text.count("\r") != text.count("\r\n"):
        # a line ending of a carriage return alone (Excel's "CSV (Macintosh)"):
        # read as a line end like the others
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        data = text.encode("utf-8")
    blank = _LEADING_BLANK_LINES.match(text)
    if blank:
        # blank lines before the first record (the header): no rows; left in,
        # the reader took the header for data row 1 (audit A35 F7)
        text = text[blank.end() :]
        data = text.encode("utf-8")
    if header and '"' in text[: text.find("\n")]:
        _refuse_quote_in_header(text, path)
    first = first_record(text)
    if header:
        _check_delimiter(first, path)
        cols = [c.strip() or f"unnamed_{i + 1}" for i, c in enumerate(first)]
        seen: set[str] = set()
        for c in cols:
            if c in seen:
                raise InputError(path, "column appears twice in the header", column=c)
            seen.add(c)
    elif names is not None:
        cols = list(names)
    else:
        cols = [f"f{i}" for i in range(len(first))]
    wanted = [c for c in cols if keep is None or c in keep]
    try:
        table = pacsv.read_csv(
            io.BytesIO(data),
            read_options=pacsv.ReadOptions(
                column_names=cols, skip_rows=1 if header else 0, block_size=1 << 24
            ),
            parse_options=pacsv.ParseOptions(newlines_in_values=False),
            convert_options=pacsv.ConvertOptions(
                column_types={n: pa.string() for n in wanted},
                include_columns=wanted,
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
        df = pd.DataFrame(table.to_pandas())
    except (pa.ArrowInvalid, pa.ArrowException):
        rows = _csv_records_python(text, path, header=header)
        if len(rows[0]) != len(cols):
            raise InputError(
                path, f"{len(rows[0])} fields where {len(cols)} are expected", row=1
            ) from None
        body = rows[1:] if header else rows
        df = pd.DataFrame(body, columns=cols, dtype="str").loc[:, wanted]
    if len(df.columns) and any(str(t) != "str" for t in df.dtypes):
        df = df.astype("str")
    df[SOURCE_ROW] = np.arange(1, len(df) + 1, dtype="int64")
    if '"' in text:
        # a quote opened and never closed, or closed by another stray quote
        # lines later: both parsers read the rows between into one cell
        _refuse_stray_quotes(text, df, cols, header=header, path=path)
    if keep is None and len(df) and len(df.columns) > 1:
        # rows of empty cells at the end (",,," lines a spreadsheet leaves after
        # its last row) hold no entry: not read. One in the middle is read, and
        # the checks name it
        empty = np.ones(len(df), dtype=bool)
        for c in cols:
            empty &= (df[c].str.strip() == "").to_numpy(dtype=bool)
        if empty[-1]:
            last = int(np.flatnonzero(~empty)[-1]) + 1 if (~empty).any() else 0
            df = df.iloc[:last]
    return df


class _RepeatedKeys(dict[str, Any]):
    """A JSON object that wrote a key more than once (``repeated``: those keys)."""

    repeated: list[str]


def _object_of_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``' object hook: a dict, marked when a key is repeated.

    Python's ``json`` keeps the last of repeated keys silently; a roll record
    giving ``assessment_total`` twice must not be read as either.
    """
    out: dict[str, Any] = dict(pairs)
    if len(out) == len(pairs):
        return out
    seen: set[str] = set()
    repeated = [k for k, _ in pairs if k in seen or seen.add(k)]  # type: ignore[func-returns-value]
    marked = _RepeatedKeys(out)
    marked.repeated = repeated
    return marked


def json_text_frame(data: bytes, path: str | Path) -> pd.DataFrame:
    """Read a JSON list of flat objects into a ``str`` frame (absent -> ``""``)."""
    text = decode_utf8(data, path, header=None)  # the line names the place in JSON
    try:
        obj = json.loads(text, object_pairs_hook=_object_of_pairs)
    except json.JSONDecodeError as exc:
        raise InputError(path, f"not valid JSON: {exc.msg} (line {exc.lineno})") from None
    if isinstance(obj, _RepeatedKeys):
        raise InputError(
            path, f"the key {obj.repeated[0]!r} is given twice (which list is meant cannot be told)"
        )
    if isinstance(obj, dict):
        # accept {"data": [...]} / {"rows": [...]} wrappers
        lists = [v for v in obj.values() if isinstance(v, list)]
        if len(lists) != 1:
            raise InputError(path, "JSON must be a list of rows (objects)")
        obj = lists[0]
    if not isinstance(obj, list):
        raise InputError(path, "JSON must be a list of rows (objects)")
    records: list[dict[str, str]] = []
    for i, item in enumerate(obj, start=1):
        if not isinstance(item, dict):
            raise InputError(path, "each row must be a JSON object", row=i)
        if isinstance(item, _RepeatedKeys):
            raise InputError(
                path,
                "the field is given twice in this row (which value is meant cannot be told)",
                row=i,
                column=item.repeated[0],
            )
        rec: dict[str, str] = {}
        for k, v in item.items():
            if v is None:
                rec[str(k)] = ""
            elif isinstance(v, (dict, list)):
                raise InputError(path, "nested value where text is expected", row=i, column=k)
            elif isinstance(v, bool):
                rec[str(k)] = str(v).lower()
            else:
                rec[str(k)] = str(v)
        records.append(rec)
    df = pd.DataFrame.from_records(records) if records else pd.DataFrame()
    df = df.fillna("").astype("str") if len(df.columns) else df
    df[SOURCE_ROW] = np.arange(1, len(df) + 1, dtype="int64")
    return df


# ------------------------------------------------------------- column handling


def rename_columns(
    df: pd.DataFrame, path: str | Path, *, aliases: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """Rename headers to snake_case, then through ``aliases`` (keys in snake_case).

    Two headers that end up with the same name are an :class:`InputError`.
    """
    aliases = aliases or {}
    mapping: dict[str, str] = {}
    origin: dict[str, str] = {}
    for c in df.columns:
        if c == SOURCE_ROW:
            continue
        s = snake(str(c))
        s = aliases.get(s, s)
        if s in origin:
            raise InputError(
                path, f"columns '{origin[s]}' and '{c}' both mean '{s}'", column=str(c)
            )
        origin[s] = str(c)
        mapping[c] = s
    out = df.rename(columns=mapping)
    # the headers as written, for messages ("column 'Assessment Total'")
    out.attrs["written_as"] = {s: o for s, o in origin.items() if o != s}
    return out


def require_columns(df: pd.DataFrame, path: str | Path, required: Iterable[str]) -> None:
    """Raise for the first required column that is missing."""
    for col in required:
        if col not in df.columns:
            have = ", ".join(str(c) for c in df.columns if c != SOURCE_ROW)
            raise InputError(
                path, f"required column is missing (columns found: {have})", column=col
            )


def require_rows(df: pd.DataFrame, path: str | Path, what: str = "record") -> None:
    """Raise when a table has a header but no data row."""
    if len(df) == 0:
        raise InputError(path, f"no {what}: the file has a header but no data row")


def text(df: pd.DataFrame, col: str) -> pd.Series:
    """A column as stripped text; ``""`` when the column is absent."""
    if col not in df.columns:
        return pd.Series("", index=df.index, dtype="str")
    return df[col].astype("str").str.strip()


def _first_bad(df: pd.DataFrame, mask: pd.Series, values: pd.Series) -> tuple[int, str] | None:
    arr = mask.to_numpy(dtype=bool, na_value=True)
    if not arr.any():
        return None
    pos = int(np.flatnonzero(arr)[0])
    return int(df[SOURCE_ROW].iloc[pos]), str(values.iloc[pos])


def _check(
    df: pd.DataFrame,
    path: str | Path,
    col: str,
    values: pd.Series,
    bad: pd.Series,
    problem: Callable[[str], str],
) -> None:
    hit = _first_bad(df, bad, values)
    if hit is not None:
        row, value = hit
        written = df.attrs.get("written_as", {}).get(col, col)
        raise InputError(path, problem(value), row=row, column=written)


def _cast(values: pd.Series, typ: pa.DataType) -> pd.Series:
    """Cast already-validated text to a numeric type (fast, via pyarrow)."""
    res = pc.cast(pa.array(values.array), typ)
    np_dtype = "float64" if pa.types.is_floating(typ) else "int64"
    return pd.Series(res.to_numpy(zero_copy_only=False), index=values.index, dtype=np_dtype)


#: A dollar amount as written on paper: ``$``, thousands separators, cents.
_MONEY_WRITTEN = r"\$?\s*([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(\.[0-9]*)?"


def to_money(
    df: pd.DataFrame, path: str | Path, col: str, *, minimum: float | None = None
) -> pd.Series:
    """:func:`to_float` of an amount as written: ``$45,000.00`` -> 45000.0.

    A leading ``$`` and correctly placed thousands separators are read;
    anything else :func:`to_float` would refuse is still an error.
    """
    s = text(df, col)
    written = s.str.fullmatch(_MONEY_WRITTEN)
    plain = s.where(~written, s.str.replace(r"^\$\s*", "", regex=True).str.replace(",", ""))
    return to_float(df.assign(**{col: plain}), path, col, minimum=minimum)


def to_float(
    df: pd.DataFrame,
    path: str | Path,
    col: str,
    *,
    blank_ok: bool = True,
    minimum: float | None = None,
    maximum: float | None = None,
    min_exclusive: bool = False,
) -> pd.Series:
    """Strictly convert a text column to float64 (digits, optional ``-`` and ``.``).

    ``""`` becomes NaN when ``blank_ok``; otherwise it is an error. Thousands
    separators, currency signs and exponents are errors.
    """
    s = text(df, col)
    blank = s == ""
    ok = s.str.fullmatch(_FLOAT)
    if not blank_ok:
        _check(df, path, col, s, blank, lambda v: "value is missing")
    _check(df, path, col, s, ~ok & ~blank, lambda v: f"not a number: {v!r}")
    out = _cast(s.where(~blank, None), pa.float64())
    if minimum is not None:
        low = out <= minimum if min_exclusive else out < minimum
        word = "greater than" if min_exclusive else "at least"
        _check(df, path, col, s, low.fillna(False), lambda v: f"{v} must be {word} {minimum:g}")
    if maximum is not None:
        high = (out > maximum).fillna(False)
        _check(df, path, col, s, high, lambda v: f"{v} must be at most {maximum:g}")
    return out


def to_int(
    df: pd.DataFrame,
    path: str | Path,
    col: str,
    *,
    default: int | None = None,
    minimum: int | None = None,
) -> pd.Series:
    """Strictly convert a text column to int64 (digits with optional ``-``).

    ``""`` (or an absent column) becomes ``default``; without a default a blank
    is an error.
    """
    s = text(df, col)
    blank = s == ""
    if default is None:
        _check(df, path, col, s, blank, lambda v: "value is missing")
    ok = s.str.fullmatch(_INT)
    _check(df, path, col, s, ~ok & ~blank, lambda v: f"not a whole number: {v!r}")
    filled = s.where(~blank, str(default) if default is not None else "0")
    out = _cast(filled, pa.int64())
    if minimum is not None:
        _check(df, path, col, s, out < minimum, lambda v: f"{v} must be at least {minimum}")
    return out


def to_swis(
    df: pd.DataFrame, path: str | Path, col: str, *, default: str | None = None
) -> pd.Series:
    """A 6-digit SWIS column; blanks take ``default`` (an error without one).

    A 5-digit code is a 6-digit one whose leading zero a spreadsheet or a
    JSON number dropped (counties 01-09: ``12289`` is ``012289``), as the
    parcel reader already reads it.
    """
    s = text(df, col)
    s = s.where(~s.str.fullmatch(r"[0-9]{5}"), "0" + s)
    blank = s == ""
    if default is None:
        _check(df, path, col, s, blank, lambda v: "SWIS code is missing")
    else:
        s = s.where(~blank, default)
    ok = s.str.fullmatch(_SWIS)
    _check(df, path, col, s, ~ok, lambda v: f"SWIS code must be 6 digits, got {v!r}")
    return s


_DATE_FORMATS: tuple[tuple[str, str], ...] = (
    (r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}", "%Y-%m-%d"),
    (r"[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}", "%m/%d/%Y"),
    (r"[0-9]{8}", "%Y%m%d"),
)


def to_date(df: pd.DataFrame, path: str | Path, col: str, *, blank_ok: bool = True) -> pd.Series:
    """Dates as ISO ``YYYY-MM-DD`` text (``""`` when blank and allowed).

    Accepted: ``YYYY-MM-DD``, ``M/D/YYYY`` (US) and ``YYYYMMDD``.
    """
    s = text(df, col)
    blank = s == ""
    if not blank_ok:
        _check(df, path, col, s, blank, lambda v: "date is missing")
    out = pd.Series([""] * len(s), index=s.index, dtype="str")
    done = blank.copy()
    for pattern, fmt in _DATE_FORMATS:
        m = s.str.fullmatch(pattern) & ~done
        if m.any():
            parsed = pd.to_datetime(s[m], format=fmt, errors="coerce")
            bad = parsed.isna()
            bad_full = pd.Series(False, index=s.index)
            bad_full[m] = bad
            _check(df, path, col, s, bad_full, lambda v: f"not a valid date: {v!r}")
            out[m] = parsed.dt.strftime("%Y-%m-%d")
            done |= m
    _check(
        df,
        path,
        col,
        s,
        ~done,
        lambda v: f"not a date: {v!r} (use YYYY-MM-DD)",
    )
    return out


def to_enum(
    df: pd.DataFrame, path: str | Path, col: str, allowed: Sequence[str], *, lower: bool = True
) -> pd.Series:
    """A text column restricted to ``allowed`` values (compared lower-cased)."""
    s = text(df, col)
    if lower:
        s = s.str.lower()
    bad = ~s.isin(list(allowed))
    choices = ", ".join(allowed)
    _check(df, path, col, s, bad, lambda v: f"{v!r} is not one of: {choices}")
    return s


def normalize_keys(df: pd.DataFrame, path: str | Path, col: str, values: pd.Series) -> pd.Series:
    """Normalised print keys (vectorised); the first unparseable key raises.

    The :class:`InputError` names the row and column of the first bad key.
    """
    out = normalize_print_keys(values, errors="coerce")
    bad = out.isna()
    if bad.any():
        pos = int(np.flatnonzero(bad.to_numpy())[0])
        value = str(values.iloc[pos])
        try:
            normalize_print_key(value)
            problem = f"bad print key {value!r}"
        except ValueError as exc:
            problem = f"bad print key: {exc}"
        raise InputError(path, problem, row=int(df[SOURCE_ROW].iloc[pos]), column=col)
    return out


def check_unique(
    df: pd.DataFrame,
    path: str | Path,
    cols: Sequence[str],
    *,
    column: str,
    label: Callable[[pd.Series], str],
) -> None:
    """Raise for the first duplicate of ``cols``, naming both rows."""
    dup = df.duplicated(list(cols), keep=False)
    if not dup.any():
        return
    sub = df.loc[dup, [*cols, SOURCE_ROW]]
    second_mask = df.duplicated(list(cols), keep="first")
    pos = int(np.flatnonzero(second_mask.to_numpy())[0])
    rec = df.iloc[pos]
    same = sub
    for c in cols:
        same = same[same[c] == rec[c]]
    rows = sorted(int(r) for r in same[SOURCE_ROW])
    raise InputError(
        path,
        f"duplicate {label(rec)}: rows {', '.join(str(r) for r in rows)}",
        row=int(rec[SOURCE_ROW]),
        column=column,
    )


def finish(df: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Select ``columns`` in order on a fresh RangeIndex."""
    out = df.loc[:, list(columns)].reset_index(drop=True)
    return out


def load_table(path: str | Path) -> pd.DataFrame:
    """Read a UTF-8 CSV (or JSON list of rows) as text with snake_case headers."""
    data = read_bytes(path)
    if str(path).lower().endswith(".json"):
        df = json_text_frame(data, path)
    else:
        df = csv_text_frame(data, path)
    return df


__all__ = [
    "PARCEL_KEY",
    "SOURCE_ROW",
    "check_unique",
    "csv_text_frame",
    "decode_utf8",
    "finish",
    "json_text_frame",
    "load_table",
    "normalize_keys",
    "read_bytes",
    "rename_columns",
    "require_columns",
    "require_rows",
    "snake",
    "text",
    "to_date",
    "to_enum",
    "to_float",
    "to_int",
    "to_swis",
]
