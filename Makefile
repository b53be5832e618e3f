# heimlich-lab: two commands on a fresh machine.
#   make lab   -> set up .venv and open the course in JupyterLab
#   make test  -> set up everything (venv, packages, Chromium) and run every test
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(PY) -m pip

.PHONY: lab app test setup setup-test browser bundle test-js test-py test-notebooks bench student-copies clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e ".[all]"
	touch $@

setup: $(VENV)/.installed

lab: setup
	$(VENV)/bin/jupyter lab notebooks/00-rules-primer.ipynb

# The board as an app: Voila with a template that has no CDN links (heimlich_lab/games/heimlich/widget/voila_app.py).
app: setup
	$(PY) -m heimlich_lab.games.heimlich.widget.voila_app notebooks/play.ipynb

# Debian's Chromium for the real-browser tests (Playwright uses its executable; nothing is downloaded).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# The widget's front end: esbuild (pinned in widgets/package-lock.json, for development only) bundles it
# into widgets/board.bundle.js, which is committed and shipped; users never need Node.
widgets/node_modules/.package-lock.json: widgets/package.json widgets/package-lock.json
	npm ci --prefix widgets --no-audit --no-fund

bundle: widgets/node_modules/.package-lock.json
	node widgets/build.mjs

test-js: widgets/node_modules/.package-lock.json
	node --test widgets/tests/

test-py: setup browser
	$(PY) -m pytest tests heimlich_lab

# Every solution notebook runs (lax); those listed in instructor/notebooks/STRICT have committed outputs, checked strictly.
test-notebooks: setup
	$(PY) scripts/make_student_copies.py --check
	$(PY) scripts/make_answer_key.py --check
	$(PY) -m pytest --nbval-lax --nbval-current-env instructor/notebooks/
	$(PY) -m pytest --nbval --nbval-current-env --nbval-sanitize-with instructor/notebooks/sanitize.cfg \
	    $(addprefix instructor/notebooks/,$(shell cat instructor/notebooks/STRICT))

test: setup browser test-js test-py test-notebooks

bench: setup
	$(VENV)/bin/heimlich-lab bench

student-copies: setup
	$(PY) scripts/make_student_copies.py
	$(PY) scripts/make_answer_key.py

clean:
	rm -rf $(VENV) dist build .pytest_cache .benchmarks widgets/node_modules
