import { expect, test } from 'bun:test';
import { DockerfileError, parseDockerfile } from './build-steps.ts';

test('parseDockerfile: continuations joined as Docker joins them, comments dropped, metadata kept verbatim', () => {
  const df = [
    'FROM faun/base:1',
    'ENV A="x y" B=2',
    '# a comment',
    'RUN apt-get update && apt-get install -y \\',
    '    python3 \\',
    '# inside a continuation',
    '    && rm -rf /var/lib/apt/lists/*',
    'COPY testbed /testbed',
    'COPY a.sh b.patch /home/',
    'WORKDIR /testbed',
    'LABEL org.faun.harness.layer=env org.faun.harness.spec="default:python"',
    '',
  ].join('\n');
  expect(parseDockerfile(df)).toEqual([
    { kind: 'from', image: 'faun/base:1' },
    { kind: 'meta', line: 'ENV A="x y" B=2' },
    {
      kind: 'run',
      cmd: 'apt-get update && apt-get install -y     python3     && rm -rf /var/lib/apt/lists/*',
    },
    { kind: 'copy', src: 'testbed', dest: '/testbed' },
    { kind: 'copy', src: 'a.sh', dest: '/home/a.sh' },
    { kind: 'copy', src: 'b.patch', dest: '/home/b.patch' },
    { kind: 'meta', line: 'WORKDIR /testbed' },
    { kind: 'meta', line: 'LABEL org.faun.harness.layer=env org.faun.harness.spec="default:python"' },
  ]);
});

test('parseDockerfile refuses what the confined builder does not execute', () => {
  const bad = (body: string) => () => parseDockerfile(`FROM x\n${body}\n`);
  expect(bad('ADD http://x/y /y')).toThrow(DockerfileError);
  expect(bad('RUN ["sh", "-c", "x"]')).toThrow(/exec-form/);
  expect(parseDockerfile('FROM x\nRUN [ -f a ] || true\n')[1]).toEqual({
    kind: 'run',
    cmd: '[ -f a ] || true',
  });
  expect(bad('COPY ../etc /x')).toThrow(/context-relative/);
  expect(bad('COPY /etc /x')).toThrow(/context-relative/);
  expect(bad('COPY *.sh /x/')).toThrow(/plain sources/);
  expect(bad('COPY --from=a x /x')).toThrow(/plain sources/);
  expect(bad('COPY a b /x')).toThrow(/ending in \//);
  expect(bad('FROM y')).toThrow(/multi-stage/);
  expect(() => parseDockerfile('RUN true\n')).toThrow(/start with FROM/);
});
