import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { faunSide } from './msb-parity.ts';

const go = (lines: string[]) => `${lines.join('\n')}\n`;

// Expected values: Multi-SWE-bench's gin-gonic/gin class over these three logs (bench/scripts/msb_report.py):
// a test skipped in the test stage and passing after the fix comes out n2p, not s2p.
test('faun side of the parity check: three kept stage logs → validity and categories', () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-msb-parity-'));
  try {
    const d = join(root, 'acme__widget-pr-7');
    mkdirSync(d);
    writeFileSync(
      join(d, 'instance.json'),
      JSON.stringify({ instance_id: 'acme/widget:pr-7', repo: 'acme/widget', pr: 7, parser: 'msb-go' }),
    );
    writeFileSync(join(d, 'run.log'), go(['--- PASS: TestOld (0.00s)', '--- SKIP: TestSkip (0.00s)']));
    writeFileSync(
      join(d, 'test-patch-run.log'),
      go(['--- PASS: TestOld (0.00s)', '--- FAIL: TestBug (0.01s)', '--- SKIP: TestSkip (0.00s)']),
    );
    writeFileSync(
      join(d, 'fix-patch-run.log'),
      go([
        '--- PASS: TestOld (0.00s)',
        '--- PASS: TestBug (0.01s)',
        '--- PASS: TestSkip (0.00s)',
        '--- PASS: TestNew (0.00s)',
      ]),
    );
    expect(faunSide(d)).toEqual({
      instance_id: 'acme/widget:pr-7',
      valid: true,
      f2p: ['TestBug'],
      p2p: ['TestOld'],
      s2p: [],
      n2p: ['TestNew', 'TestSkip'],
      fixed: ['TestBug', 'TestNew', 'TestSkip'],
    });
    // Without its parser recorded the directory cannot be compared.
    writeFileSync(
      join(d, 'instance.json'),
      JSON.stringify({ instance_id: 'acme/widget:pr-7', parser: null }),
    );
    expect(faunSide(d)).toBeNull();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
