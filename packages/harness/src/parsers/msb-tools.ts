/**
 * Multi-SWE-bench's `parse_log` rules for Maven, Gradle, go test, cargo, ctest and automake logs, ported
 * line for line from its per-repository instance classes (see `msb-native.ts`).
 */
import type { TestMap } from './common.ts';
import {
  addMatches,
  fromSets,
  markLine,
  pyRe,
  pySplitlines,
  pyStrip,
  type SetResult,
  sets,
  strippedLines,
} from './py.ts';

// `re.compile(r"\x1B\[[0-?9;]*[mK]")`
const MSB_ANSI = pyRe(String.raw`\x1B\[[0-?9;]*[mK]`, 'g');
const SUREFIRE = pyRe(
  String.raw`Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+), Time elapsed: [\d.]+ .+? in (.+)`,
  's',
);

function classify(
  r: SetResult,
  name: string,
  run: number,
  failures: number,
  errors: number,
  skipped: number,
) {
  if (run > 0 && failures === 0 && errors === 0 && skipped !== run) r.passed.add(name);
  else if (failures > 0 || errors > 0) r.failed.add(name);
  else if (skipped === run) r.skipped.add(name);
}

/**
 * jackson-core, jackson-databind, jackson-dataformat-xml, dubbo: one result per test class from
 * Surefire's `Tests run: N, Failures: F, Errors: E, Skipped: S, Time elapsed: … in <Class>`; a class
 * passes when nothing failed and not every test was skipped.
 */
export function parseMsbMavenClass(log: string): TestMap {
  const r = sets();
  for (const line of pySplitlines(log.replace(MSB_ANSI, ''))) {
    const m = SUREFIRE.exec(line);
    if (m) classify(r, m[5]!, +m[1]!, +m[2]!, +m[3]!, +m[4]!);
  }
  return fromSets(r);
}

// Python's `.` is `[^\n]`; these patterns run over the whole log.
const GSON_PASS = pyRe(
  String.raw`Running\s+([^\n]+?)\s*\n(?:(?!Tests run:)[^\n]*\n)*Tests run:\s*(\d+),\s*Failures:\s*(\d+),\s*Errors:\s*(\d+),\s*Skipped:\s*(\d+),\s*Time elapsed:\s*[\d.]+\s*sec`,
  'g',
);
const GSON_FAIL = pyRe(
  String.raw`Running ([^\n]+?)\nTests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+), Time elapsed: [\d.]+ sec +<<< FAILURE!`,
  'g',
);

/** Python's `pattern.findall(text, 8)` (the reference passes `re.MULTILINE`, i.e. 8, as the start). */
function* findFrom(re: RegExp, text: string, pos: number): Generator<RegExpExecArray> {
  re.lastIndex = pos;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    yield m;
    if (m[0].length === 0) re.lastIndex++;
  }
}

/**
 * gson: `Running <Class>` followed by Surefire's old `Tests run: … Time elapsed: 0.1 sec` summary
 * (the newer `0.1 s - in` form is not read), classified as for jackson; `<<< FAILURE!` fails the class.
 */
export function parseMsbGson(log: string): TestMap {
  const r = sets();
  for (const m of findFrom(GSON_PASS, log, 8)) classify(r, m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!);
  for (const m of findFrom(GSON_FAIL, log, 8)) r.failed.add(m[1]!);
  return fromSets(r);
}

const TASK_PASS = [
  pyRe(String.raw`^> Task :(\S+)$`, 's'),
  pyRe(String.raw`^> Task :(\S+) UP-TO-DATE$`, 's'),
  pyRe(String.raw`^> Task :(\S+) FROM-CACHE$`, 's'),
  /^(.+ > .+) PASSED$/s,
];
const TASK_FAIL = [pyRe(String.raw`^> Task :(\S+) FAILED$`, 's'), pyRe('^(.+ > .+) FAILED$', 's')];
const TASK_SKIP = [
  pyRe(String.raw`^> Task :(\S+) SKIPPED$`, 's'),
  pyRe(String.raw`^> Task :(\S+) NO-SOURCE$`, 's'),
  pyRe('^(.+ > .+) SKIPPED$', 's'),
];

/**
 * kotlinx.coroutines, ktlint, junit5, spotbugs, micronaut-core, …: Gradle tasks (`> Task :x`, with
 * UP-TO-DATE / FROM-CACHE passing) and `Class > method PASSED|FAILED|SKIPPED` lines, unstripped.
 */
export function parseMsbGradle(log: string): TestMap {
  const r = sets();
  for (const line of pySplitlines(log)) {
    markLine(r, line, TASK_PASS, TASK_FAIL, TASK_SKIP);
  }
  return fromSets(r);
}

const GO_PASS = pyRe(String.raw`^--- PASS: (\S+)`, 's');
const GO_FAIL = [pyRe(String.raw`^--- FAIL: (\S+)`, 's'), pyRe(String.raw`^FAIL:?\s?(.+?)\s`, 's')];
const GO_SKIP = pyRe(String.raw`^--- SKIP: (\S+)`, 's');

function goParser(base: (name: string) => string): (log: string) => TestMap {
  return (log) => {
    const r = sets();
    for (const raw of pySplitlines(log)) {
      const line = pyStrip(raw);
      const p = GO_PASS.exec(line);
      if (p && !r.failed.has(p[1]!)) {
        r.skipped.delete(p[1]!);
        r.passed.add(base(p[1]!));
      }
      for (const re of GO_FAIL) {
        const f = re.exec(line);
        if (f) {
          r.passed.delete(f[1]!);
          r.skipped.delete(f[1]!);
          r.failed.add(base(f[1]!));
        }
      }
      const s = GO_SKIP.exec(line);
      if (s && !r.passed.has(s[1]!) && r.failed.has(s[1]!)) r.skipped.add(base(s[1]!));
    }
    return fromSets(r);
  };
}

/**
 * caddy, prometheus, hugo, echo, cli, … : `--- PASS|FAIL|SKIP: name` (subtests by their full id) and
 * `FAIL <pkg>` lines; a failure is never overridden by a later pass.
 */
export const parseMsbGo = goParser((name) => name);

/** grpc-go, etcd, go-zero, gorm, gin: as `parseMsbGo`, a subtest counted under its parent (`A/b` → `A`). */
export const parseMsbGoParent = goParser((name) => {
  const i = name.lastIndexOf('/');
  return i < 0 ? name : name.slice(0, i);
});

const CARGO_PASS = pyRe(String.raw`^test (\S+) ... ok`, 's');
const CARGO_FAIL = pyRe(String.raw`^test (\S+) ... FAILED`, 's');
const CARGO_SKIP = pyRe(String.raw`^test (\S+) ... ignored`, 's');

/** ripgrep, tokio, clap, serde, nushell, bat, fd, … : `test x ... ok|FAILED|ignored` (prefix match). */
export function parseMsbCargo(log: string): TestMap {
  const r = sets();
  for (const raw of pySplitlines(log)) {
    const line = pyStrip(raw);
    const p = CARGO_PASS.exec(line);
    if (p) r.passed.add(p[1]!);
    const f = CARGO_FAIL.exec(line);
    if (f) r.failed.add(f[1]!);
    const s = CARGO_SKIP.exec(line);
    if (s) r.skipped.add(s[1]!);
  }
  return fromSets(r);
}

const CTEST_PASS = pyRe(String.raw`^\d+\/\d+\s*Test\s*#\d+:\s*(.*?)\s*\.+\s*Passed`, 's');
const CTEST_FAIL = pyRe(String.raw`^\d+\/\d+\s*Test\s*#\d+:\s*(.*?)\s*\.+\s*\*+Failed$`, 's');
const CTEST_FAIL_OPEN = pyRe(String.raw`^\d+\/\d+\s*Test\s*#\d+:\s*(.*?)\s*\.+\s*\*+Failed`, 's');

function ctestParser(fail: RegExp): (log: string) => TestMap {
  return (log) => {
    const r = sets();
    for (const line of strippedLines(log)) addMatches(r, line, { passed: CTEST_PASS, failed: fail });
    return fromSets(r);
  };
}

/**
 * fmt, nlohmann/json, simdjson, rdkit: ctest's `1/9 Test #1: name ....   Passed` and
 * `…   ***Failed` ending the line (a failure with a trailing time is not read).
 */
export const parseMsbCtest = ctestParser(CTEST_FAIL);

/** OpenBLAS, libgit2, fluent-bit, SDL, cgal, root: as `parseMsbCtest`, `***Failed  0.1 sec` read too. */
export const parseMsbCtestOpen = ctestParser(CTEST_FAIL_OPEN);

const AM = {
  PASS: pyRe(String.raw`^PASS: (\S+)$`, 's'),
  FAIL: pyRe(String.raw`^FAIL: (\S+)$`, 's'),
  SKIP: pyRe(String.raw`^SKIP: (\S+)$`, 's'),
};

/** jq (and zstd outside its keyword ranges): automake's `PASS: t` / `FAIL: t` / `SKIP: t`. */
export function parseMsbAutomake(log: string): TestMap {
  const r = sets();
  for (const line of strippedLines(log))
    addMatches(r, line, { passed: AM.PASS, failed: AM.FAIL, skipped: AM.SKIP });
  return fromSets(r);
}

function keywordOnce(keyword: string): (log: string) => TestMap {
  return (log) =>
    log.split(keyword).length - 1 === 1 ? { 'all tests': 'PASSED' } : { 'all tests': 'FAILED' };
}

/** zstd PRs 1230–1748: one `all tests` result, passed when `PASS: all POOL tests` occurs exactly once. */
export const parseMsbZstdPool = keywordOnce('PASS: all POOL tests');

/** zstd PRs 1831–2703: `all tests` passed when the educational decoder's make exits exactly once. */
export const parseMsbZstdDecoder = keywordOnce(
  "make[1]: Leaving directory '/home/zstd/doc/educational_decoder'",
);

/**
 * RxJava, vert.x, pmd, keycloak, docusaurus, scala-native, scala-js: the reference reads no tests (and
 * fastify, vuex: their parser always raises).
 */
export function parseMsbNone(_log: string): TestMap {
  return {};
}

const MRUBY = {
  PASS: pyRe(String.raw`^(.*?)\s*:\s*\.$`, 's'),
  FAIL: pyRe(String.raw`^(.*?)\s*:\s*F$`, 's'),
  OK: pyRe(String.raw`\sOK:\s`, 'gs'),
  KO: pyRe(String.raw`\sKO:\s*(\d+)`, 'gs'),
  TOTAL: pyRe(String.raw`Total:\s*(\d+)`, 's'),
  OK_N: pyRe(String.raw`\sOK:\s*(\d+)`, 's'),
};

/**
 * Python's `int()` of a `\d+` match, whose digits may be any Unicode decimal digits: each script's digits
 * run 0–9 in consecutive code points, so a digit's value is the count of digits just below it, mod 10.
 */
function pyDigits(s: string): number {
  let n = 0;
  for (const ch of s) {
    let below = 0;
    for (let cp = ch.codePointAt(0)! - 1; /\p{Nd}/u.test(String.fromCodePoint(cp)); cp--) below++;
    n = n * 10 + (below % 10);
  }
  return n;
}

/**
 * mruby from PR 4933: mrbtest's verbose lines `name : .` (passed) and `name : F` (failed), plus `build`,
 * passed when the log holds exactly two `OK:` summaries (mrbtest's and bintest's).
 */
export function parseMsbMruby(log: string): TestMap {
  const r = sets();
  ((log.match(MRUBY.OK) ?? []).length === 2 ? r.passed : r.failed).add('build');
  for (const line of strippedLines(log)) addMatches(r, line, { passed: MRUBY.PASS, failed: MRUBY.FAIL });
  return fromSets(r);
}

/**
 * mruby PRs 2784–4932: `build` passed when the log holds exactly two `KO: n` summaries, `all tests` when
 * both are 0 (one `Fail: regression for #1564` is forgiven in the second). The reference raises when that
 * line occurs once with fewer than two summaries.
 */
export function parseMsbMrubyKo(log: string): TestMap {
  const ko = [...log.matchAll(MRUBY.KO)].map((m) => pyDigits(m[1]!));
  if (log.split('Fail: regression for #1564').length - 1 === 1) {
    if (ko.length < 2) return {};
    ko[1]! -= 1;
  }
  const r = sets();
  (ko.length === 2 ? r.passed : r.failed).add('build');
  (ko.length === 2 && ko[0] === 0 && ko[1] === 0 ? r.passed : r.failed).add('all tests');
  return fromSets(r);
}

/** mruby before PR 2784: `all tests` passed when the first `Total: n` and ` OK: n` are equal and not 0. */
export function parseMsbMrubyTotal(log: string): TestMap {
  const total = MRUBY.TOTAL.exec(log);
  const ok = MRUBY.OK_N.exec(log);
  const t = total ? pyDigits(total[1]!) : 0;
  const o = ok ? pyDigits(ok[1]!) : 0;
  return t && o && t === o ? { 'all tests': 'PASSED' } : { 'all tests': 'FAILED' };
}
