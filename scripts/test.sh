#!/usr/bin/env bash
# npm test: every check of the project — types, lint, catalogs, build, unit and statechart model
# tests, server integration tests (embedded PGlite, then PostgreSQL when DATABASE_URL is set) and
# end-to-end tests in Chromium against the real server. Installs Debian's chromium when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

results=.test-results
rm -rf "$results" && mkdir -p "$results"
step() { printf '\n\033[1m▶ %s\033[0m\n' "$*"; }

# The extraction, pipeline and server tests read the shared test documents beside the checkout
# (../shared/corpus, corpus-einvoices, corpus-receipts, corpus-eu): stop now, with one message,
# rather than failing dozens of tests later.
for set in corpus corpus-einvoices corpus-receipts corpus-eu; do
  if [ ! -d "../shared/$set" ]; then
    echo "the test documents are missing: npm test needs ../shared/$set beside this checkout ($(cd .. && pwd)/shared/$set)" >&2
    exit 1
  fi
done

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  step "installing Debian's chromium for the browser tests"
  if [ "$(id -u)" -ne 0 ]; then
    echo "chromium is missing: run 'sudo apt-get install -y chromium' (or set CHROMIUM_PATH)" >&2
    exit 1
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# German receipts are read with Debian's German tesseract model (no npm package ships one); the
# extraction tests' German receipts expect it. Without root, they run with what is installed.
if [ -z "${OCR_TESSDATA_DIR:-}" ] && ! ls /usr/share/tesseract-ocr/*/tessdata/deu.traineddata >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then
    step "installing Debian's German OCR model (tesseract-ocr-deu)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr-deu >/dev/null
  else
    echo "tesseract-ocr-deu is missing: German receipts are read with the English and French models" >&2
  fi
fi

bin=node_modules/.bin

step "types"
node --import tsx scripts/generate-routes.ts
"$bin/tsc" -p tsconfig.json --noEmit

step "lint and format"
"$bin/biome" check --error-on-warnings .

step "no unused file, export or dependency (knip), no import cycle (madge), src/ and server/ share only contract/"
"$bin/knip" --no-progress
"$bin/madge" --circular --extensions ts,tsx src server contract
node --import tsx scripts/check-boundaries.ts

step "message catalogs are up to date"
"$bin/lingui" extract >/dev/null
if ! git diff --quiet -- locales 2>/dev/null; then
  git --no-pager diff --stat -- locales
  echo "locales/*.po changed: run 'npm run i18n:extract', translate, and commit the catalogs" >&2
  exit 1
fi

step "build (every French message must be translated)"
node scripts/build.mjs

vitest() {
  local name=$1
  shift
  "$bin/vitest" run --reporter=default --reporter=json --outputFile.json="$results/$name.json" "$@"
}

step "unit, statechart model, server (PGlite) and end-to-end tests"
status=0
vitest embedded --project unit --project server --project extraction --project e2e --exclude tests/e2e/postgres.test.ts --exclude tests/server/worker-process.test.ts || status=1

if [ -n "${DATABASE_URL:-}" ]; then
  step "server and end-to-end tests on PostgreSQL ($(node -e 'const u=new URL(process.argv[1]);console.log(u.host+u.pathname)' "$DATABASE_URL"))"
  TEST_DATABASE_URL="$DATABASE_URL" vitest postgres --project server --project e2e tests/server tests/server/worker-process.test.ts tests/e2e/postgres.test.ts || status=1
else
  step "PostgreSQL run skipped: set DATABASE_URL=postgres://… to run the server tests on PostgreSQL too"
fi

node scripts/test-summary.mjs "$results"
exit $status
