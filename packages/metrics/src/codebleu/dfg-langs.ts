/** The per-language DFG walkers of codebleu 0.7.1 (`DFG_python`, `DFG_java`, `DFG_javascript`, `DFG_go`). */
import {
  append,
  type Ctx,
  type DfgEntry,
  defRule,
  isTokenNode,
  leaf,
  mergeLoop,
  mergeStates,
  pairwise,
  type States,
  seq,
  sortByIdx,
  type TokenInfo,
  tick,
  varTokens,
  type Walk,
} from './dfg.ts';
import { type CNode, childByField } from './tree.ts';

const notComma = (n: CNode) => n.type !== ',';
const isForIn = (n: CNode) => n.type === 'for_in_clause';

function must(n: CNode | null): CNode {
  if (!n) throw new TypeError("'NoneType' object has no attribute 'children'");
  return n;
}

/** Python assignment zip: each left token gets one computedFrom entry naming all right tokens. */
function pyZip(ctx: Ctx, lefts: CNode[], rights: CNode[], states: States, dfg: DfgEntry[]): void {
  const n = Math.min(lefts.length, rights.length);
  for (let i = 0; i < n; i++) {
    const lt = varTokens(ctx, lefts[i] as CNode);
    const rt: TokenInfo[] = varTokens(ctx, rights[i] as CNode);
    for (const l of lt) {
      dfg.push({
        name: l.code,
        idx: l.idx,
        rel: 'computedFrom',
        names: rt.map((r) => r.code),
        idxs: rt.map((r) => r.idx),
      });
      states.set(l.code, [l.idx]);
    }
  }
}

/** Left/right node lists of a Python assignment-like node (split on commas, whole nodes on mismatch). */
function pySides(node: CNode): [CNode[], CNode[]] {
  const left = childByField(node, 'left');
  const right = childByField(node, 'right');
  let rights = must(right).children.filter(notComma);
  let lefts = must(left).children.filter(notComma);
  if (rights.length !== lefts.length) {
    lefts = [left as CNode];
    rights = [right as CNode];
  }
  if (lefts.length === 0) lefts = [left as CNode];
  if (rights.length === 0) rights = [right as CNode];
  return [lefts, rights];
}

/** Python node types with a rule of their own (the others walk their children). */
const PY_SPECIAL = new Set([
  'default_parameter',
  'assignment',
  'augmented_assignment',
  'for_in_clause',
  'if_statement',
  'for_statement',
  'while_statement',
]);

/** `DFG_python` (the special rules are another function, as in {@link cLikeWalker}). */
export function pythonWalker(ctx: Ctx): Walk {
  const walk: Walk = (node, entry) => {
    tick(ctx);
    let states: States = entry.copy();
    if (isTokenNode(node)) return leaf(ctx, node, states);
    if (PY_SPECIAL.has(node.type)) return pythonSpecial(ctx, walk, node, states);
    const dfg: DfgEntry[] = [];
    if (node.children.some(isForIn)) {
      states = seq(walk, node.children.filter(isForIn), states, dfg);
      states = seq(
        walk,
        node.children.filter((c) => !isForIn(c)),
        states,
        dfg,
      );
    } else states = seq(walk, node.children, states, dfg);
    return [sortByIdx(dfg), states];
  };
  return walk;
}

/** The rules of {@link pythonWalker} for its special node types, in the reference's order. */
function pythonSpecial(ctx: Ctx, walk: Walk, node: CNode, entry: States): [DfgEntry[], States] {
  let states = entry;
  const t = node.type;
  if (t === 'default_parameter') return defRule(ctx, walk, node, states);
  if (t === 'assignment' || t === 'augmented_assignment' || t === 'for_in_clause') {
    let lefts: CNode[];
    let rights: CNode[];
    if (t === 'for_in_clause') {
      rights = [node.children[node.children.length - 1] as CNode];
      lefts = [childByField(node, 'left') as CNode];
    } else {
      if (!childByField(node, 'right')) return [[], states];
      [lefts, rights] = pySides(node);
    }
    const dfg: DfgEntry[] = [];
    states = seq(walk, rights, states, dfg);
    pyZip(ctx, lefts, rights, states, dfg);
    return [sortByIdx(dfg), states];
  }
  if (t === 'if_statement') {
    const dfg: DfgEntry[] = [];
    let current = states.copy();
    const others: States[] = [];
    let tag = false;
    for (const child of node.children) {
      if (child.type.includes('else')) tag = true;
      if (child.type !== 'elif_clause' && child.type !== 'else_clause') {
        const [temp, s] = walk(child, current);
        append(dfg, temp);
        current = s;
      } else {
        const [temp, s] = walk(child, states);
        append(dfg, temp);
        others.push(s);
      }
    }
    others.push(current);
    if (!tag) others.push(states);
    return [sortByIdx(dfg), mergeStates(others)];
  }
  if (t === 'for_statement') {
    const dfg: DfgEntry[] = [];
    for (let i = 0; i < 2; i++) {
      const [lefts, rights] = pySides(node);
      states = seq(walk, rights, states, dfg);
      pyZip(ctx, lefts, rights, states, dfg);
      const last = node.children[node.children.length - 1] as CNode;
      if (last.type === 'block') states = seq(walk, [last], states, dfg);
    }
    return [mergeLoop(dfg, ctx), states];
  }
  if (t === 'while_statement') {
    const dfg: DfgEntry[] = [];
    for (let i = 0; i < 2; i++) states = seq(walk, node.children, states, dfg);
    return [mergeLoop(dfg, ctx), states];
  }
  throw new Error(`no DFG rule for ${t}`);
}

/** Rule tables of the Java-like walkers. */
interface CLikeRules {
  assignment: ReadonlySet<string>;
  def: ReadonlySet<string>;
  increment: ReadonlySet<string>;
  whileTypes: ReadonlySet<string>;
  /** Java/JS: the child type after which a for loop's children are walked again; Go: `for_clause`. */
  forTrigger: ReadonlySet<string>;
  go: boolean;
  /** JS and Go always merge the entry states after an if; Java only without an else. */
  ifAddsEntry: boolean;
  enhancedFor: boolean;
}

/** A rule table with the node types that have a rule of their own (the others walk their children). */
interface CLikeTable extends CLikeRules {
  special: ReadonlySet<string>;
}

function table(rules: CLikeRules): CLikeTable {
  const special = new Set([
    ...rules.def,
    ...rules.assignment,
    ...rules.increment,
    ...IF_TYPES,
    'for_statement',
    ...(rules.enhancedFor ? ['enhanced_for_statement'] : []),
    ...rules.whileTypes,
  ]);
  return { ...rules, special };
}

const IF_TYPES = new Set(['if_statement', 'else']);

/**
 * The Java, JavaScript and Go walkers share one shape; `rules` holds their differences. The walk itself stays
 * small (leaves and plain nodes, nearly every call); the rules for the few special node types are another
 * function, so the optimizing compiler does not compile them into every copy of the hot path.
 */
function cLikeWalker(ctx: Ctx, rules: CLikeTable): Walk {
  const { special } = rules;
  const walk: Walk = (node, entry) => {
    tick(ctx);
    const states: States = entry.copy();
    if (isTokenNode(node)) return leaf(ctx, node, states);
    if (special.has(node.type)) return cLikeSpecial(ctx, rules, walk, node, states);
    const dfg: DfgEntry[] = [];
    const out = seq(walk, node.children, states, dfg);
    return [sortByIdx(dfg), out];
  };
  return walk;
}

/** The rules of {@link cLikeWalker} for its special node types, in the reference's order. */
function cLikeSpecial(
  ctx: Ctx,
  rules: CLikeRules,
  walk: Walk,
  node: CNode,
  entry: States,
): [DfgEntry[], States] {
  let states = entry;
  const t = node.type;
  if (rules.def.has(t)) return defRule(ctx, walk, node, states);
  if (rules.assignment.has(t)) {
    const left = childByField(node, 'left');
    const right = childByField(node, 'right');
    const dfg: DfgEntry[] = [];
    states = seq(walk, [must(right)], states, dfg);
    pairwise(varTokens(ctx, left), varTokens(ctx, right), states, dfg);
    return [sortByIdx(dfg), states];
  }
  if (rules.increment.has(t)) {
    const dfg: DfgEntry[] = [];
    const toks = varTokens(ctx, node);
    pairwise(toks, toks, states, dfg);
    return [sortByIdx(dfg), states];
  }
  if (IF_TYPES.has(t)) {
    const dfg: DfgEntry[] = [];
    let current = states.copy();
    const others: States[] = [];
    let flag = false;
    let tag = t.includes('else');
    for (const child of node.children) {
      if (child.type.includes('else')) tag = true;
      if (!IF_TYPES.has(child.type) && !flag) {
        const [temp, s] = walk(child, current);
        append(dfg, temp);
        current = s;
      } else {
        flag = true;
        const [temp, s] = walk(child, states);
        append(dfg, temp);
        others.push(s);
      }
    }
    others.push(current);
    if (!tag) others.push(states);
    if (rules.ifAddsEntry) others.push(states);
    return [sortByIdx(dfg), mergeStates(others)];
  }
  if (t === 'for_statement') {
    const dfg: DfgEntry[] = [];
    states = seq(walk, node.children, states, dfg);
    let flag = false;
    for (const child of node.children) {
      if (flag) states = seq(walk, [child], states, dfg);
      else if (rules.forTrigger.has(child.type)) {
        if (rules.go) {
          const update = childByField(child, 'update');
          if (update) states = seq(walk, [update], states, dfg);
        }
        flag = true;
      }
    }
    return [mergeLoop(dfg, ctx), states];
  }
  if (rules.enhancedFor && t === 'enhanced_for_statement') {
    const name = childByField(node, 'name');
    const value = childByField(node, 'value');
    const body = childByField(node, 'body');
    const dfg: DfgEntry[] = [];
    for (let i = 0; i < 2; i++) {
      states = seq(walk, [must(value)], states, dfg);
      pairwise(varTokens(ctx, name), varTokens(ctx, value), states, dfg);
      states = seq(walk, [must(body)], states, dfg);
    }
    return [mergeLoop(dfg, ctx), states];
  }
  if (rules.whileTypes.has(t)) {
    const dfg: DfgEntry[] = [];
    for (let i = 0; i < 2; i++) states = seq(walk, node.children, states, dfg);
    return [mergeLoop(dfg, ctx), states];
  }
  throw new Error(`no DFG rule for ${t}`);
}

const set = (...xs: string[]) => new Set(xs);

/** The rule tables, built once. */
const JAVA = table({
  assignment: set('assignment_expression'),
  def: set('variable_declarator'),
  increment: set('update_expression'),
  whileTypes: set('while_statement'),
  forTrigger: set('local_variable_declaration'),
  go: false,
  ifAddsEntry: false,
  enhancedFor: true,
});
const jsRules = (fixRules: boolean) =>
  table({
    assignment: fixRules
      ? set('assignment_pattern', 'augmented_assignment_expression', 'assignment_expression')
      : set('assignment_pattern', 'augmented_assignment_expression'),
    def: set('variable_declarator'),
    increment: set('update_expression'),
    whileTypes: set('while_statement'),
    forTrigger: fixRules ? set('lexical_declaration', 'variable_declaration') : set('variable_declaration'),
    go: false,
    ifAddsEntry: true,
    enhancedFor: false,
  });
const JAVASCRIPT = [jsRules(false), jsRules(true)] as const;
const goRules = (fixRules: boolean) =>
  table({
    assignment: fixRules ? set('assignment_statement', 'short_var_declaration') : set('assignment_statement'),
    def: set('var_spec'),
    increment: set('inc_statement'),
    whileTypes: set(),
    forTrigger: set('for_clause'),
    go: true,
    ifAddsEntry: true,
    enhancedFor: false,
  });
const GO = [goRules(false), goRules(true)] as const;

/** `DFG_java`. */
export const javaWalker = (ctx: Ctx): Walk => cLikeWalker(ctx, JAVA);

/** `DFG_javascript` (also used for TypeScript). `fixRules` adds plain `=`, `let`/`const` loops. */
export const javascriptWalker = (ctx: Ctx, fixRules = false): Walk =>
  cLikeWalker(ctx, JAVASCRIPT[fixRules ? 1 : 0]);

/** `DFG_go`. `fixRules` adds `:=` (short_var_declaration). */
export const goWalker = (ctx: Ctx, fixRules = false): Walk => cLikeWalker(ctx, GO[fixRules ? 1 : 0]);

/** Node types whose children's field names the walkers read (`child_by_field_name`), per language. */
export const FIELD_PARENTS: Readonly<Record<'python' | 'java' | 'javascript' | 'go', ReadonlySet<string>>> = {
  python: set('default_parameter', 'assignment', 'augmented_assignment', 'for_in_clause', 'for_statement'),
  java: set('variable_declarator', 'assignment_expression', 'enhanced_for_statement'),
  javascript: set(
    'variable_declarator',
    'assignment_pattern',
    'augmented_assignment_expression',
    'assignment_expression',
  ),
  go: set('var_spec', 'assignment_statement', 'for_clause', 'short_var_declaration'),
};
