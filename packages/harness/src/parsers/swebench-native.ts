/**
 * SWE-bench's parsers for Go, Rust, Java and C/C++ logs, ported line for line (its
 * `harness/log_parsers/{go,rust,java,c}.py`): the same patterns over `line.strip()`, and the last
 * report of a test wins. Regexes use the `s` flag so `.` matches every character but `\n`, as in Python.
 */
import type { TestStatus } from '@faun/schema';
import type { TestMap } from './common.ts';
import { pyRe, pyStrip, setLast } from './py.ts';

function eachLine(log: string, fn: (line: string) => void): void {
  for (const line of log.split('\n')) fn(pyStrip(line));
}

/** The lines `re` matches: the test id in group 2, its status what `status` makes of group 1. */
function byLine(log: string, re: RegExp, status: (s: string) => TestStatus): TestMap {
  const out: TestMap = {};
  eachLine(log, (line) => {
    const m = re.exec(line);
    if (m) setLast(out, m[2]!, status(m[1]!));
  });
  return out;
}

/** PASSED when the status word is `ok`, FAILED otherwise. */
const passIf =
  (ok: string) =>
  (s: string): TestStatus =>
    s === ok ? 'PASSED' : 'FAILED';

const GO = pyRe(String.raw`^--- (PASS|FAIL|SKIP): (.+) \((.+)\)$`, 's');
const GO_STATUS: Record<string, TestStatus> = { PASS: 'PASSED', FAIL: 'FAILED', SKIP: 'SKIPPED' };

/** `parse_log_gotest`: `--- PASS: TestX (0.00s)`, subtests keep their full `Parent/sub` id. */
export function parseSwebenchGotest(log: string): TestMap {
  return byLine(log, GO, (s) => GO_STATUS[s]!);
}

const CARGO = pyRe(String.raw`^test\s+(\S+)\s+\.\.\.\s+(\w+)$`, 's');

/** `parse_log_cargo`: `test x ... ok|FAILED`; `ignored` (and anything else) is not recorded. */
export function parseSwebenchCargo(log: string): TestMap {
  const out: TestMap = {};
  eachLine(log, (line) => {
    const m = CARGO.exec(line);
    if (!m) return;
    if (m[2] === 'ok') setLast(out, m[1]!, 'PASSED');
    else if (m[2] === 'FAILED') setLast(out, m[1]!, 'FAILED');
  });
  return out;
}

const MVN_TEST = pyRe(String.raw`^.*-Dtest=(\S+).*$`, 's');
const MVN_RESULT = pyRe('^.*BUILD (SUCCESS|FAILURE)$', 's');

/**
 * `parse_log_maven`: one test per `mvn … -Dtest=X` invocation (from the `set -x` trace), matched in order
 * to the next `BUILD SUCCESS|FAILURE`; results seen before any command are matched to later commands.
 */
export function parseSwebenchMaven(log: string): TestMap {
  const out: TestMap = {};
  const pending: string[] = [];
  const unmatched: string[] = [];
  const record = (name: string, status: string) =>
    setLast(out, name, status === 'SUCCESS' ? 'PASSED' : 'FAILED');
  eachLine(log, (line) => {
    const t = MVN_TEST.exec(line);
    if (t) pending.push(t[1]!);
    const r = MVN_RESULT.exec(line);
    if (r) {
      if (pending.length) record(pending.shift()!, r[1]!);
      else unmatched.push(r[1]!);
    }
  });
  while (pending.length && unmatched.length) record(pending.shift()!, unmatched.shift()!);
  return out;
}

const ANT = pyRe(String.raw`^\s*\[junit\]\s+\[(PASS|FAIL|ERR)\]\s+(.*)$`, 's');

/** `parse_log_ant`: `[junit] [PASS] name`; FAIL and ERR are failures. */
export function parseSwebenchAnt(log: string): TestMap {
  return byLine(log, ANT, passIf('PASS'));
}

const GRADLE_FULL = pyRe(String.raw`^([^>].+)\s+(PASSED|FAILED)$`, 's');
const GRADLE_NAME = pyRe(String.raw`^([^>]\S*\s+>\s+\S+)$`, 's');
const GRADLE_STATUS = pyRe('^(PASSED|FAILED)$', 's');

/**
 * `parse_log_gradle_custom`: `Class > method PASSED|FAILED` (the id is everything before the status,
 * `Class > method`), or the name alone with the status on a later line. SKIPPED is not recorded.
 */
export function parseSwebenchGradle(log: string): TestMap {
  const out: TestMap = {};
  let pending: string | null = null;
  eachLine(log, (line) => {
    const full = GRADLE_FULL.exec(line);
    if (full) {
      setLast(out, full[1]!, full[2] === 'PASSED' ? 'PASSED' : 'FAILED');
      pending = null;
      return;
    }
    const name = GRADLE_NAME.exec(line);
    if (name) {
      pending = name[1]!;
      return;
    }
    if (pending) {
      const s = GRADLE_STATUS.exec(line);
      if (s) {
        setLast(out, pending, s[1] === 'PASSED' ? 'PASSED' : 'FAILED');
        pending = null;
      }
    }
  });
  return out;
}

const GTEST = pyRe(String.raw`^.*\[\s*(OK|FAILED)\s*\]\s(.*)\s\(.*\)$`, 's');

/** `parse_log_googletest`: `[       OK ] Suite.Test (0 ms)`; a parameter description stays in the id. */
export function parseSwebenchGoogletest(log: string): TestMap {
  return byLine(log, GTEST, passIf('OK'));
}

const JQ = pyRe(String.raw`^\s*(PASS|FAIL):\s(.+)$`, 's');

/** `parse_log_jq`: automake's `PASS: name` / `FAIL: name`. */
export function parseSwebenchJq(log: string): TestMap {
  return byLine(log, JQ, passIf('PASS'));
}

const REDIS = pyRe(String.raw`^\[(ok|err|skip|ignore)\]:\s(.+?)(?:\s\((\d+\s*m?s)\))?$`, 's');

const REDIS_IN = pyRe(String.raw`\s+in\s+\S+$`, 's');

/** `parse_log_redis`: `[ok]: name (3 ms)`; a failure's trailing `in file` is dropped. */
export function parseSwebenchRedis(log: string): TestMap {
  const out: TestMap = {};
  eachLine(log, (line) => {
    const m = REDIS.exec(line);
    if (!m) return;
    const name = m[2]!;
    if (m[1] === 'ok') setLast(out, name, 'PASSED');
    else if (m[1] === 'err') setLast(out, name.replace(REDIS_IN, ''), 'FAILED');
    else setLast(out, name, 'SKIPPED');
  });
  return out;
}

const MICROPY = pyRe(String.raw`^(pass|FAIL|skip)\s+(.+)$`, 's');

/** `parse_log_micropython_test`: `pass name`, `FAIL name`, `skip name`. */
export function parseSwebenchMicropython(log: string): TestMap {
  return byLine(log, MICROPY, (s) => (s === 'pass' ? 'PASSED' : s === 'FAIL' ? 'FAILED' : 'SKIPPED'));
}
