import { describe, expect, test } from 'bun:test';
import { extractPathLenient, extractPathStrict, extractRankedPaths } from './fl.ts';

const tree = ['src/flask/app.py', 'src/flask/cli.py', 'tests/test_cli.py'];

describe('FL answer extraction', () => {
  test('strict accepts a lone path only', () => {
    expect(extractPathStrict('src/flask/cli.py')).toBe('src/flask/cli.py');
    expect(extractPathStrict('```\nsrc/flask/cli.py\n```')).toBe('src/flask/cli.py');
    expect(extractPathStrict('The file is src/flask/cli.py')).toBeNull();
    expect(extractPathStrict('src/a.py\nsrc/b.py')).toBeNull();
    expect(extractPathStrict('')).toBeNull();
  });

  test('lenient finds the path in prose and prefers tree entries', () => {
    expect(extractPathLenient('I think `src/flask/cli.py` is the culprit.', tree)).toBe('src/flask/cli.py');
    expect(extractPathLenient('See README.md, then edit ./src/flask/cli.py', tree)).toBe('src/flask/cli.py');
    expect(extractPathLenient('Probably lib/other.py', tree)).toBe('lib/other.py');
    expect(extractPathLenient('no path here', tree)).toBeNull();
  });

  test('ranked lists keep order and drop duplicates', () => {
    expect(
      extractRankedPaths('1. src/flask/cli.py\n2. tests/test_cli.py\n3. src/flask/cli.py', tree),
    ).toEqual(['src/flask/cli.py', 'tests/test_cli.py']);
  });
});
