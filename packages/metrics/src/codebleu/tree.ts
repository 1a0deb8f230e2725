/**
 * A plain-JS copy of a tree-sitter tree (one cursor walk over the wasm tree), plus the S-expression of every
 * subtree as `str(node)` prints it in the reference (tree-sitter's `ts_node_string`).
 */
import type { ParsedCode } from '@faun/syntax';

/** One node: the fields CodeBLEU reads (offsets in UTF-8 bytes, as the reference's tree-sitter has them). */
export interface CNode {
  type: string;
  named: boolean;
  missing: boolean;
  /** Field name under the parent, or null. */
  field: string | null;
  children: CNode[];
  /** UTF-8 byte start/end offset in the parsed text. */
  si: number;
  ei: number;
  /** Start/end row (0-based). */
  sr: number;
  er: number;
}

/** The first child under field `name` (tree-sitter `child_by_field_name`), or null. */
export function childByField(node: CNode, name: string): CNode | null {
  for (const c of node.children) if (c.field === name) return c;
  return null;
}

/** Result of {@link flattenTree}: the root and the maximum depth (root = 1). */
export interface FlatTree {
  root: CNode;
  depth: number;
  /** `str(node)` for the root and every node with at least one child (the syntax-match subtrees). */
  sexps: string[];
}

/**
 * Copies the tree into {@link CNode}s and collects the S-expressions of the syntax-match subtrees. The root's
 * string is printed once by tree-sitter; each visible node's string is a balanced span of it.
 */
export function flattenTree(parsed: ParsedCode): FlatTree {
  const cursor = parsed.walk();
  const rootSexp = parsed.tree.rootNode.toString();
  const spans = sexpSpans(rootSexp);
  const sexps: string[] = [];
  let visibleIndex = 0;
  let maxDepth = 1;
  let spansOk = true;
  const fallbackNodes: { node: CNode; sexp: () => string }[] = [];
  const make = (): CNode => {
    const sp = cursor.startPosition;
    const ep = cursor.endPosition;
    return {
      type: cursor.nodeType,
      named: cursor.nodeIsNamed,
      missing: cursor.nodeIsMissing,
      field: cursor.currentFieldName,
      children: [],
      si: cursor.startIndex,
      ei: cursor.endIndex,
      sr: sp.row,
      er: ep.row,
    };
  };
  const root = make();
  const stack: CNode[] = [root];
  const visible: { node: CNode }[] = [{ node: root }];
  visibleIndex++;
  // iterative pre-order walk; `stack` holds the ancestors of the cursor's node
  if (cursor.gotoFirstChild()) {
    for (;;) {
      const node = make();
      const parent = stack[stack.length - 1] as CNode;
      parent.children.push(node);
      if (stack.length + 1 > maxDepth) maxDepth = stack.length + 1;
      const isVisible = node.named || node.missing;
      if (isVisible) {
        visible.push({ node });
        visibleIndex++;
      }
      if (cursor.gotoFirstChild()) {
        if (!isVisible) {
          // rare: an anonymous node with children; tree-sitter prints it on its own
          cursor.gotoParent();
          const text = cursor.currentNode.toString();
          fallbackNodes.push({ node, sexp: () => text });
          cursor.gotoFirstChild();
        }
        stack.push(node);
        continue;
      }
      let done = false;
      while (!cursor.gotoNextSibling()) {
        cursor.gotoParent();
        stack.pop();
        if (stack.length === 0) {
          done = true;
          break;
        }
      }
      if (done) break;
    }
  }
  cursor.delete();
  // Align visible nodes with the printed spans. tree-sitter also prints MISSING leaves of hidden tokens
  // (e.g. `(MISSING _newline)`), which the node API does not expose: skip those spans.
  const spanOf = new Map<CNode, string>();
  let k = 0;
  for (const { node } of visible) {
    let s = spans[k];
    while (s && rootSexp.startsWith('(MISSING ', s[0]) && !missingMatches(node, rootSexp.slice(s[0], s[1]))) {
      s = spans[++k];
    }
    if (!s) {
      spansOk = false;
      break;
    }
    spanOf.set(node, rootSexp.slice(s[0], s[1]));
    k++;
  }
  for (; k < spans.length; k++) {
    const s = spans[k] as [number, number];
    if (!rootSexp.startsWith('(MISSING ', s[0])) spansOk = false;
  }
  for (const f of fallbackNodes) if (f.node.children.length > 0) spanOf.set(f.node, f.sexp());
  if (!spansOk) {
    throw new Error(`S-expression of ${visibleIndex} nodes does not split into node spans (${spans.length})`);
  }
  sexps.push(spanOf.get(root) as string);
  const walk = (n: CNode) => {
    for (const c of n.children) {
      if (c.children.length > 0) {
        sexps.push(spanOf.get(c) as string);
        walk(c);
      }
    }
  };
  walk(root);
  return { root, depth: maxDepth, sexps };
}

function missingMatches(node: CNode, span: string): boolean {
  return node.missing && span === (node.named ? `(MISSING ${node.type})` : `(MISSING "${node.type}")`);
}

/**
 * Start/end offsets of every parenthesised node in a `ts_node_string` S-expression, in pre-order. Handles
 * `(MISSING ")")` and `(UNEXPECTED '(')`, whose quoted parts may contain parentheses.
 */
export function sexpSpans(s: string): [number, number][] {
  const spans: [number, number][] = [];
  const open: number[] = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 40 /* ( */) {
      open.push(spans.length);
      spans.push([i, -1]);
      if (s.startsWith('MISSING "', i + 1)) {
        const close = s.indexOf('")', i + 10);
        i = close < 0 ? n : close + 1;
        continue;
      }
      if (s.startsWith("UNEXPECTED '", i + 1)) {
        i += 12;
        i += s[i] === '\\' ? 3 : 2;
        continue;
      }
      i++;
    } else if (c === 41 /* ) */) {
      const k = open.pop();
      if (k !== undefined) (spans[k] as [number, number])[1] = i + 1;
      i++;
    } else i++;
  }
  return spans;
}
