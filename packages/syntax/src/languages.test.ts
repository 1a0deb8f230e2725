import { expect, test } from 'bun:test';
import { detectLanguage } from './languages.ts';
import { getParser, initSyntax, parseCode } from './parsers.ts';

test('detectLanguage maps extensions, tsx to the tsx grammar', () => {
  expect(detectLanguage('src/a.py')).toBe('python');
  expect(detectLanguage('A.java')).toBe('java');
  expect(detectLanguage('lib/x.mjs')).toBe('javascript');
  expect(detectLanguage('types/index.d.ts')).toBe('typescript');
  expect(detectLanguage('ui/App.tsx')).toBe('tsx');
  expect(detectLanguage('main.go')).toBe('go');
  expect(detectLanguage('README')).toBe(null);
  expect(detectLanguage('x.rb')).toBe(null);
});

test('parsers are created once per language and parse each grammar', async () => {
  await initSyntax(['python', 'go']);
  expect(getParser('python')).toBe(getParser('python'));
  const tree = parseCode('x = 1\n', 'python');
  expect(tree.tree.rootNode.toString()).toBe(
    '(module (expression_statement (assignment left: (identifier) right: (integer))))',
  );
  tree.delete();
  const go = parseCode('package m\n', 'go');
  expect(go.tree.rootNode.type).toBe('source_file');
  go.delete();
});
