#!/usr/bin/env bash
# Rebuilds the log pairs of vectors/stable-names: the same tests of a real suite run twice, the second run
# differing only in what a run decides — timing (one CPU, one worker), ordering, worker count, colour — so
# that both logs must give the same test names (src/parsers/stable-names.test.ts).
#
#   bun run setup python go node rust java cpp        # the toolchain images
#   packages/harness/vectors/scripts/pair-logs.sh OUT_DIR [pair…]
#
# Sources as scripts/native-logs.sh: the dayjs, express, gson and jq mirrors under $MIRRORS (default
# /work/.mirror); Debian packages for go-cmp, regex-syntax, numpy, CPython's tests, sympy and googletest.
# Containers use the network only for Debian's apt and the npm registry.
# Pairs: dayjs-jest dayjs-vitest go-cmp regex-syntax numpy-pytest python-runners express-mocha
# node-test-fixture gson-maven gson-gradle gtest-samples jq-automake (default: all).
set -euo pipefail

ALL="dayjs-jest dayjs-vitest go-cmp regex-syntax numpy-pytest python-runners express-mocha node-test-fixture gson-maven gson-gradle gtest-samples jq-automake"
# shellcheck source=logs-common.sh
source "$(dirname "$0")/logs-common.sh"

# jest 22 (dayjs's devDependencies at that commit) prints `(N ms)` after a test that took a millisecond or
# more, and `(N s)` after a slow test file: run b, in a container limited to a fifth of a CPU (as on a loaded
# machine), and run d, one worker on one CPU, print other durations than runs a and c. The dependencies are
# installed once, in a shared work tree.
dayjs_jest() {
  local npm o="$OUT/dayjs-jest" src="$WORK/dayjs"
  checkout iamkun/dayjs 0f6c19e3b63bcc3ff74917cb3a60125020c75648 "$src"
  npm=$(npm_cli)
  run "$(tag node)" "$o" '
cd /src && node /npm/bin/npm-cli.js install --legacy-peer-deps --ignore-scripts --no-audit --no-fund > /tmp/npm-install.log 2>&1' \
    -v "$src:/src" -v "$npm:/npm:ro" $(ca_args)
  local cd='cd /src && export TZ=Europe/London' jest='./node_modules/.bin/jest --verbose --coverage=false'
  run "$(tag node)" "$o" "$cd && $jest > /out/a.log 2>&1 || true" -v "$src:/src"
  run "$(tag node)" "$o" "$cd && $jest -w 1 > /out/b.log 2>&1 || true" -v "$src:/src" --cpus 0.2
  # c and d: another default run, and one worker pinned to one CPU
  run "$(tag node)" "$o" "$cd && $jest > /out/c.log 2>&1; taskset -c 0 $jest -w 1 > /out/d.log 2>&1; true" -v "$src:/src"
}

# vitest 1.6 (its verbose reporter prints a test's time after it when it was slow) over dayjs's jest-style
# suite with vitest's globals (the files that call `jest.*` fail in both runs): run b on a fifth of a CPU in
# one fork.
dayjs_vitest() {
  local npm o="$OUT/dayjs-vitest" src="$WORK/dayjs-vitest"
  checkout iamkun/dayjs 0f6c19e3b63bcc3ff74917cb3a60125020c75648 "$src"
  npm=$(npm_cli)
  run "$(tag node)" "$o" '
cd /src && node /npm/bin/npm-cli.js install --legacy-peer-deps --ignore-scripts --no-audit --no-fund > /tmp/npm-install.log 2>&1
node /npm/bin/npm-cli.js install --no-save --legacy-peer-deps --ignore-scripts --no-audit --no-fund vitest@1.6.0 >> /tmp/npm-install.log 2>&1' \
    -v "$src:/src" -v "$npm:/npm:ro" $(ca_args)
  local cd='cd /src && export TZ=Europe/London' v='./node_modules/.bin/vitest run --globals --reporter verbose --dir test'
  run "$(tag node)" "$o" "$cd && $v > /out/a.log 2>&1 || true" -v "$src:/src"
  run "$(tag node)" "$o" "$cd && $v --pool forks --poolOptions.forks.singleFork > /out/b.log 2>&1 || true" \
    -v "$src:/src" --cpus 0.2
}

# go test -v: run b with one package and one test at a time (other durations, other interleaving).
go_cmp() {
  run "$(tag go)" "$OUT/go-cmp" "
$GO_CMP_SETUP
"'go test -v -count=1 ./... > /out/a.log 2>&1 || true
go test -v -count=1 -p 1 -parallel 1 ./... > /out/b.log 2>&1 || true
go test -json -count=1 ./... > /out/json-a.log 2>&1 || true
go test -json -count=1 -p 1 -parallel 1 ./... > /out/json-b.log 2>&1 || true'
}

# cargo test: run b with one test thread (another order, other times).
regex_syntax() {
  run "$(tag rust)" "$OUT/regex-syntax" "
$REGEX_SYNTAX_SETUP
"'cargo test --offline --no-fail-fast --lib > /out/a.log 2>&1 || true
cargo test --offline --no-fail-fast --lib -- --test-threads=1 > /out/b.log 2>&1 || true'
}

# pytest -rA: run b with pytest-xdist on two workers (another order, `[gwN]` tags in the progress lines);
# run c serial with colour forced on (read by parse_log_pytest_v2, which drops colour codes).
numpy_pytest() {
  run "$(tag python)" "$OUT/numpy-pytest" '
set -e
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends python3-numpy python3-pytest-xdist python3-hypothesis >/dev/null
dpkg-query -W python3-numpy python3-pytest-xdist > /out/version.txt
cd /usr/lib/python3/dist-packages
T="numpy/lib/tests/test_function_base.py numpy/lib/tests/test_shape_base.py -p no:cacheprovider"
python3 -m pytest -rA -v $T > /out/a.log 2>&1 || true
python3 -m pytest -rA -v -n 2 $T > /out/b.log 2>&1 || true
python3 -m pytest -rA -v --color=yes $T > /out/colour.log 2>&1 || true'
}

# Python's own runners on Debian's packages: unittest -v over CPython's json and csv tests (read by the
# unittest and django parsers), run b on a fifth of a CPU; sympy's runner (SWE-bench's sympy form, verbose)
# under two hash seeds (hash randomisation changes set and dict order inside sympy).
python_runners() {
  local o="$OUT/python-runners"
  run "$(tag python)" "$o" '
set -e
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends libpython3.11-testsuite python3-sympy >/dev/null
dpkg-query -W libpython3.11-testsuite python3-sympy > /out/version.txt
python3 -m unittest -v test.test_json test.test_csv > /out/unittest-a.log 2>&1 || true
cd /usr/lib/python3/dist-packages
S="import sys, sympy; sys.exit(not sympy.test(\"sympy/core/tests/test_numbers.py\", \"sympy/sets/tests/test_sets.py\", verbose=True, colors=False))"
PYTHONHASHSEED=0 python3 -c "$S" > /out/sympy-a.log 2>&1 || true
PYTHONHASHSEED=1 python3 -c "$S" > /out/sympy-b.log 2>&1 || true'
  run "$(tag python)" "$o" '
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends libpython3.11-testsuite >/dev/null
python3 -m unittest -v test.test_json test.test_csv > /out/unittest-b.log 2>&1 || true' --cpus 0.2
}

# node's test runner as faun's javascript default runs it (`node --test --test-reporter=tap`: durations in
# each test's YAML block), over faun's own javascript fixture at its fix commit (testing/fixtures.ts): run b
# on a fifth of a CPU.
node_test_fixture() {
  local o="$OUT/node-test-fixture"
  (cd "$ROOT" && bun -e "import { makeFixture } from './packages/harness/testing/fixtures.ts'; makeFixture('javascript', '$WORK')") >/dev/null
  git -C "$WORK/fixture-javascript" checkout -q main
  local t='cd /src && node --test --test-reporter=tap'
  run "$(tag node)" "$o" "$t > /out/a.log 2>&1; true" -v "$WORK/fixture-javascript:/src:ro"
  run "$(tag node)" "$o" "$t > /out/b.log 2>&1; true" -v "$WORK/fixture-javascript:/src:ro" --cpus 0.2
}

# mocha prints `(45ms)` after a slow test: run b on a fifth of a CPU prints other durations. Spec and TAP.
express_mocha() {
  local o="$OUT/express-mocha" src="$WORK/express" npm
  npm=$(npm_cli)
  checkout expressjs/express a3714473feb3d2908add734d340e7755fd85e0a3 "$src"
  run "$(tag node)" "$o" '
cd /src && node /npm/bin/npm-cli.js install --no-audit --no-fund > /tmp/npm-install.log 2>&1' \
    -v "$src:/src" -v "$npm:/npm:ro" $(ca_args)
  local m='cd /src && ./node_modules/.bin/mocha --require test/support/env --check-leaks test/ test/acceptance/'
  run "$(tag node)" "$o" "$m --reporter spec > /out/spec-a.log 2>&1; $m --reporter tap > /out/tap-a.log 2>&1; true" -v "$src:/src"
  run "$(tag node)" "$o" "$m --reporter spec > /out/spec-b.log 2>&1; $m --reporter tap > /out/tap-b.log 2>&1; true" \
    -v "$src:/src" --cpus 0.2
}

# Surefire (`Tests run: …, Time elapsed: … - in Class`, its XML reports printed after the run, as faun's java
# default does): run b runs the classes in reverse alphabetical order.
gson_maven() {
  local o="$OUT/gson-maven" src="$WORK/gson"
  [ -d "$src" ] || checkout google/gson gson-parent-2.10.1 "$src"
  mkdir -p "$o" && cp "$HERE/native/gson-pom.xml" "$o/pom.xml"
  run "$(tag java)" "$o" "
set -e
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends libmaven-resources-plugin-java >/dev/null
cp -r /src/gson /tmp/gson && cd /tmp/gson && cp /out/pom.xml pom.xml && rm -f src/main/java/module-info.java
$GSON_TEMPLATES
M='mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo -Dsurefire.useFile=false'
\$M test > /out/a.log 2>&1 || true
cat target/surefire-reports/*.xml >> /out/a.log
rm -rf target/surefire-reports
\$M test -Dsurefire.runOrder=reversealphabetical > /out/b.log 2>&1 || true
cat target/surefire-reports/*.xml >> /out/b.log" -v "$src:/src:ro"
}

# Gradle's text events (`Class > method PASSED`, Debian's gradle, scripts/native/gson-build.gradle): run b
# again (--rerun-tasks: other times). Not a pair: with two test forks (maxParallelForks = 2) one fork's JVM
# warning is glued to the other's event line (`WARNING: … has been called by Class > method PASSED`), which
# every Gradle parser then reads as a test's name.
gson_gradle() {
  local o="$OUT/gson-gradle" src="$WORK/gson"
  [ -d "$src" ] || checkout google/gson gson-parent-2.10.1 "$src"
  mkdir -p "$o" && cp "$HERE/native/gson-build.gradle" "$o/build.gradle"
  run "$(tag java)" "$o" "
set -e
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends gradle >/dev/null
dpkg-query -W gradle > /out/version.txt
cp -r /src/gson /tmp/gson && cd /tmp/gson && rm -f pom.xml && cp /out/build.gradle build.gradle
$GSON_TEMPLATES
echo \"rootProject.name = 'gson'\" > settings.gradle
gradle --offline --no-daemon test --console=plain > /out/a.log 2>&1 || true
gradle --offline --no-daemon test --rerun-tasks --console=plain > /out/b.log 2>&1 || true" -v "$src:/src:ro"
}

# GoogleTest's own samples under ctest: run b with two jobs (another order and other times), and the test
# binaries run directly, b shuffled.
gtest_samples() {
  run "$(tag cpp)" "$OUT/gtest-samples" '
set -e
dpkg-query -W googletest > /out/version.txt
cmake -S /usr/src/googletest/googletest -B /tmp/b -Dgtest_build_samples=ON > /tmp/cmake.log 2>&1
cmake --build /tmp/b -j 2 >> /tmp/cmake.log 2>&1
cd /tmp/b
for t in sample*_unittest; do echo "add_test($t /tmp/b/$t)"; done > CTestTestfile.cmake
ctest -V > /out/ctest-a.log 2>&1 || true
ctest -V -j 2 > /out/ctest-b.log 2>&1 || true
for t in sample*_unittest; do ./$t; done > /out/gtest-a.log 2>&1 || true
for t in sample*_unittest; do ./$t --gtest_shuffle --gtest_random_seed=7; done > /out/gtest-b.log 2>&1 || true'
}

# automake's parallel test harness (jq 1.7.1, Debian's oniguruma): run b with make -j 2 (another order).
jq_automake() {
  local src="$WORK/jq"
  checkout jqlang/jq 71c2ab509a8628dbbad4bc7b3f98a64aa90d3297 "$src"
  run "$(tag cpp)" "$OUT/jq-automake" '
set -e
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends autoconf automake libtool libonig-dev >/dev/null
cp -r /src /tmp/jq && cd /tmp/jq
autoreconf -i > /tmp/build.log 2>&1
./configure --with-oniguruma=yes --disable-docs --disable-valgrind >> /tmp/build.log 2>&1
make -j 2 >> /tmp/build.log 2>&1
make check > /out/a.log 2>&1 || true
rm -f tests/*.log tests/*.trs test-suite.log
make -j 2 check > /out/b.log 2>&1 || true' -v "$src:/src:ro"
}

# shellcheck disable=SC2086 # the names are words
run_each pair "$ALL" ${*:-$ALL}
