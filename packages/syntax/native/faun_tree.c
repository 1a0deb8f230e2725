/*
 * One call per text for @faun/syntax's native path (native.ts): parse UTF-8 bytes with the grammar linked
 * into this library and write the whole tree into flat arrays in one C pass, so JS reads every node without
 * a call per node. The nodes are those a TreeCursor visits, in pre-order; the root's S-expression
 * (ts_node_string) follows, and, for the rare anonymous nodes with children (the printer does not print them
 * inside their parent), their own S-expressions.
 *
 * Built at first use together with tree-sitter's lib.c and the grammar's parser.c/scanner.c (native.ts); the
 * grammar entry point is passed in as FAUN_TS_LANGUAGE. All state is per thread.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tree_sitter/api.h"
#include "tree_sitter/parser.h"

#ifndef FAUN_TS_LANGUAGE
#error "define FAUN_TS_LANGUAGE as the grammar's entry point (e.g. tree_sitter_go)"
#endif

const TSLanguage *FAUN_TS_LANGUAGE(void);
/* ts_node_string's text, printed once (faun_runtime.c). */
const char *faun_ts_node_string_once(TSNode self, uint32_t *len);
/* The nodes a cursor visits, read from the subtrees (faun_runtime.c). */
#include "faun_walk.h"

/*
 * The grammar's parse table with every state laid out densely. tree-sitter stores most states ("small"
 * states) as lists of (value, symbols) groups and finds a symbol's value by scanning them, which was over a
 * quarter of the parse on real hunks (error recovery asks every symbol of a state). The copy of the
 * language below has the same values, one row of `symbol_count` per state, and says all its states are
 * large, so each lookup is one read. Built once per process; the grammar's own language when it cannot be.
 */
static const TSLanguage *dense_lang;
static pthread_once_t dense_once = PTHREAD_ONCE_INIT;

static void build_dense(void) {
  const TSLanguage *g = FAUN_TS_LANGUAGE();
  dense_lang = g;
  uint32_t states = g->state_count, symbols = g->symbol_count, large = g->large_state_count;
  if (large >= states || !g->small_parse_table || !g->small_parse_table_map) return;
  uint16_t *table = calloc((size_t)states * symbols, sizeof *table);
  uint8_t *seen = malloc(symbols);
  TSLanguage *copy = malloc(sizeof *copy);
  if (!table || !seen || !copy) {
    free(table);
    free(seen);
    free(copy);
    return;
  }
  memcpy(table, g->parse_table, (size_t)large * symbols * sizeof *table);
  for (uint32_t state = large; state < states; state++) {
    /* the first group naming a symbol gives its value, as the scan does */
    memset(seen, 0, symbols);
    uint16_t *row = table + (size_t)state * symbols;
    const uint16_t *data = &g->small_parse_table[g->small_parse_table_map[state - large]];
    uint16_t groups = *data++;
    for (uint16_t i = 0; i < groups; i++) {
      uint16_t value = *data++;
      uint16_t count = *data++;
      for (uint16_t j = 0; j < count; j++) {
        uint16_t symbol = *data++;
        if (symbol < symbols && !seen[symbol]) {
          seen[symbol] = 1;
          row[symbol] = value;
        }
      }
    }
  }
  free(seen);
  memcpy(copy, g, sizeof *copy);
  copy->parse_table = table;
  copy->large_state_count = states;
  dense_lang = copy;
}

static const TSLanguage *parse_language(void) {
  pthread_once(&dense_once, build_dense);
  return dense_lang;
}

static _Thread_local TSParser *parser;
static _Thread_local uint8_t *block;    /* the node arrays, laid out by `cap` (see faun_ts_cap) */
static _Thread_local uint32_t cap;
static _Thread_local char *strings;      /* root S-expression, then the own strings */
static _Thread_local uint32_t strings_len, strings_cap;
static _Thread_local uint32_t depth;
static _Thread_local uint32_t root_len;

/* Bytes per node: start, end, parent, own string offset, own string length (4 each), field, symbol (2
 * each), named, missing (1 each), then the span of the node's S-expression in the root's (start, end: 4
 * each; -1 when not printed there). */
#define NODE_BYTES (5 * 4 + 2 * 2 + 2 + 2 * 4)

static int grow_block(uint32_t need) {
  uint32_t c = cap ? cap : 1024;
  while (c < need) c *= 2;
  uint8_t *b = malloc((size_t)c * NODE_BYTES);
  if (!b) return 0;
  if (block) {
    /* copy each array to its place in the larger layout */
    size_t o4 = 0, n4 = 0;
    for (int k = 0; k < 5; k++) memcpy(b + n4 + (size_t)k * c * 4, block + o4 + (size_t)k * cap * 4, (size_t)cap * 4);
    for (int k = 0; k < 2; k++)
      memcpy(b + (size_t)c * 20 + (size_t)k * c * 2, block + (size_t)cap * 20 + (size_t)k * cap * 2, (size_t)cap * 2);
    for (int k = 0; k < 2; k++) memcpy(b + (size_t)c * (24 + k), block + (size_t)cap * (24 + k), cap);
    free(block);
  }
  block = b;
  cap = c;
  return 1;
}

static int append_string(const char *s, uint32_t n) {
  if (strings_len + n + 1 > strings_cap) {
    uint32_t c = strings_cap ? strings_cap : 65536;
    while (c < strings_len + n + 1) c *= 2;
    char *p = realloc(strings, c);
    if (!p) return 0;
    strings = p;
    strings_cap = c;
  }
  memcpy(strings + strings_len, s, n);
  strings_len += n;
  return 1;
}

/* The language's symbol name (ts_node_type), field name, counts: for the JS name tables. */
const char *faun_ts_symbol_name(uint32_t symbol) { return ts_language_symbol_name(FAUN_TS_LANGUAGE(), (TSSymbol)symbol); }
const char *faun_ts_field_name(uint32_t id) { return ts_language_field_name_for_id(FAUN_TS_LANGUAGE(), (TSFieldId)id); }
uint32_t faun_ts_field_count(void) { return ts_language_field_count(FAUN_TS_LANGUAGE()); }
uint32_t faun_ts_abi(void) { return ts_language_version(FAUN_TS_LANGUAGE()); }

uint8_t *faun_ts_block(void) { return block; }
uint32_t faun_ts_cap(void) { return cap; }
char *faun_ts_strings(void) { return strings; }
uint32_t faun_ts_strings_len(void) { return strings_len; }
uint32_t faun_ts_strings_cap(void) { return strings_cap; }
uint32_t faun_ts_depth(void) { return depth; }
uint32_t faun_ts_root_len(void) { return root_len; }
uint32_t faun_ts_symbol_count(void) { return ts_language_symbol_count(FAUN_TS_LANGUAGE()); }

/* Parenthesised spans of the root's S-expression, in pre-order (the scratch of assign_spans). */
static _Thread_local int32_t *sp_open, *sp_end, *sp_stack;
static _Thread_local uint32_t sp_cap;

static int grow_spans(void) {
  uint32_t nc = sp_cap ? sp_cap * 2 : 1024;
  int32_t *a = realloc(sp_open, (size_t)nc * 4);
  if (!a) return 0;
  sp_open = a;
  a = realloc(sp_end, (size_t)nc * 4);
  if (!a) return 0;
  sp_end = a;
  a = realloc(sp_stack, (size_t)nc * 4);
  if (!a) return 0;
  sp_stack = a;
  sp_cap = nc;
  return 1;
}

static int starts_with(const char *s, uint32_t at, uint32_t len, const char *prefix) {
  size_t n = strlen(prefix);
  return at + n <= len && memcmp(s + at, prefix, n) == 0;
}

/* Every "(" of `s` with the end of its span (one past its ")", -1 when unclosed), in order. The quoted
 * parts of (MISSING "x") and (UNEXPECTED 'c') may hold parentheses and are skipped. Returns the count, or -1
 * when out of memory. */
static int64_t sexp_spans(const char *s, uint32_t len) {
  uint32_t k = 0, top = 0, i = 0;
  while (i < len) {
    char c = s[i];
    if (c == '(') {
      if (k + 1 > sp_cap && !grow_spans()) return -1; /* the stack never holds more than k */
      sp_stack[top++] = (int32_t)k;
      sp_open[k] = (int32_t)i;
      sp_end[k] = -1;
      k++;
      if (starts_with(s, i + 1, len, "MISSING \"")) {
        const char *close = NULL;
        for (uint32_t j = i + 10; j + 1 < len; j++)
          if (s[j] == '"' && s[j + 1] == ')') { close = s + j; break; }
        i = close ? (uint32_t)(close - s) + 1 : len;
        continue;
      }
      if (starts_with(s, i + 1, len, "UNEXPECTED '")) {
        i += 12;
        i += (i < len && s[i] == '\\') ? 3 : 2;
        continue;
      }
      i++;
    } else if (c == ')') {
      if (top > 0) sp_end[sp_stack[--top]] = (int32_t)(i + 1);
      i++;
    } else i++;
  }
  return k;
}

/* Gives each printed node (named or MISSING) its span of the root's S-expression `s`, in pre-order. The
 * printer also prints MISSING leaves of hidden tokens, which the walk does not see: those spans are skipped.
 * Returns 0, or -1 when the spans and the nodes do not line up (or out of memory). */
static int assign_spans(const char *s, uint32_t len, uint32_t n) {
  int64_t count = sexp_spans(s, len);
  if (count < 0) return -1;
  uint16_t *sym = (uint16_t *)(block + (size_t)cap * 20) + cap;
  uint8_t *named = block + (size_t)cap * 24, *missing = named + cap;
  int32_t *ss = (int32_t *)(block + (size_t)cap * 26), *se = ss + cap;
  char want[512];
  int64_t k = 0;
  for (uint32_t v = 0; v < n; v++) {
    ss[v] = -1;
    se[v] = -1;
    if (!named[v] && !missing[v]) continue;
    while (k < count && starts_with(s, (uint32_t)sp_open[k], len, "(MISSING ")) {
      if (missing[v]) {
        const char *name = ts_language_symbol_name(FAUN_TS_LANGUAGE(), sym[v]);
        int w = snprintf(want, sizeof want, named[v] ? "(MISSING %s)" : "(MISSING \"%s\")", name ? name : "");
        uint32_t o = (uint32_t)sp_open[k];
        int32_t e = sp_end[k] >= 0 ? sp_end[k] : (int32_t)len - 1;
        if (w > 0 && (size_t)w < sizeof want && e >= (int32_t)o && (uint32_t)(e - (int32_t)o) == (uint32_t)w &&
            memcmp(s + o, want, (size_t)w) == 0)
          break;
      }
      k++;
    }
    if (k >= count) return -1;
    ss[v] = sp_open[k];
    se[v] = sp_end[k] >= 0 ? sp_end[k] : ((int32_t)len - 1 >= sp_open[k] ? (int32_t)len - 1 : sp_open[k]);
    k++;
  }
  for (; k < count; k++)
    if (!starts_with(s, (uint32_t)sp_open[k], len, "(MISSING ")) return -1;
  return 0;
}

/*
 * Parses `len` bytes of UTF-8 and fills the arrays. Returns the node count; -1 when the tree is deeper than
 * `max_depth` levels (nothing printed: the caller takes another path), -2 when out of memory or the parser
 * fails, -3 when the root's S-expression does not split into the nodes' spans (or is not ASCII).
 */
int32_t faun_ts_parse(const char *src, uint32_t len, uint32_t max_depth) {
  if (!parser) {
    parser = ts_parser_new();
    if (!parser || !ts_parser_set_language(parser, parse_language())) return -2;
  }
  TSTree *tree = ts_parser_parse_string_encoding(parser, NULL, src, len, TSInputEncodingUTF8);
  if (!tree) return -2;
  TSNode root = ts_tree_root_node(tree);
  int32_t result = 0;
  strings_len = 0;
  const FaunWalkNode *walked = NULL;
  int64_t count = faun_ts_walk(tree, max_depth, &depth, &walked);
  uint32_t n = count > 0 ? (uint32_t)count : 0;
  if (count < 0) result = count == -1 ? -1 : -2;
  else if (n > cap && !grow_block(n)) result = -2;
  if (result == 0) {
    uint32_t *start = (uint32_t *)block, *end = start + cap, *parent = end + cap;
    int32_t *soff = (int32_t *)(parent + cap), *slen = soff + cap;
    uint16_t *field = (uint16_t *)(block + (size_t)cap * 20), *sym = field + cap;
    uint8_t *named = block + (size_t)cap * 24, *missing = named + cap;
    for (uint32_t i = 0; i < n; i++) {
      const FaunWalkNode *w = &walked[i];
      start[i] = w->start;
      end[i] = w->end;
      parent[i] = w->parent;
      field[i] = w->field;
      sym[i] = w->symbol;
      named[i] = w->named;
      missing[i] = w->missing;
      soff[i] = -1;
      slen[i] = 0;
    }
  }
  if (result == 0) {
    uint32_t root_bytes = 0;
    const char *s = faun_ts_node_string_once(root, &root_bytes);
    if (!s || !append_string(s, root_bytes)) result = -2;
    root_len = strings_len;
    /* offsets are bytes here and UTF-16 units in JS: equal for ASCII, which the printer writes */
    for (uint32_t i = 0; result == 0 && i < root_len; i++)
      if ((unsigned char)strings[i] >= 0x80) result = -3;
    if (result == 0 && assign_spans(strings, root_len, n) != 0) result = -3;
  }
  if (result == 0) {
    /* anonymous nodes with children: each printed on its own (ts_node_string of the walked subtree) */
    uint32_t *parent = (uint32_t *)block + 2 * (size_t)cap;
    int32_t *soff = (int32_t *)(parent + cap), *slen = soff + cap;
    uint8_t *named = block + (size_t)cap * 24, *missing = named + cap;
    uint8_t *has_child = calloc(n ? n : 1, 1);
    if (!has_child) result = -2;
    for (uint32_t i = 1; result == 0 && i < n; i++) has_child[parent[i]] = 1;
    if (result == 0) {
      for (uint32_t i = 1; result == 0 && i < n; i++) {
        if (!has_child[i] || named[i] || missing[i]) continue;
        char *s = faun_ts_walk_node_string(tree, i);
        soff[i] = (int32_t)strings_len;
        slen[i] = s ? (int32_t)strlen(s) : 0;
        if (!s || !append_string(s, (uint32_t)slen[i])) result = -2;
        free(s);
      }
    }
    free(has_child);
  }
  ts_tree_delete(tree);
  return result == 0 ? (int32_t)n : result;
}
