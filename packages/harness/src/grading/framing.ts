/**
 * Framing of a test log (pure). The grader runs the test command as its own process and receives its output
 * on a stream of its own; the log it stores is framed by the grader afterwards, in SWE-bench's layout:
 *
 *   <output of the pre-test steps>
 *   >>>>> Start Test Output
 *   <output of the test command>
 *   >>>>> End Test Output
 *   >>>>> Test Exit Code: <the exit status the runtime reported>
 *
 * so SWE-bench's own report code reads faun's logs as its own. Nothing the code under test prints can supply
 * or move a boundary: a framed log holds each marker exactly once, written by the grader; any other marker
 * text in it was printed by the code under test, and the run is `tampered`.
 */
import { SWE_BAD_CODES, SWE_MARKERS } from './grading-swebench.ts';

/** Lines faun's own scripts print, which the code under test must never print either. */
export const FAUN_MARKER_PREFIXES = ['>>>>> faun ', '>>>>> Test Patch Apply Failed', '>>>>> pre-test step'];

/** The stored log of a run: pre-test output, then the test command's output between the markers. */
export function frameLog(preamble: string, output: string, exitCode: number | null): string {
  const pre = preamble && !preamble.endsWith('\n') ? `${preamble}\n` : preamble;
  const body = output && !output.endsWith('\n') ? `${output}\n` : output;
  return (
    `${pre}${SWE_MARKERS.start}\n${body}${SWE_MARKERS.end}\n` +
    `${SWE_MARKERS.exitCode}: ${exitCode === null ? 'none' : exitCode}\n`
  );
}

const count = (s: string, sub: string) => s.split(sub).length - 1;

/**
 * What in a framed log the grader did not write: a marker that appears more than once, or any of SWE-bench's
 * failure codes or faun's own marker lines. Empty for an untouched log. `legacyNonce`: logs stored before
 * framing carried faun's nonce markers once each; those two lines are its own.
 */
export function forgedMarkers(log: string, legacyNonce: string | null = null): string[] {
  let text = log;
  if (legacyNonce) {
    for (const m of [`>>>>> faun test start ${legacyNonce}`, `>>>>> faun test end ${legacyNonce}`])
      text = text.replace(m, '');
  }
  const found: string[] = [];
  for (const [name, marker] of Object.entries(SWE_MARKERS)) {
    const n = count(text, marker);
    if (n > 1) found.push(`marker ${name} printed ${n - 1} more time(s) by the code under test`);
    if (n === 0) found.push(`marker ${name} missing`);
  }
  for (const code of [...SWE_BAD_CODES, ...FAUN_MARKER_PREFIXES])
    if (text.includes(code)) found.push(`'${code.trim()}' printed by the code under test`);
  return found;
}

/** The test command's output in a framed log (between its two markers), or null when they are missing. */
export function framedSection(log: string): string | null {
  const i = log.indexOf(SWE_MARKERS.start);
  if (i < 0) return null;
  const from = i + SWE_MARKERS.start.length + 1;
  const j = log.lastIndexOf(`${SWE_MARKERS.end}\n${SWE_MARKERS.exitCode}`);
  if (j < from - 1) return null;
  return log.slice(from, j);
}
