/*
 * The walk shared by the runtime's translation unit (faun_runtime.c, which defines it) and the grammar glue
 * (faun_tree.c, which calls it): the nodes a TSTreeCursor visits from the root, read from the subtrees.
 */
#ifndef FAUN_WALK_H
#define FAUN_WALK_H
#include <stdint.h>
#include "tree_sitter/api.h"

typedef struct {
  uint32_t start, end, parent;
  uint16_t field, symbol;
  uint8_t named, missing;
} FaunWalkNode;

int64_t faun_ts_walk(const TSTree *tree, uint32_t max_depth, uint32_t *depth, const FaunWalkNode **out);
char *faun_ts_walk_node_string(const TSTree *tree, uint32_t i);
#endif
