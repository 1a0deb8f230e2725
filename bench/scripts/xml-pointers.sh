#!/bin/sh
# bench real-exec's jackson-dataformat-xml pointers, rebuilt from its mirror (a bare clone): the squash merges
# ("… (#N)") of every branch, PRs 500–699, that change src/main/java and src/test and whose base's POM has a
# jackson-base parent of the 2.14–2.17 lines (the lines faun has environments for: jackson-xml-envs.ts), one
# JSON line each in PR order. Whether the tests fail at the base is for `bench real-exec` (validation) to say.
#
#   sh bench/scripts/xml-pointers.sh /work/.mirror/FasterXML+jackson-dataformat-xml/repo
set -eu
cd "$1"
git log --all --no-merges --format='%H %s' |
  sed -nE 's/^([0-9a-f]{40}) .*\(#([0-9]+)\)$/\2 \1/p' | sort -n -u -k1,1 |
  while read -r pr h; do
    [ "$pr" -ge 500 ] && [ "$pr" -le 699 ] || continue
    files=$(git diff --name-only "$h^" "$h")
    printf '%s\n' "$files" | grep -q '^src/main/java/' || continue
    printf '%s\n' "$files" | grep -q '^src/test/' || continue
    git show "$h^:pom.xml" | tr -d ' \n' | grep -qE '<artifactId>jackson-base</artifactId><version>2\.1[4-7]\.' || continue
    printf '{"language":"java","repo":"FasterXML/jackson-dataformat-xml","pr":%s,"fix_commit":"%s"}\n' "$pr" "$h"
  done
