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
