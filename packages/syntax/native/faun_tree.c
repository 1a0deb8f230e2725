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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tree_sitter/api.h"

#ifndef FAUN_TS_LANGUAGE
#error "define FAUN_TS_LANGUAGE as the grammar's entry point (e.g. tree_sitter_go)"
#endif

const TSLanguage *FAUN_TS_LANGUAGE(void);

static _Thread_local TSParser *parser;
static _Thread_local uint8_t *block;    /* the node arrays, laid out by `cap` (see faun_ts_cap) */
static _Thread_local uint32_t cap;
static _Thread_local char *strings;      /* root S-expression, then the own strings */
static _Thread_local uint32_t strings_len, strings_cap;
static _Thread_local uint32_t depth;
static _Thread_local uint32_t root_len;
static _Thread_local uint32_t *stack;    /* ancestors' node indices during the walk */
static _Thread_local uint32_t stack_cap;

/* Bytes per node: start, end, parent, own string offset, own string length (4 each), field, symbol (2
 * each), named, missing (1 each). */
#define NODE_BYTES (5 * 4 + 2 * 2 + 2)

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
uint32_t faun_ts_depth(void) { return depth; }
uint32_t faun_ts_root_len(void) { return root_len; }
uint32_t faun_ts_symbol_count(void) { return ts_language_symbol_count(FAUN_TS_LANGUAGE()); }

/*
 * Parses `len` bytes of UTF-8 and fills the arrays. Returns the node count; -1 when the tree is deeper than
 * `max_depth` levels (nothing printed: the caller takes another path), -2 when out of memory or the parser
 * fails.
 */
int32_t faun_ts_parse(const char *src, uint32_t len, uint32_t max_depth) {
  if (!parser) {
    parser = ts_parser_new();
    if (!parser || !ts_parser_set_language(parser, FAUN_TS_LANGUAGE())) return -2;
  }
  TSTree *tree = ts_parser_parse_string_encoding(parser, NULL, src, len, TSInputEncodingUTF8);
  if (!tree) return -2;
  TSNode root = ts_tree_root_node(tree);
  TSTreeCursor cur = ts_tree_cursor_new(root);
  uint32_t n = 0, level = 0;
  int32_t result = 0;
  depth = 1;
  strings_len = 0;
  for (;;) {
    if (n >= cap && !grow_block(n + 1)) { result = -2; break; }
    TSNode node = ts_tree_cursor_current_node(&cur);
    uint32_t *start = (uint32_t *)block, *end = start + cap, *parent = end + cap;
    int32_t *soff = (int32_t *)(parent + cap), *slen = soff + cap;
    uint16_t *field = (uint16_t *)(block + (size_t)cap * 20), *sym = field + cap;
    uint8_t *named = block + (size_t)cap * 24, *missing = named + cap;
    start[n] = ts_node_start_byte(node);
    end[n] = ts_node_end_byte(node);
    parent[n] = level ? stack[level - 1] : (uint32_t)-1;
    field[n] = ts_tree_cursor_current_field_id(&cur);
    sym[n] = ts_node_symbol(node);
    named[n] = ts_node_is_named(node);
    missing[n] = ts_node_is_missing(node);
    soff[n] = -1;
    slen[n] = 0;
    uint32_t self = n++;
    if (ts_tree_cursor_goto_first_child(&cur)) {
      if (level + 1 > stack_cap) {
        uint32_t c = stack_cap ? stack_cap * 2 : 256;
        uint32_t *s = realloc(stack, (size_t)c * 4);
        if (!s) { result = -2; break; }
        stack = s;
        stack_cap = c;
      }
      stack[level++] = self;
      if (level + 1 > depth) depth = level + 1;
      if (depth > max_depth) { result = -1; break; }
      continue;
    }
    while (level > 0 && !ts_tree_cursor_goto_next_sibling(&cur)) {
      ts_tree_cursor_goto_parent(&cur);
      level--;
    }
    if (level == 0) break;
  }
  ts_tree_cursor_delete(&cur);
  if (result == 0) {
    char *s = ts_node_string(root);
    if (!s || !append_string(s, (uint32_t)strlen(s))) result = -2;
    free(s);
    root_len = strings_len;
  }
  if (result == 0) {
    /* anonymous nodes with children: printed on their own (the walk order gives their nodes again) */
    uint32_t *parent = (uint32_t *)block + 2 * (size_t)cap;
    int32_t *soff = (int32_t *)(parent + cap), *slen = soff + cap;
    uint8_t *named = block + (size_t)cap * 24, *missing = named + cap;
    uint8_t *has_child = calloc(n ? n : 1, 1);
    if (!has_child) result = -2;
    for (uint32_t i = 1; result == 0 && i < n; i++) has_child[parent[i]] = 1;
    if (result == 0) {
      int need = 0;
      for (uint32_t i = 1; i < n; i++) if (has_child[i] && !named[i] && !missing[i]) { need = 1; break; }
      if (need) {
        /* walk again with a cursor to reach those nodes */
        TSTreeCursor c2 = ts_tree_cursor_new(root);
        uint32_t i = 0, lv = 0;
        for (;;) {
          if (i > 0 && has_child[i] && !named[i] && !missing[i]) {
            char *s = ts_node_string(ts_tree_cursor_current_node(&c2));
            soff[i] = (int32_t)strings_len;
            slen[i] = s ? (int32_t)strlen(s) : 0;
            if (!s || !append_string(s, (uint32_t)slen[i])) { free(s); result = -2; break; }
            free(s);
          }
          i++;
          if (ts_tree_cursor_goto_first_child(&c2)) { lv++; continue; }
          while (lv > 0 && !ts_tree_cursor_goto_next_sibling(&c2)) { ts_tree_cursor_goto_parent(&c2); lv--; }
          if (lv == 0) break;
        }
        ts_tree_cursor_delete(&c2);
      }
    }
    free(has_child);
  }
  ts_tree_delete(tree);
  return result == 0 ? (int32_t)n : result;
}
