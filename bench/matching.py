"""Benchmark: precision and recall of owner and voter matching on the generator's ground truth.

Not a test. Run from the repository root::

    .venv/bin/python bench/matching.py                         # default sample (data/raw/sample)
    .venv/bin/python bench/matching.py --parcels 40000 200000  # generated samples
    .venv/bin/python bench/matching.py --toml /tmp/s200k/petition.toml --signers 10000

For each sample it loads the petition, runs the owner matcher and the resident
test's voter matching, and compares with ``ground_truth.csv`` (the generator's
record of who signed each line: ``parcels`` for owners, ``sboeid`` for voters).

* **auto precision**: of the lines counted automatically (no decision), the
  share whose credited parcels are exactly the true parcels (owners; entity
  lines included) or whose voter is the true one (voters). Target 99.9 %.
* **found**: of the lines with a true match (``kind`` owner / voter), the
  share counted right or sent to review. Target 97 %.
* **speed**: the matching time alone; then the same matching repeated on a
  synthetic load of ``--signers`` lines (true lines resampled with
  replacement, pages renumbered) against the sample's roll and voter file.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.config import load_config
from pipeline.io.load import load_inputs
from pipeline.people.matching import owner_matcher
from pipeline.people.owners import parse_owners
from pipeline.people.placement import place_addresses, situs_addresses
from pipeline.people.voters import resident_test, voter_addresses


def _truth(path: Path) -> pd.DataFrame:
    t = pd.read_csv(path, dtype=str, keep_default_na=False)
    t["page"] = t["page"].astype("int64")
    t["line"] = t["line"].astype("int64")
    return t.rename(columns={"note": "truth_note", "basis": "truth_basis"})


def _label_sets(keys: object, labels: dict[str, str]) -> frozenset[str]:
    if not isinstance(keys, tuple):
        return frozenset()
    return frozenset(labels.get(k, k) for k, _ in keys)


def evaluate_sample(toml: Path, *, signers: int, voters: int = 0) -> dict[str, object]:
    """Precision, recall and time of the matchers on one generated sample."""
    config = load_config(toml)
    inputs = load_inputs(config)
    truth = _truth(toml.parent / "ground_truth.csv")
    sig, pages = inputs.signatures, inputs.pages
    assert sig is not None and pages is not None and inputs.voters is not None
    owners = parse_owners(inputs.roll, overrides=inputs.ownership_overrides)
    labels = dict(
        zip(
            inputs.roll["parcel_key"].astype(str),
            inputs.roll["swis_code"].astype(str) + ":" + inputs.roll["print_key_code"].astype(str),
            strict=True,
        )
    )
    from pipeline.geometry import apportion_table

    fr_all = apportion_table(inputs.parcels, inputs.territory, sliver_tolerance=0.005)
    inside = set(
        inputs.parcels["parcel_key"]
        .astype(str)
        .to_numpy()[fr_all["fraction_in_territory"].to_numpy() > 0]
        .tolist()
    )
    inside_labels = frozenset(v for k, v in labels.items() if k in inside)
    t0 = time.perf_counter()
    m = owner_matcher(sig, pages, owners, inputs.roll)
    t_owner = time.perf_counter() - t0
    m = m.merge(truth, on=["page", "line"], how="left")
    own = m[m["truth_basis"] == "owners"]
    got = own["owner_keys"].map(lambda k: _label_sets(k, labels))
    want = own["parcels"].map(lambda s: frozenset(x for x in s.split(";") if x))
    counted = own["status"].isin(["counted", "duplicate"])
    # parcels outside the territory are credited nothing: compare inside (or truth) only
    right = counted & np.array(
        [bool(w) and (g & (inside_labels | w)) == w for g, w in zip(got, want, strict=True)]
    )
    exact = counted & (got == want)  # the same parcels, outside ones included
    true_owner = own["kind"] == "owner"
    found = true_owner & (right | (own["status"] == "needs_review"))
    wrong = own[counted & ~right]

    situs = situs_addresses(inputs.roll)
    fr = pd.Series(1.0, index=pd.Index(inputs.roll["parcel_key"].unique()))
    t0 = time.perf_counter()
    place = place_addresses(voter_addresses(inputs.voters), situs=situs, fractions=fr)
    _, lines, _ = resident_test(
        sig,
        pages,
        inputs.voters,
        place,
        statuses=config.policy.voter_statuses,
        regime=__import__("pipeline.law.regimes", fromlist=["REGIMES"]).REGIMES[inputs.regime],
    )
    t_voter = time.perf_counter() - t0
    v = lines.merge(truth, on=["page", "line"], how="left")
    auto_v = v["matched_to"] != ""
    auto_v &= v["status"].isin(["counted", "duplicate", "outside_territory", "not_qualified_voter"])
    v_right = auto_v & (v["matched_to"] == v["sboeid"])
    true_v = v["kind"] == "voter"
    v_found = true_v & (v_right | (v["status"] == "needs_review"))

    out: dict[str, object] = {
        "sample": str(toml.parent),
        "owner_lines": len(own),
        "owner_auto": int(counted.sum()),
        "owner_auto_precision": float(right.sum() / max(int(counted.sum()), 1)),
        "owner_auto_exact_parcels": float(exact.sum() / max(int(counted.sum()), 1)),
        "owner_review": int((own["status"] == "needs_review").sum()),
        "owner_found": float(found.sum() / max(int(true_owner.sum()), 1)),
        "owner_seconds": round(t_owner, 2),
        "voter_lines": len(v),
        "voter_auto": int(auto_v.sum()),
        "voter_auto_precision": float(v_right.sum() / max(int(auto_v.sum()), 1)),
        "voter_review": int((v["status"] == "needs_review").sum()),
        "voter_found": float(v_found.sum() / max(int(true_v.sum()), 1)),
        "voter_seconds": round(t_voter, 2),
        "wrong_owner_lines": wrong[["page", "line", "truth_note", "note", "status"]].to_dict(
            "records"
        )[:10],
    }
    if signers:
        out |= _speed(sig, pages, owners, inputs, signers, voters)
    return out


def _grow_voters(voters: pd.DataFrame, roll: pd.DataFrame, n: int) -> pd.DataFrame:
    """The voter file grown to ``n`` voters: names resampled, each new voter living
    at a random situs address of the roll (a town-wide file, as the BOE delivers)."""
    if n <= len(voters):
        return voters
    rng = np.random.default_rng(1)
    extra = voters.iloc[rng.integers(0, len(voters), n - len(voters))].reset_index(drop=True)
    homes = roll.iloc[rng.integers(0, len(roll), len(extra))].reset_index(drop=True)
    extra["SBOEID"] = [f"NYBENCH{i:013d}" for i in range(len(extra))]
    extra["RADDNUMBER"] = homes["parcel_address_number"].astype(str).to_numpy()
    extra["RSTREETNAME"] = (
        (
            homes["parcel_address_street"].astype(str)
            + " "
            + homes["parcel_address_suff"].astype(str)
        )
        .str.strip()
        .to_numpy()
    )
    for col in ("RHALFCODE", "RPREDIRECTION", "RPOSTDIRECTION", "RADDRNONSTD"):
        if col in extra:
            extra[col] = ""
    return pd.concat([voters, extra], ignore_index=True)


def _speed(
    sig: pd.DataFrame,
    pages: pd.DataFrame,
    owners: pd.DataFrame,
    inputs: object,
    n: int,
    voters_n: int = 0,
) -> dict[str, object]:
    rng = np.random.default_rng(0)
    big = sig.iloc[rng.integers(0, len(sig), n)].reset_index(drop=True)
    big["page"] = np.arange(n) // 10 + 1
    big["line"] = np.arange(n) % 10 + 1
    basis = big["page"].map(pages.set_index("page")["basis"]).fillna("owners")
    half = n // 2
    pg = pd.DataFrame(
        {
            "page": np.arange(1, n // 10 + 2),
            "basis": ["owners"] * (half // 10) + ["residents"] * (n // 10 + 1 - half // 10),
        }
    )
    del basis
    roll = inputs.roll  # type: ignore[attr-defined]
    voters = _grow_voters(inputs.voters, roll, voters_n)  # type: ignore[attr-defined]
    t0 = time.perf_counter()
    owner_matcher(big, pg, owners, roll)
    t1 = time.perf_counter()
    place = place_addresses(
        voter_addresses(voters),
        situs=situs_addresses(roll),
        fractions=pd.Series(1.0, index=pd.Index(roll["parcel_key"].unique())),
    )
    from pipeline.law.regimes import REGIMES

    resident_test(big, pg, voters, place, statuses=["A", "I"], regime=REGIMES["2-202-pre-2024"])
    t2 = time.perf_counter()
    return {
        "speed_signers": n,
        "speed_parcels": len(roll),
        "speed_voters": len(voters),
        "speed_owner_seconds": round(t1 - t0, 2),
        "speed_voter_seconds": round(t2 - t1, 2),
    }


def main() -> None:
    """Run the benchmark and print one JSON object per sample."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--parcels", type=int, nargs="*", default=[])
    ap.add_argument("--signers", type=int, default=0, help="synthetic speed load (lines)")
    ap.add_argument(
        "--voters", type=int, default=0, help="grow the voter file to this many for the speed load"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--toml", type=Path, nargs="*", default=[], help="samples already generated (petition.toml)"
    )
    args = ap.parse_args()
    import json

    from pipeline.sample import generate_sample

    for toml in args.toml:
        print(
            json.dumps(evaluate_sample(toml, signers=args.signers, voters=args.voters)), flush=True
        )
    if args.toml and not args.parcels:
        return
    if not args.parcels:
        print(
            json.dumps(
                evaluate_sample(
                    Path("data/raw/sample/petition.toml"), signers=args.signers, voters=args.voters
                )
            )
        )
        return
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.parcels:
            t0 = time.perf_counter()
            toml = generate_sample(Path(tmp) / str(n), parcels=n, seed=args.seed)
            gen = time.perf_counter() - t0
            res = evaluate_sample(toml, signers=args.signers, voters=args.voters)
            res["generate_seconds"] = round(gen, 1)
            print(json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
