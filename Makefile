# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-scale lint typecheck bench sample clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/petition run data/raw/sample/petition.toml --out data/processed/sample
	@echo ""
	@echo "Results are in data/processed/sample/ (start with summary.json)"

test: $(STAMP)
	$(VENV)/bin/ruff check pipeline tests bench
	$(VENV)/bin/mypy
	$(PY) -m pytest -q

# The engines on the 1,000,000-parcel sample, the whole evaluation each way (~5 min, 3 GB).
test-scale: $(STAMP)
	test -f data/processed/scale-sample/petition.toml || \
		$(VENV)/bin/petition sample data/processed/scale-sample --parcels 1000000 --seed 7 --years 1
	PETITION_SCALE_SAMPLE=data/processed/scale-sample $(PY) -m pytest -q -s tests/test_engines.py -k scale

sample: $(STAMP)
	$(VENV)/bin/petition sample data/raw/sample --parcels 3000 --towns 2 --seed 1 --force

bench: $(STAMP)
	$(PY) bench/apportion.py

clean:
	rm -rf $(VENV) data/processed/*/
