/**
 * Shell steps shared by environment specs (pure: each returns the text of one `RUN` step).
 */
import type { DebianSuite } from './specs.ts';

/**
 * Unpacks Debian packages of another suite over this image (`dpkg -x`, no dependency resolution): for
 * pure-Python packages that the image's suite lacks or has at an unusable version (both suites install
 * them under /usr/lib/python3/dist-packages). A package the suite lacks is reported and skipped; the
 * other suite's list is removed afterwards.
 */
export function debsFrom(suite: DebianSuite, packages: string[]): string {
  if (!packages.length) throw new Error('debsFrom: no packages');
  const list = `/etc/apt/sources.list.d/faun-${suite}.list`;
  return [
    `echo "deb $(grep -o -m1 'http[^ ]*' /etc/apt/sources.list) ${suite} main" > ${list}`,
    'apt-get update -qq',
    'mkdir -p /tmp/faun-debs && cd /tmp/faun-debs',
    `for p in ${packages.join(' ')}; do apt-get download "$p/${suite}" || echo "faun: $p not in ${suite}"; done`,
    'for d in *.deb; do [ -e "$d" ] && dpkg -x "$d" /; done',
    `cd / && rm -rf /tmp/faun-debs ${list} /var/lib/apt/lists/*`,
  ].join(' && ');
}
