/** The log parser registry: a spec names its parser; `parseLog` runs it. */
import { parseCargo } from './cargo.ts';
import type { LogParser, TestMap } from './common.ts';
import { parseCtest, parseCtestGtest, parseGtest } from './ctest.ts';
import { parseDjango } from './django.ts';
import { parseGo, parseGoJson, parseGoVerbose } from './go.ts';
import { parseJest, parseJestJson, parseMocha, parseVitest } from './js.ts';
import { parseGradleText, parseJunit, parseJunitXml } from './junit.ts';
import { NATIVE_PARSERS } from './native-registry.ts';
import { parseNodeSpec, parseNodeTest, parseTap } from './node.ts';
import { parseMatplotlib, parsePytest, parsePytestOptions, parsePytestV2, parseSeaborn } from './pytest.ts';
import { parseSympy } from './sympy.ts';
import { parseUnittest } from './unittest.ts';

export type { LogParser, TestMap } from './common.ts';
export { put, stripAnsi } from './common.ts';
export { conflictingReports } from './pytest.ts';
export { stableTestMap, stableTestName } from './stable-names.ts';
export { normaliseUnittestId } from './unittest.ts';

/** Every parser by name. */
export const PARSERS = {
  pytest: parsePytest,
  'pytest-options': parsePytestOptions,
  'pytest-v2': parsePytestV2,
  matplotlib: parseMatplotlib,
  seaborn: parseSeaborn,
  sympy: parseSympy,
  django: parseDjango,
  unittest: parseUnittest,
  go: parseGo,
  'go-json': parseGoJson,
  'go-verbose': parseGoVerbose,
  junit: parseJunit,
  'junit-xml': parseJunitXml,
  gradle: parseGradleText,
  'node-test': parseNodeTest,
  tap: parseTap,
  'node-spec': parseNodeSpec,
  jest: parseJest,
  'jest-json': parseJestJson,
  vitest: parseVitest,
  mocha: parseMocha,
  cargo: parseCargo,
  ctest: parseCtest,
  gtest: parseGtest,
  'ctest-gtest': parseCtestGtest,
  ...NATIVE_PARSERS,
} satisfies Record<string, LogParser>;

export type ParserName = keyof typeof PARSERS;

export function isParserName(name: string): name is ParserName {
  return Object.hasOwn(PARSERS, name);
}

/** Runs the named parser over `log`. */
export function parseLog(parser: ParserName, log: string): TestMap {
  return PARSERS[parser](log);
}
