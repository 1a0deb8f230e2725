/** Middle truncation: keep the head and tail of a text, dropping whole lines from the middle. */

/** Marker inserted where lines were dropped. */
export const omittedMarker = (n: number) => `… [${n} lines omitted to fit the context window] …`;

/**
 * Shortens `text` to at most about `maxChars` characters by dropping whole lines from the middle and
 * inserting a marker. Returns the text unchanged when it already fits.
 */
export function cutMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const lines = text.split('\n');
  const budget = Math.max(0, maxChars - 80);
  const head: string[] = [];
  const tail: string[] = [];
  let used = 0;
  let i = 0;
  let j = lines.length - 1;
  // Alternate head and tail so both ends survive.
  while (i <= j) {
    const takeHead = head.length <= tail.length;
    const line = takeHead ? lines[i]! : lines[j]!;
    if (used + line.length + 1 > budget) break;
    used += line.length + 1;
    if (takeHead) head.push(lines[i++]!);
    else tail.unshift(lines[j--]!);
  }
  const omitted = j - i + 1;
  if (omitted <= 0) return text;
  return [...head, omittedMarker(omitted), ...tail].join('\n');
}
