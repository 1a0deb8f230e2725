/*
 * tree-sitter's C runtime as @faun/syntax builds it (native-build.ts): its one-file build, lib.c, compiled
 * with faun_snprintf.h ahead of it, plus the one function below, which needs the runtime's internals.
 *
 * ts_node_string prints a tree twice: once into a one-byte buffer to measure it, once into a buffer of that
 * size. faun_ts_node_string_once prints it once into a buffer kept from one call to the next, with every
 * snprintf of the printer held inside that buffer (faun_snprintf_end); when the text turned out longer
 * than the buffer, the buffer grows and the tree is printed again. The text is ts_node_string's, byte for
 * byte: the same printer, called the way ts_node_string calls it.
 */
#include "lib.c"

static _Thread_local char *sexp;
static _Thread_local size_t sexp_cap;

/* The node's S-expression (NUL-terminated; valid until the next call on this thread) and its length. */
const char *faun_ts_node_string_once(TSNode self, uint32_t *len) {
  TSSymbol alias_symbol = ts_node__alias(&self);
  bool alias_is_named = ts_language_symbol_metadata(self.tree->language, alias_symbol).visible;
  size_t need = 65536;
  for (;;) {
    if (sexp_cap < need) {
      size_t c = sexp_cap ? sexp_cap : 65536;
      while (c < need) c *= 2;
      char *p = realloc(sexp, c);
      if (!p) return NULL;
      sexp = p;
      sexp_cap = c;
    }
    faun_snprintf_end = sexp + sexp_cap;
    size_t n = ts_subtree__write_to_string(ts_node__subtree(self), sexp, sexp_cap, self.tree->language, false,
                                           alias_symbol, alias_is_named, ROOT_FIELD);
    faun_snprintf_end = NULL;
    if (n < sexp_cap) {
      *len = (uint32_t)n;
      return sexp;
    }
    need = n + 1;
  }
}

/*
 * The nodes a TSTreeCursor visits from the root, in the same pre-order and with the same facts (start and
 * end byte, nearest visible ancestor, field id, public symbol, named, missing), read straight from the
 * subtrees: faun_tree.c took them through a cursor and the node API, a call per fact, which was a sixth of
 * the native parse. The rules are the cursor's: a child is visible when its subtree is or, unless it is an
 * extra, when its parent's production aliases it; hidden children with visible children are walked through
 * (their visible children belong to the nearest visible ancestor); a node's field is the first
 * non-inherited field-map entry naming it in its parent's production, looked up again for each hidden
 * ancestor (not an extra) until a visible one.
 */
#include "faun_walk.h"


typedef struct {
  const Subtree *subtree;
  const TSSymbol *aliases;  /* alias sequence of the subtree's production, or NULL */
  uint32_t next_child, next_structural, next_position;
  uint32_t structural_index; /* the subtree's structural child index under its parent */
  uint32_t node;             /* its node index when visible, else its nearest visible ancestor's */
  uint32_t level;            /* the level its visible children (or descendants, when hidden) get */
  bool visible, extra;
} FaunWalkFrame;

static _Thread_local FaunWalkNode *walk_nodes;
/* each node's subtree and alias (for faun_ts_walk_node_string) */
static _Thread_local const Subtree **walk_subtrees;
static _Thread_local TSSymbol *walk_aliases;
static _Thread_local uint32_t walk_nodes_cap;
static _Thread_local FaunWalkFrame *walk_frames;
static _Thread_local uint32_t walk_frames_cap;

static bool faun_walk_reserve(uint32_t nodes, uint32_t frames) {
  if (nodes > walk_nodes_cap) {
    uint32_t c = walk_nodes_cap ? walk_nodes_cap : 1024;
    while (c < nodes) c *= 2;
    FaunWalkNode *p = realloc(walk_nodes, (size_t)c * sizeof *p);
    if (!p) return false;
    walk_nodes = p;
    const Subtree **subtrees = realloc(walk_subtrees, (size_t)c * sizeof *subtrees);
    if (!subtrees) return false;
    walk_subtrees = subtrees;
    TSSymbol *aliases = realloc(walk_aliases, (size_t)c * sizeof *aliases);
    if (!aliases) return false;
    walk_aliases = aliases;
    walk_nodes_cap = c;
  }
  if (frames > walk_frames_cap) {
    uint32_t c = walk_frames_cap ? walk_frames_cap : 256;
    while (c < frames) c *= 2;
    FaunWalkFrame *p = realloc(walk_frames, (size_t)c * sizeof *p);
    if (!p) return false;
    walk_frames = p;
    walk_frames_cap = c;
  }
  return true;
}

/* The field id of the child with structural index `sci` of frames[top] (ts_tree_cursor_current_field_id). */
static TSFieldId faun_walk_field(const TSLanguage *lang, uint32_t top, uint32_t sci, bool extra) {
  if (extra) return 0;
  for (uint32_t p = top;; p--) {
    const FaunWalkFrame *parent = &walk_frames[p];
    const TSFieldMapEntry *map, *end;
    ts_language_field_map(lang, parent->subtree->ptr->production_id, &map, &end);
    for (; map < end; map++)
      if (!map->inherited && map->child_index == sci) return map->field_id;
    if (p == 0 || parent->visible || parent->extra) return 0;
    sci = parent->structural_index;
  }
}

/* Pushes a frame for `child` (which has children). */
static bool faun_walk_push(const TSLanguage *lang, uint32_t *count, const Subtree *child, uint32_t pos,
                           uint32_t sci, uint32_t node, uint32_t level, bool visible, bool extra) {
  if (!faun_walk_reserve(0, *count + 1)) return false;
  walk_frames[(*count)++] = (FaunWalkFrame){
    .subtree = child,
    .aliases = ts_language_alias_sequence(lang, child->ptr->production_id),
    .next_child = 0,
    .next_structural = 0,
    .next_position = pos,
    .structural_index = sci,
    .node = node,
    .level = level,
    .visible = visible,
    .extra = extra,
  };
  return true;
}

/*
 * Walks `tree` into an array of nodes (valid until the next call on this thread). Returns the node count,
 * -1 when the tree has more than `max_depth` visible levels (the walk stops there), -2 when out of memory;
 * `*depth` is the number of visible levels.
 */
int64_t faun_ts_walk(const TSTree *tree, uint32_t max_depth, uint32_t *depth, const FaunWalkNode **out) {
  const TSLanguage *lang = tree->language;
  Subtree root = tree->root;
  if (!faun_walk_reserve(1, 1)) return -2;
  uint32_t start = ts_subtree_padding(root).bytes;
  walk_nodes[0] = (FaunWalkNode){
    .start = start,
    .end = start + ts_subtree_size(root).bytes,
    .parent = UINT32_MAX,
    .field = 0,
    .symbol = ts_language_public_symbol(lang, ts_subtree_symbol(root)),
    .named = ts_subtree_named(root),
    .missing = ts_subtree_missing(root),
  };
  walk_subtrees[0] = &tree->root;
  walk_aliases[0] = 0;
  uint32_t n = 1, count = 0;
  *depth = 1;
  *out = walk_nodes;
  if (ts_subtree_child_count(root) > 0 &&
      !faun_walk_push(lang, &count, &tree->root, start, 0, 0, 1, true, ts_subtree_extra(root)))
    return -2;
  while (count > 0) {
    FaunWalkFrame *f = &walk_frames[count - 1];
    Subtree parent = *f->subtree;
    if (f->next_child == parent.ptr->child_count) {
      count--;
      continue;
    }
    const Subtree *children = ts_subtree_children(parent);
    const Subtree *child = &children[f->next_child];
    uint32_t pos = f->next_position, sci = f->next_structural;
    bool extra = ts_subtree_extra(*child);
    bool visible = ts_subtree_visible(*child);
    TSSymbol alias = 0;
    if (!extra) {
      if (f->aliases) {
        alias = f->aliases[sci];
        visible |= alias != 0;
      }
      f->next_structural++;
    }
    f->next_position = pos + ts_subtree_size(*child).bytes;
    if (++f->next_child < parent.ptr->child_count)
      f->next_position += ts_subtree_padding(children[f->next_child]).bytes;
    uint32_t level = f->level, up = f->node;
    if (visible) {
      if (level + 1 > *depth) {
        *depth = level + 1;
        if (*depth > max_depth) return -1;
      }
      if (!faun_walk_reserve(n + 1, 0)) return -2;
      walk_nodes[n] = (FaunWalkNode){
        .start = pos,
        .end = pos + ts_subtree_size(*child).bytes,
        .parent = up,
        .field = faun_walk_field(lang, count - 1, sci, extra),
        .symbol = ts_language_public_symbol(lang, alias ? alias : ts_subtree_symbol(*child)),
        .named = alias ? ts_language_symbol_metadata(lang, alias).named : ts_subtree_named(*child),
        .missing = ts_subtree_missing(*child),
      };
      walk_subtrees[n] = child;
      walk_aliases[n] = alias;
      *out = walk_nodes;
      uint32_t self = n++;
      if (ts_subtree_child_count(*child) > 0 &&
          !faun_walk_push(lang, &count, child, pos, sci, self, level + 1, true, extra))
        return -2;
    } else if (ts_subtree_visible_child_count(*child) > 0) {
      if (!faun_walk_push(lang, &count, child, pos, sci, up, level, false, extra)) return -2;
    }
  }
  *out = walk_nodes;
  return n;
}

/* ts_node_string of node `i` of the last faun_ts_walk on this thread (of `tree`); the caller frees it. */
char *faun_ts_walk_node_string(const TSTree *tree, uint32_t i) {
  TSSymbol alias = walk_aliases[i];
  return ts_subtree_string(*walk_subtrees[i], alias, ts_language_symbol_metadata(tree->language, alias).visible,
                           tree->language, false);
}
