#!/usr/bin/env bash
# Rebuilds the real test logs of vectors/real-logs for Go, Rust, Java (Maven, Gradle), JavaScript (jest,
# mocha) and C++ (ctest + GoogleTest) by running each project's own test suite in faun's toolchain images.
#
#   bun run setup java go node rust cpp            # the toolchain images
#   packages/harness/vectors/scripts/native-logs.sh OUT_DIR [project…]
#
# Sources: bare mirrors under $MIRRORS (default /work/.mirror/<owner>+<repo>/repo) for gson, dayjs, express
# and fmt; Debian packages for go-cmp, gorilla/mux and regex-syntax. Containers use the network only for Debian's apt
# and the npm registry (npm itself comes from the registry as a tarball: $NPM_TARBALL_URL).
# Projects: go-cmp gorilla-mux regex-syntax gson-maven gson-gradle dayjs express fmt (default: all).
# The status maps in the vectors come from running the reference parsers on these logs; they are not
# produced by this script.
set -euo pipefail

ALL="go-cmp gorilla-mux regex-syntax gson-maven gson-gradle dayjs express fmt"
# shellcheck source=logs-common.sh
source "$(dirname "$0")/logs-common.sh"

go_cmp() {
  local o="$OUT/go-cmp"
  mkdir -p "$o" && cp "$HERE/native/go-cmp-planted_test.go.txt" "$o/planted_test.go"
  run "$(tag go)" "$o" "
$GO_CMP_SETUP
"'go test -v -count=1 ./... > /out/go-test-v.log 2>&1 || true
go test -json -count=1 ./... > /out/go-test-json.log 2>&1 || true
cp /out/planted_test.go cmp/zz_planted_test.go
go test -v -count=1 ./... > /out/go-test-v-planted.log 2>&1 || true'
}

gorilla_mux() {
  run "$(tag go)" "$OUT/gorilla-mux" '
set -e
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends golang-github-gorilla-mux-dev >/dev/null
dpkg-query -W golang-github-gorilla-mux-dev > /out/version.txt
export CGO_ENABLED=0 GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOCACHE=/tmp/gocache
cp -r /usr/share/gocode/src/github.com/gorilla/mux /tmp/mux && cd /tmp/mux
go test -v -count=1 ./... > /out/go-test-v.log 2>&1 || true'
}

regex_syntax() {
  local o="$OUT/regex-syntax"
  mkdir -p "$o" && cp "$HERE/native/regex-syntax-planted.rs.txt" "$o/planted.rs"
  run "$(tag rust)" "$o" "
$REGEX_SYNTAX_SETUP
"'cargo test --offline --no-fail-fast > /out/cargo-test.log 2>&1 || true
cat /out/planted.rs >> src/lib.rs
cargo test --offline --no-fail-fast --lib > /out/cargo-test-planted.log 2>&1 || true
cargo test --offline --no-fail-fast --lib -- --nocapture --test-threads=1 > /out/cargo-test-planted-nocapture.log 2>&1 || true'
}

gson_prepare() {
  [ -d "$WORK/gson" ] || checkout google/gson gson-parent-2.10.1 "$WORK/gson"
  echo "$WORK/gson/gson"
}

gson_maven() {
  local src o="$OUT/gson-maven"
  src=$(gson_prepare)
  mkdir -p "$o" && cp "$HERE/native/gson-pom.xml" "$o/pom.xml"
  run "$(tag java)" "$o" "
set -e
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends libmaven-resources-plugin-java >/dev/null
cp -r /src /tmp/gson && cd /tmp/gson && cp /out/pom.xml pom.xml && rm -f src/main/java/module-info.java
$GSON_TEMPLATES
M='mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo'
\$M test -Dsurefire.useFile=false -DfailIfNoTests=false > /out/mvn-test.log 2>&1 || true
( set -x
  for t in com.google.gson.JsonArrayTest com.google.gson.GsonTest#testOverridesDefaultExcluder com.google.gson.functional.EnumTest com.google.gson.JsonPrimitiveTest#testNulls com.google.gson.DoesNotExistTest com.google.gson.functional.PrimitiveTest#testNumberDeserialization; do
    \$M test -Dsurefire.useFile=false -Dtest=\$t -DfailIfNoTests=false
  done ) > /out/mvn-per-test.log 2>&1 || true" -v "$src:/src:ro"
}

gson_gradle() {
  local src o="$OUT/gson-gradle"
  src=$(gson_prepare)
  mkdir -p "$o" && cp "$HERE/native/gson-build.gradle" "$o/build.gradle"
  run "$(tag java)" "$o" "
set -e
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends gradle >/dev/null
dpkg-query -W gradle > /out/version.txt
cp -r /src /tmp/gson && cd /tmp/gson && rm -f pom.xml && cp /out/build.gradle build.gradle
$GSON_TEMPLATES
echo \"rootProject.name = 'gson'\" > settings.gradle
gradle --offline --no-daemon test --console=plain > /out/gradle-test-plain.log 2>&1 || true" -v "$src:/src:ro"
}

dayjs() {
  local o="$OUT/dayjs" npm
  npm=$(npm_cli)
  checkout iamkun/dayjs 0f6c19e3b63bcc3ff74917cb3a60125020c75648 "$WORK/dayjs"
  run "$(tag node)" "$o" '
set -e
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends jq >/dev/null
cp -r /src /tmp/dayjs && cd /tmp/dayjs
node /npm/bin/npm-cli.js install --legacy-peer-deps --ignore-scripts --no-audit --no-fund > /out/npm-install.log 2>&1
export TZ=Europe/London
./node_modules/.bin/jest --verbose --coverage=false > /out/jest-verbose.log 2>&1 || true
./node_modules/.bin/jest --json --coverage=false > /out/jest-json.log 2>/out/jest-json.stderr || true
# SWE-bench JEST_JSON_JQ_TRANSFORM (constants/javascript.py)
jq -r '"'"'.testResults[].assertionResults[] | "[" + (.status | ascii_upcase) + "] " + ((.ancestorTitles | join(" > ")) + (if .ancestorTitles | length > 0 then " > " else "" end) + .title)'"'"' < /out/jest-json.log > /out/jest-json-jq.log' \
    -v "$WORK/dayjs:/src:ro" -v "$npm:/npm:ro" $(ca_args)
}

express() {
  local o="$OUT/express" npm
  npm=$(npm_cli)
  mkdir -p "$o" && cp "$HERE/native/express-planted.js.txt" "$o/planted.js"
  checkout expressjs/express a3714473feb3d2908add734d340e7755fd85e0a3 "$WORK/express"
  run "$(tag node)" "$o" '
set -e
cp -r /src /tmp/express && cd /tmp/express
node /npm/bin/npm-cli.js install --no-audit --no-fund > /out/npm-install.log 2>&1
M="./node_modules/.bin/mocha --require test/support/env --check-leaks test/ test/acceptance/"
$M --reporter spec > /out/mocha-spec.log 2>&1 || true
$M --reporter json > /out/mocha-json.log 2>&1 || true
$M --reporter tap > /out/mocha-tap.log 2>&1 || true
cp /out/planted.js test/zz-planted.js
$M --reporter spec > /out/mocha-spec-planted.log 2>&1 || true
$M --reporter json > /out/mocha-json-planted.log 2>&1 || true
$M --reporter tap > /out/mocha-tap-planted.log 2>&1 || true' \
    -v "$WORK/express:/src:ro" -v "$npm:/npm:ro" $(ca_args)
}

fmt() {
  local o="$OUT/fmt"
  checkout fmtlib/fmt 0c9fce2ffefecfdce794e1859584e25877b7b592 "$WORK/fmt"
  run "$(tag cpp)" "$o" '
set -e
cp -r /src /tmp/fmt && cd /tmp/fmt
cmake -S . -B /tmp/build -DCMAKE_BUILD_TYPE=Release -DFMT_TEST=ON -DFMT_DOC=OFF > /out/cmake.log 2>&1
cmake --build /tmp/build -j 2 >> /out/cmake.log 2>&1 || true
cd /tmp/build
ctest > /out/ctest.log 2>&1 || true
ctest -V > /out/ctest-v.log 2>&1 || true' \
    -v "$WORK/fmt:/src:ro"
}

# shellcheck disable=SC2086 # the names are words
run_each project "$ALL" ${*:-$ALL}
