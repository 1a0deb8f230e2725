import { expect, test } from 'bun:test';
import { debsFrom } from './spec-steps.ts';

test('debsFrom: adds the suite, downloads each package from it (missing ones skipped), unpacks, removes the list', () => {
  const s = debsFrom('bookworm', ['python3-tomli', 'python3-x']);
  expect(s).toContain('bookworm main" > /etc/apt/sources.list.d/faun-bookworm.list');
  expect(s).toContain('for p in python3-tomli python3-x; do apt-get download "$p/bookworm" || echo');
  expect(s).toContain('dpkg -x "$d" /');
  expect(s.indexOf('dpkg -x')).toBeLessThan(
    s.indexOf('rm -rf /tmp/faun-debs /etc/apt/sources.list.d/faun-bookworm.list'),
  );
  expect(() => debsFrom('trixie', [])).toThrow('no packages');
});
