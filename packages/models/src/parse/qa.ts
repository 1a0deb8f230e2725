/** QA answers: light cleanup that keeps the content (code blocks included) but drops wrappers. */

/**
 * Normalizes newlines, trims, and removes a leading role label (`Answer:`, `Maintainer:`,
 * `[responder]`) or an outer ```markdown fence wrapping the whole reply.
 */
export function cleanQaAnswer(output: string): string {
  let s = output.replace(/\r\n/g, '\n').trim();
  const fence = /^```(?:markdown|md|text)?\n([\s\S]*)\n```$/.exec(s);
  if (fence && !fence[1]!.includes('```')) s = fence[1]!.trim();
  s = s.replace(/^(?:\[(?:responder|maintainer)\]|(?:answer|reply|maintainer|response)\s*:)\s*/i, '');
  return s.trim();
}
