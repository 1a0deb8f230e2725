/**
 * Pull-request ranges: the one lookup of "which row of a table covers PR n of a repository" (as
 * Multi-SWE-bench picks an instance class by PR range, `<repo>_<to>_to_<from>.py`), and the table of
 * environment versions. Pure data and lookup; the version is written into the row's `version`, and
 * `specFor` matches it against a spec's `versions`. The log parser's ranges (`MSB_PR_PARSERS`) use the
 * same lookup.
 */

/** A repository's inclusive PR-number range. */
export interface PrRange {
  repo: string;
  from: number;
  to: number;
}

/** The first row of `table` whose range covers `repo`'s PR `pr` (repository names compared case-insensitively). */
export function prRangeHit<T extends PrRange>(table: readonly T[], repo: string, pr: number): T | undefined {
  const lower = repo.toLowerCase();
  return table.find((r) => r.repo.toLowerCase() === lower && pr >= r.from && pr <= r.to);
}

export interface PrVersion extends PrRange {
  version: string;
}

/** A jackson-dataformat-xml row of the table. */
const xml = (from: number, to: number, version: string): PrVersion => ({
  repo: 'FasterXML/jackson-dataformat-xml',
  from,
  to,
  version,
});

export const PR_VERSIONS: PrVersion[] = [
  { repo: 'iamkun/dayjs', from: 1, to: 99_999, version: 'jest22' },
  // github-readme-stats as ESM with jest 29 (2022-10 … #3453, 2023-11); pointers name only commits of that line.
  { repo: 'anuraghazra/github-readme-stats', from: 2200, to: 3453, version: 'jest29-esm' },
  // v3 (jest 29 + ts-jest, TypeScript 4.5); v4 moved to vitest.
  { repo: 'colinhacks/zod', from: 1, to: 2999, version: 'v3-ts-jest' },
  // redux 3.7–4.0 on babel 6 and jest 18–22 (2017-01 … 2018-05; babel 7 and jest 23 from 2018-09).
  { repo: 'reduxjs/redux', from: 2200, to: 2999, version: 'jest22-babel6' },
  // redux 4.0.x on babel 7 and jest 23–24 (2018-09 … 2019-08), up to #3536's move of src/ to TypeScript.
  { repo: 'reduxjs/redux', from: 3000, to: 3535, version: 'jest24-babel7' },
  // redux in TypeScript from #3536 (2019-09 … 2021-04, jest 24–25); pointers name only commits of that line (#3772
  // and #3776, opened then, were merged in 2023-02 on jest 29).
  { repo: 'reduxjs/redux', from: 3536, to: 4099, version: 'jest25-ts' },
  // marked 14–15 built with rollup against testutils 14.1.1-0 (2024-09 … 2025-06).
  { repo: 'markedjs/marked', from: 3439, to: 3699, version: '14-rollup' },
  // Express 5 (master since 2024-09); pointers name only commits of that line.
  { repo: 'expressjs/express', from: 4213, to: 99_999, version: '5-mocha' },
  // gin PRs opened before #2827 moved binding to google.golang.org/protobuf (2021-08-19).
  { repo: 'gin-gonic/gin', from: 1, to: 2826, version: '1.7-golang-protobuf' },
  // echo from 4.5 (2021-08, after #1919): the JWT middleware imports github.com/golang-jwt/jwt.
  { repo: 'labstack/echo', from: 1940, to: 99_999, version: '4.5-golang-jwt' },
  // 2.14: JUnit 4 tests run through the vintage engine, a few Jupiter ones (2.15 moved to JUnit 5 only).
  { repo: 'FasterXML/jackson-core', from: 600, to: 999, version: '2.14' },
  // 2.14 (2022-06 … 2023-05): Debian ships jackson-core 2.14.1; pointers name only commits of the 2.14 branch.
  { repo: 'FasterXML/jackson-databind', from: 3300, to: 3899, version: '2.14' },
  // jackson-dataformat-xml: the version is what the base's pom.xml asks for (jackson-xml-envs.ts); the ranges
  // cover the squash-merged PRs of the 2.14–2.17 branches, and bench real-exec checks each pointer's base.
  xml(500, 549, '2.14-woodstox-6.3.1-stax2-4.2.1'),
  xml(550, 563, '2.15-woodstox-6.4.0-stax2-4.2.1'),
  xml(564, 595, '2.15-woodstox-6.5.0-stax2-4.2.1'),
  xml(596, 617, '2.16-woodstox-6.5.1-stax2-4.2.1'),
  xml(618, 630, '2.17-woodstox-6.5.1-stax2-4.2.1'),
  xml(631, 640, '2.17-woodstox-6.6.0-stax2-4.2.2'),
  xml(641, 651, '2.17-woodstox-6.6.1-stax2-4.2.2'),
  // #652 is a 2.16 branch fix, opened between 2.17 ones
  xml(652, 652, '2.16-woodstox-6.5.1-stax2-4.2.1'),
  xml(653, 699, '2.17-woodstox-6.6.2-stax2-4.2.2'),
];

/** The environment version of `repo`'s PR `pr`, or null when no range covers it. */
export function versionForPr(repo: string, pr: number, table: PrVersion[] = PR_VERSIONS): string | null {
  return prRangeHit(table, repo, pr)?.version ?? null;
}
