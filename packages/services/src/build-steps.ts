/**
 * The instructions of faun's own Dockerfiles (pure): FROM, ENV, LABEL, WORKDIR, USER, COPY and shell-form
 * RUN, with `\` continuations and comments. The text stays the cache key of an image; the steps are what
 * the confined builder (build-run.ts) executes, one container per RUN.
 */
import { FaunError } from '@faun/kit';

export type BuildStep =
  | { kind: 'from'; image: string }
  | { kind: 'meta'; line: string }
  | { kind: 'copy'; src: string; dest: string }
  | { kind: 'run'; cmd: string };

/** An instruction this builder does not execute: the Dockerfile's generator must write another form. */
export class DockerfileError extends FaunError {}

/** Logical lines: comments and blank lines dropped, `\`-continued lines joined as Docker joins them. */
function logicalLines(text: string): string[] {
  const out: string[] = [];
  let cur: string | null = null;
  for (const raw of text.split('\n')) {
    if (cur === null && (/^\s*#/.test(raw) || !raw.trim())) continue;
    if (cur !== null && /^\s*#/.test(raw)) continue; // Docker drops comment lines inside a continuation
    const cont = /\\\s*$/.test(raw);
    const body = cont ? raw.replace(/\\\s*$/, '') : raw;
    cur = cur === null ? body : cur + body;
    if (!cont) {
      out.push(cur.trim());
      cur = null;
    }
  }
  if (cur?.trim()) out.push(cur.trim());
  return out;
}

/**
 * `COPY src… dest`: one source to a path, or several to a directory (`dest` ending in `/`, each source
 * under its own name, as Docker copies files). Sources are context-relative, without globs.
 */
function copySteps(rest: string, line: string): BuildStep[] {
  const parts = rest.split(/\s+/);
  const dest = parts.pop() ?? '';
  if (!parts.length || parts.some((p) => p.startsWith('--') || p.startsWith('[') || /[*?]/.test(p)))
    throw new DockerfileError(`COPY takes plain sources and one destination here: ${line}`);
  if (parts.some((p) => p.split('/').includes('..') || p.startsWith('/')) || !dest.startsWith('/'))
    throw new DockerfileError(`COPY needs context-relative sources and an absolute destination: ${line}`);
  if (parts.length > 1 && !dest.endsWith('/'))
    throw new DockerfileError(`COPY of several sources needs a destination ending in /: ${line}`);
  return parts.map((src) => ({
    kind: 'copy' as const,
    src,
    dest: parts.length > 1 ? `${dest}${src.split('/').pop()}` : dest,
  }));
}

/** Docker's test for exec form: the argument parses as a JSON array (else `[ … ]` is a shell test). */
function isJsonArray(s: string): boolean {
  try {
    return Array.isArray(JSON.parse(s));
  } catch {
    return false;
  }
}

/** The steps of a Dockerfile; the first must be FROM. */
export function parseDockerfile(text: string): BuildStep[] {
  const steps: BuildStep[] = [];
  for (const line of logicalLines(text)) {
    const m = /^([A-Za-z]+)\s+([\s\S]*)$/.exec(line);
    const op = m?.[1]?.toUpperCase();
    const rest = m?.[2]?.trim() ?? '';
    if (!op || !rest) throw new DockerfileError(`Dockerfile line without an argument: ${line}`);
    if (op === 'FROM') steps.push({ kind: 'from', image: rest });
    else if (op === 'RUN') {
      if (isJsonArray(rest)) throw new DockerfileError(`exec-form RUN is not supported: ${line}`);
      steps.push({ kind: 'run', cmd: rest });
    } else if (op === 'COPY') steps.push(...copySteps(rest, line));
    else if (op === 'ENV' || op === 'LABEL' || op === 'WORKDIR' || op === 'USER')
      steps.push({ kind: 'meta', line: `${op} ${rest}` });
    else throw new DockerfileError(`instruction ${op} is not supported by the confined builder: ${line}`);
  }
  if (steps[0]?.kind !== 'from') throw new DockerfileError('a Dockerfile must start with FROM');
  if (steps.some((s, i) => i > 0 && s.kind === 'from'))
    throw new DockerfileError('multi-stage Dockerfiles are not supported by the confined builder');
  return steps;
}
