/**
 * Start/end offsets of every parenthesised node in a `ts_node_string` S-expression, in pre-order, as two
 * parallel arrays (`ends[k]` is -1 for an unclosed span). Handles `(MISSING ")")` and `(UNEXPECTED '(')`,
 * whose quoted parts may contain parentheses.
 */
export function sexpSpans(s: string): { opens: number[]; ends: number[] } {
  const opens: number[] = [];
  const ends: number[] = [];
  const stack: number[] = [];
  const len = s.length;
  let i = 0;
  while (i < len) {
    const c = s.charCodeAt(i);
    if (c === 40 /* ( */) {
      stack.push(opens.length);
      opens.push(i);
      ends.push(-1);
      if (s.startsWith('MISSING "', i + 1)) {
        const close = s.indexOf('")', i + 10);
        i = close < 0 ? len : close + 1;
        continue;
      }
      if (s.startsWith("UNEXPECTED '", i + 1)) {
        i += 12;
        i += s[i] === '\\' ? 3 : 2;
        continue;
      }
      i++;
    } else if (c === 41 /* ) */) {
      const k = stack.pop();
      if (k !== undefined) ends[k] = i + 1;
      i++;
    } else i++;
  }
  return { opens, ends };
}
