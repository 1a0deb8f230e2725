import { expect, test } from 'bun:test';
import type { ExecutionInstance } from '@faun/schema';
import { envDockerfile } from './docker-images.ts';
import { GO_OFFLINE_SCRIPT, installScript } from './native-env.ts';
import { MSB_PARSERS } from './parsers/select.ts';
import { NATIVE_SPECS } from './repo-specs-native.ts';
import { specFor, testCommand } from './specs.ts';
import { testInstance } from './test-instance.ts';

const inst = (repo: string, language: ExecutionInstance['language']): ExecutionInstance =>
  testInstance({ repo, language });

test('native repositories get their own spec, other repositories of the language the default', () => {
  expect(specFor(inst('gin-gonic/gin', 'go'))?.name).toBe('gin-gonic/gin');
  expect(specFor(inst('labstack/echo', 'go'))?.name).toBe('labstack/echo');
  expect(specFor(inst('jqlang/jq', 'c'))?.name).toBe('jqlang/jq');
  expect(specFor(inst('someone/else', 'go'))?.name).toBe('default:go');
  expect(specFor(inst('someone/else', 'c'))?.name).toBe('default:c');
});

test("each native spec's parser is Multi-SWE-bench's for that repository", () => {
  for (const s of NATIVE_SPECS) expect([s.name, s.parser]).toEqual([s.name, MSB_PARSERS[s.name]!]);
});

test("Go specs run Multi-SWE-bench's command offline, with the module set-up installed in the env layer", () => {
  const gin = specFor(inst('gin-gonic/gin', 'go'))!;
  expect(testCommand(gin, inst('gin-gonic/gin', 'go'))).toBe('go test -v -count=1 ./... 2>&1');
  expect(gin.env?.GOPROXY).toBe('off');
  expect(gin.install[0]).toBe('faun-go-offline');
  const dockerfile = envDockerfile(gin);
  expect(dockerfile).toContain('golang-github-gin-gonic-gin-dev');
  const b64 = /echo (\S+) \| base64 -d > \/usr\/local\/bin\/faun-go-offline/.exec(dockerfile)?.[1];
  expect(Buffer.from(b64 ?? '', 'base64').toString()).toBe(GO_OFFLINE_SCRIPT);
});

test('installScript round-trips any script text through base64', () => {
  const script = '#!/bin/sh\necho \'a "b" $c\'\n';
  const step = installScript('/usr/local/bin/x', script);
  expect(step).toEndWith('> /usr/local/bin/x && chmod +x /usr/local/bin/x');
  expect(Buffer.from(step.split(' ')[1]!, 'base64').toString()).toBe(script);
});
