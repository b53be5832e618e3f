# heimlich-lab: two commands on a fresh machine.
#   make lab   -> set up .venv and open the course in JupyterLab
#   make test  -> set up everything (venv, packages, Chromium) and run every test
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(PY) -m pip

.PHONY: lab app test setup setup-test browser bundle compiled lint test-js test-py test-notebooks bench release grade slides slides-vendor clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e ".[all]"
	touch $@

setup: $(VENV)/.installed

# Jupyter refuses to run as root without --allow-root (a container, a cloud sandbox): given only then.
lab: setup
	$(VENV)/bin/jupyter lab $$([ "$$(id -u)" = 0 ] && echo --allow-root) notebooks/00-rules-primer.ipynb

# The board as an app: Voila with a template that has no CDN links (heimlich_lab/commands/voila_app.py).
app: setup
	$(PY) -m heimlich_lab.commands.voila_app notebooks/app.ipynb

# Debian's Chromium for the real-browser tests (Playwright uses its executable; nothing is downloaded).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# The widget's front end: esbuild (pinned in widgets/package-lock.json, for development only, with axe-core for
# the accessibility checks of the browser tests) bundles it
# into widgets/board.bundle.js, which is committed and shipped; users never need Node.
widgets/node_modules/.package-lock.json: widgets/package.json widgets/package-lock.json
	npm ci --prefix widgets --no-audit --no-fund

bundle: widgets/node_modules/.package-lock.json
	node widgets/build.mjs

test-js: widgets/node_modules/.package-lock.json
	node --test widgets/tests/

# The slides load reveal.js, require.js, jQuery and MathJax from beside the decks (no CDN): npm packages pinned in
# instructor/slides/package-lock.json. scripts/make_slides.py copies them next to the decks it writes.
instructor/slides/node_modules/.package-lock.json: instructor/slides/package.json instructor/slides/package-lock.json
	npm ci --prefix instructor/slides --no-audit --no-fund

slides-vendor: instructor/slides/node_modules/.package-lock.json

# One reveal.js deck per week (instructor/schedule.yaml) into instructor/slides/build/, without answers.
slides: setup slides-vendor
	$(PY) scripts/make_slides.py

# The type checker and the linter ([tool.mypy] and [tool.ruff] in pyproject.toml): mypy over the package (strict on
# the engine and the game-agnostic inference modules), ruff (pyflakes, pycodestyle, import order, bugbear).
lint: setup
	$(PY) -m ruff check heimlich_lab
	$(PY) -m mypy

# On every core (pytest-xdist); a file's tests stay together, in order, on one worker (--dist loadfile).
XDIST = -n auto --dist loadfile

# The real-browser tests run axe-core (widgets/package.json, with esbuild) on each table.
# Every test reads the beliefs with the array code, the reference (HEIMLICH_NUMPY_ONLY=1: the fixtures and the
# same-number tests are bit for bit); then the compiled kernels' tests run with numba (the `fast` extra), against it.
KERNEL_TESTS = tests/test_belief_kernels.py tests/test_topsecret_batch.py tests/test_belief_size_groups.py \
	heimlich_lab/games/heimlich/inference/kernels.py
test-py: setup browser slides-vendor widgets/node_modules/.package-lock.json compiled
	HEIMLICH_NUMPY_ONLY=1 $(PY) -m pytest $(XDIST) tests heimlich_lab
	HEIMLICH_NUMPY_ONLY=0 $(PY) -m pytest $(XDIST) $(KERNEL_TESTS)

# The package's own byte code, written once: where PYTHONDONTWRITEBYTECODE is set (CI machines, containers), every
# process the tests start (workers, kernels, the command line) would compile it again. Stale files are never used
# (Python checks each against its source).
compiled: setup
	$(PY) -m compileall -q heimlich_lab

# The student release (notebooks/) is current and holds no answer material; every source notebook runs (lax), with
# its hidden tests, and so do the assignments' model answers (their key cells are # NBVAL_CHECK_OUTPUT); those
# listed in instructor/notebooks/STRICT have committed outputs, checked strictly; the release runs top to bottom
# with every answer blank (lax).
# The notebooks read beliefs with the array code (HEIMLICH_NUMPY_ONLY=1), as their outputs were made.
# The strict notebooks run once, strictly (their hidden tests with them), with the numpy and OpenBLAS kernels their
# outputs were made with (scripts/pinned_kernels.py: AVX-512 kernels round some results differently in the last
# digit of a full-precision float); the others run lax, in one run (a lax run
# compares only the outputs of # NBVAL_CHECK_OUTPUT cells, which the sanitizer leaves alone but for ids and times).
STRICT_SOURCES = $(addprefix instructor/notebooks/,$(shell cat instructor/notebooks/STRICT))
LAX_SOURCES = $(filter-out $(STRICT_SOURCES),$(wildcard instructor/notebooks/*.ipynb))

test-notebooks: setup compiled
	$(PY) scripts/make_release.py --check
	$(PY) scripts/make_answer_key.py --check
	HEIMLICH_NUMPY_ONLY=1 $(PY) -m pytest $(XDIST) --nbval-lax --nbval-current-env \
	    --nbval-sanitize-with instructor/notebooks/sanitize.cfg $(LAX_SOURCES) instructor/assignments/ notebooks/
	HEIMLICH_NUMPY_ONLY=1 $(PY) scripts/pinned_kernels.py $(PY) -m pytest $(XDIST) --nbval --nbval-current-env \
	    --nbval-sanitize-with instructor/notebooks/sanitize.cfg $(STRICT_SOURCES)

test: setup lint browser test-js test-py test-notebooks

bench: setup
	$(VENV)/bin/heimlich-lab bench

# The student release (notebooks/) and the answer key (instructor/answer-key.md), from instructor/notebooks/.
release: setup
	$(PY) scripts/make_release.py
	$(PY) scripts/make_answer_key.py

# Grade a folder of submissions: make grade SUBMISSIONS=path/to/submissions OUT=path/to/new/folder
# (SUBMISSIONS/<student>/NN-name.ipynb; docs/assessment.md).
grade: setup
	@test -n "$(SUBMISSIONS)" -a -n "$(OUT)" || { echo "usage: make grade SUBMISSIONS=folder OUT=new-folder"; exit 2; }
	$(VENV)/bin/heimlich-lab grade "$(SUBMISSIONS)" --out "$(OUT)"

clean:
	rm -rf $(VENV) dist build .pytest_cache .mypy_cache .ruff_cache .benchmarks widgets/node_modules instructor/slides/node_modules \
	    instructor/slides/build
