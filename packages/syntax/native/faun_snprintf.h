/*
 * Included ahead of tree-sitter's lib.c when @faun/syntax builds its native runtime (native-build.ts): routes
 * the runtime's snprintf calls through a version with the same results that copies literal text and "%s"
 * arguments itself. The S-expression printer (ts_node_string, which CodeBLEU's syntax component reads for
 * every text) formats each node with one snprintf per piece, twice per tree (once to measure, once to
 * write); libc's general formatter was a fifth of the native parse time. Any other conversion takes libc's
 * vsnprintf, so every output is byte for byte what snprintf gives.
 */
#ifndef FAUN_SNPRINTF_H
#define FAUN_SNPRINTF_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/*
 * When set (faun_runtime.c, while it prints a tree once into a buffer of its own), no snprintf writes at or
 * past this address, whatever limit it is given: the printer passes its whole buffer's size with every
 * piece, which only the exact-size second pass of ts_node_string could trust.
 */
static _Thread_local char *faun_snprintf_end;

/* `limit` held to the bytes left before faun_snprintf_end. */
static inline size_t faun_limit(const char *buf, size_t limit) {
  if (!faun_snprintf_end) return limit;
  if (buf >= faun_snprintf_end) return 0;
  size_t room = (size_t)(faun_snprintf_end - buf);
  return limit < room ? limit : room;
}

/* Appends `len` bytes of `s` at logical position `*n` of a `limit`-byte buffer (what fits, as snprintf). */
static inline void faun_put(char *buf, size_t limit, size_t *n, const char *s, size_t len) {
  if (*n + 1 < limit) {
    size_t room = limit - 1 - *n;
    memcpy(buf + *n, s, len < room ? len : room);
  }
  *n += len;
}

/* snprintf with `limit` already held to faun_snprintf_end (see the macro below). */
static int faun_snprintf(char *buf, size_t limit, const char *fmt, ...) {
  va_list ap;
  for (const char *f = fmt; *f; f++)
    if (f[0] == '%' && f[1] != 's') {
      va_start(ap, fmt);
      int r = vsnprintf(buf, limit, fmt, ap);
      va_end(ap);
      return r;
    }
  size_t n = 0;
  va_start(ap, fmt);
  const char *f = fmt;
  while (*f) {
    if (f[0] == '%') {
      const char *s = va_arg(ap, const char *);
      if (!s) s = "(null)";
      faun_put(buf, limit, &n, s, strlen(s));
      f += 2;
      continue;
    }
    const char *e = f;
    while (*e && *e != '%') e++;
    faun_put(buf, limit, &n, f, (size_t)(e - f));
    f = e;
  }
  va_end(ap);
  if (limit > 0) buf[n < limit ? n : limit - 1] = '\0';
  return (int)n;
}

/* The limit is held in the caller, where the thread-local end is read once per function rather than once
 * per piece (each read of a shared library's thread-local is a call; the printer writes 3–5 pieces a node). */
#define snprintf(buf, limit, ...) faun_snprintf((buf), faun_limit((buf), (limit)), __VA_ARGS__)
#endif
