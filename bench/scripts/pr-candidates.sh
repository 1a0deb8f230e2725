#!/bin/sh
# Candidate real-exec pointers of one repository, from its mirror (a bare clone with refs/pull/N/head):
# first-parent commits of the default branch in a date range that change a source folder and tests/ but
# no Cargo.toml / Cargo.lock (faun-cargo-offline edits those, so such a patch would not apply), each
# with the PR it merged:
#   - a merge commit ("Merge pull request #N …") or a squash merge ("… (#N)"): N;
#   - a rebase merge (no number in the subject): the PR whose own commits, not on the default branch,
#     hold a single commit with the same author and subject. Rebase merges of several commits are
#     printed as "multi" (the pointer's commit would be part of the PR only) and commits pushed directly
#     (no PR found) as "none"; neither is a pointer.
# Prints "<pr|multi|none> <date> <commit> <version at the base> | <subject>". Whether the tests fail at
# the base is for `bench real-exec` (validation) to say.
#
#   sh bench/scripts/pr-candidates.sh /work/.mirror/sharkdp+fd/repo 2020-01-01 2023-01-31 [src/] [master]
set -eu
repo=$1 since=$2 until=$3 src=${4:-src/} branch=${5:-master}
cd "$repo"
orig=$(mktemp)
trap 'rm -f "$orig"' EXIT
# commits of PR heads that never reached the branch: the pre-rebase originals of rebase merges
git log --format='%H|%an|%s' $(git for-each-ref --format='%(refname)' 'refs/pull/*/head') --not "$branch" >"$orig"
git log --first-parent --since="$since" --until="$until" --format='%H|%cs|%an|%s' "$branch" |
  while IFS='|' read -r h d an s; do
    files=$(git diff --name-only "$h^1" "$h")
    printf '%s\n' "$files" | grep -q "^$src" || continue
    printf '%s\n' "$files" | grep -q '^tests/' || continue
    printf '%s\n' "$files" | grep -q '^Cargo\.\(toml\|lock\)$' && continue
    pr=$(printf '%s\n' "$s" | sed -nE 's/^Merge pull request #([0-9]+).*/\1/p; s/.*\(#([0-9]+)\)$/\1/p' | head -1)
    if [ -z "$pr" ]; then
      pr=none
      o=$(grep -F "|$an|$s" "$orig" | head -1 | cut -d'|' -f1)
      if [ -n "$o" ]; then
        n=$(git for-each-ref --contains "$o" --format='%(refname)' 'refs/pull/*/head' | sed 's|refs/pull/\([0-9]*\)/head|\1|' | sort -n | head -1)
        if [ -n "$n" ]; then
          c=$(git rev-list --count "$(git merge-base "refs/pull/$n/head" "$branch")..refs/pull/$n/head")
          [ "$c" = 1 ] && pr=$n || pr=multi
        fi
      fi
    fi
    v=$(git show "$h^1:Cargo.toml" 2>/dev/null | sed -n 's/^version = "\(.*\)"/\1/p' | head -1)
    echo "$pr $d $h ${v:--} | $s"
  done
