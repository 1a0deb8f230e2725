/*
 * The training run of @faun/syntax's profile-guided build (native-build.ts): loads a library built with
 * -fprofile-generate and parses the given files with it, each file whole and then in windows of 40 lines
 * every 20 lines (text that starts and ends mid-construct, as diff hunks do, so error recovery is trained
 * too). The profile is written when the process exits. Exits non-zero when the library or a file cannot be
 * read, or no text parsed.
 *
 *   faun_train LIBRARY FILE...
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define WINDOW_LINES 40
#define STEP_LINES 20

typedef int32_t (*parse_fn)(const char *src, uint32_t len, uint32_t max_depth);

static char *read_file(const char *path, long *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (*len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    buf = malloc((size_t)*len + 1);
    if (buf && fread(buf, 1, (size_t)*len, f) != (size_t)*len) {
      free(buf);
      buf = NULL;
    }
  }
  fclose(f);
  return buf;
}

/* The offset just past the `lines`-th newline from `at` (or `len`). */
static long skip_lines(const char *s, long len, long at, int lines) {
  while (at < len && lines > 0) {
    if (s[at++] == '\n') lines--;
  }
  return at;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s LIBRARY FILE...\n", argv[0]);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  parse_fn parse = (parse_fn)dlsym(lib, "faun_ts_parse");
  if (!parse) {
    fprintf(stderr, "no faun_ts_parse in %s\n", argv[1]);
    return 1;
  }
  long parsed = 0;
  for (int i = 2; i < argc; i++) {
    long len = 0;
    char *text = read_file(argv[i], &len);
    if (!text) {
      fprintf(stderr, "cannot read %s\n", argv[i]);
      return 1;
    }
    if (parse(text, (uint32_t)len, 2000) > 0) parsed++;
    for (long at = 0; at < len; at = skip_lines(text, len, at, STEP_LINES)) {
      long end = skip_lines(text, len, at, WINDOW_LINES);
      if (parse(text + at, (uint32_t)(end - at), 2000) > 0) parsed++;
    }
    free(text);
  }
  return parsed > 0 ? 0 : 1;
}
