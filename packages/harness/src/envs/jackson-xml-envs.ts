/**
 * jackson-dataformat-xml's environment versions for rows faun builds itself (`bench real-exec`): what a
 * base's `pom.xml` asks for (jacksonXmlDeps) decides its environment, so each distinct set of asks is one
 * named version, one spec (jacksonXmlSpec, Multi-SWE-bench's whole-suite command). Which PRs take which
 * version is in spec-versions.ts (PR_VERSIONS); `bench real-exec` checks every pointer's base against its
 * version's asks before it runs. Plain data, registered in repo-specs.ts.
 */
import type { JacksonXmlDeps } from './repo-specs-jackson-xml.ts';
import { jacksonXmlSpec } from './repo-specs-jackson-xml.ts';
import type { EnvSpec } from './specs.ts';

/** A base's asks without the parent's exact version (a snapshot name, never read by the build). */
export type XmlAsks = Omit<JacksonXmlDeps, 'parentVersion'>;

export const JACKSON_XML_REPO = 'FasterXML/jackson-dataformat-xml';

/** The name of the environment version a base with these asks takes. */
export const xmlVersionName = (a: XmlAsks): string =>
  `${a.line}-woodstox-${a.woodstox}-stax2-${a.stax2}${a.sjsxp ? '' : '-no-sjsxp'}`;

const asks = (line: string, woodstox: string, stax2: string): XmlAsks => ({
  line,
  woodstox,
  stax2,
  jakartaXmlBind: '3.0.1',
  sjsxp: true,
});

/** Every set of asks of the bases `bench real-exec` runs, in PR order. */
export const JACKSON_XML_ASKS: readonly XmlAsks[] = Object.freeze([
  asks('2.14', '6.3.1', '4.2.1'),
  asks('2.15', '6.4.0', '4.2.1'),
  asks('2.15', '6.5.0', '4.2.1'),
  asks('2.16', '6.5.1', '4.2.1'),
  asks('2.17', '6.5.1', '4.2.1'),
  asks('2.17', '6.6.0', '4.2.2'),
  asks('2.17', '6.6.1', '4.2.2'),
  asks('2.17', '6.6.2', '4.2.2'),
]);

/** The spec of one set of asks, as version `xmlVersionName(a)`; throws when one of its sources is not known. */
export function xmlVersionSpec(a: XmlAsks): EnvSpec {
  const s = jacksonXmlSpec({ ...a, parentVersion: `${a.line}.x` });
  if ('error' in s) throw new Error(`jackson-dataformat-xml ${xmlVersionName(a)}: ${s.error}`);
  return { ...s.spec, versions: [xmlVersionName(a)] };
}

export const JACKSON_XML_SPECS: readonly EnvSpec[] = Object.freeze(JACKSON_XML_ASKS.map(xmlVersionSpec));
