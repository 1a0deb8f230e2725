/**
 * JUnit XML (Maven Surefire `TEST-*.xml`, Gradle `build/test-results`, GoogleTest `--gtest_output=xml`)
 * found anywhere in a log, and Gradle's text lines (`Class > method PASSED`). Ids are `classname.name`.
 */
import type { TestStatus } from '@faun/schema';
import { lines, put, stripAnsi, type TestMap } from './common.ts';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(
        e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)),
      );
    return ENTITIES[e] ?? all;
  });
}

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:-]+)\s*=\s*("([^"]*)"|'([^']*)')/g))
    out[m[1]!] = decode(m[3] ?? m[4] ?? '');
  return out;
}

// `<testcase …/>` or `<testcase …>body</testcase>`.
const CASE = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;

export function parseJunitXml(log: string): TestMap {
  const out: TestMap = {};
  for (const m of stripAnsi(log).matchAll(CASE)) {
    const a = attrs(m[1]!);
    const name = a.name;
    if (!name) continue;
    const id = a.classname ? `${a.classname}.${name}` : name;
    const body = m[3] ?? '';
    let s: TestStatus = 'PASSED';
    if (/<error\b/.test(body)) s = 'ERROR';
    else if (/<failure\b/.test(body)) s = 'FAILED';
    else if (/<skipped\b/.test(body) || a.status === 'notrun' || a.result === 'skipped') s = 'SKIPPED';
    put(out, id, s);
  }
  return out;
}

const GRADLE = /^\s*([\w.$]+) > (.+?) (PASSED|FAILED|SKIPPED)\s*$/;
const GRADLE_OPEN = /^\s*([\w.$]+) > (.+?)\s*$/;

export function parseGradleText(log: string): TestMap {
  const out: TestMap = {};
  let pending: string | null = null;
  for (const raw of lines(log)) {
    const m = GRADLE.exec(raw);
    if (m) {
      put(out, `${m[1]}.${m[2]}`, m[3] === 'PASSED' ? 'PASSED' : m[3] === 'FAILED' ? 'FAILED' : 'SKIPPED');
      pending = null;
      continue;
    }
    const word = raw.trim();
    if (pending && /^(PASSED|FAILED|SKIPPED)$/.test(word)) {
      put(out, pending, word === 'PASSED' ? 'PASSED' : word === 'FAILED' ? 'FAILED' : 'SKIPPED');
      pending = null;
      continue;
    }
    const o = GRADLE_OPEN.exec(raw);
    pending = o ? `${o[1]}.${o[2]}` : null;
  }
  return out;
}

/** XML reports when present (machine-readable wins), otherwise Gradle's text. */
export function parseJunit(log: string): TestMap {
  const xml = parseJunitXml(log);
  return Object.keys(xml).length ? xml : parseGradleText(log);
}
