import { expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';
import { MSB_PARSERS } from '../parsers/select.ts';
import { testInstance } from '../run/test-instance.ts';
import { envDockerfile } from './docker-images.ts';
import { GO_OFFLINE_SCRIPT, installScript } from './native-env.ts';
import { NATIVE_SPECS } from './repo-specs-native.ts';
import { versionForPr } from './spec-versions.ts';
import { specFor, testCommand } from './specs.ts';

const inst = (repo: string, language: ExecutionInstance['language']): ExecutionInstance =>
  testInstance({ repo, language });

test('native repositories get their own spec, other repositories of the language the default', () => {
  expect(specFor(inst('gin-gonic/gin', 'go'))?.name).toBe('gin-gonic/gin');
  expect(specFor(inst('labstack/echo', 'go'))?.name).toBe('labstack/echo');
  expect(specFor(inst('jqlang/jq', 'c'))?.name).toBe('jqlang/jq');
  expect(specFor(inst('mruby/mruby', 'c'))?.name).toBe('mruby/mruby');
  expect(specFor(inst('someone/else', 'go'))?.name).toBe('default:go');
  expect(specFor(inst('someone/else', 'c'))?.name).toBe('default:c');
});

test("each native spec's parser is Multi-SWE-bench's for that repository", () => {
  for (const s of NATIVE_SPECS) expect([s.name, s.parser]).toEqual([s.name, MSB_PARSERS[s.name]!]);
});

test('mruby builds with two jobs, then runs its tests serially and verbosely, as the reference reads them', () => {
  const mruby = specFor(inst('mruby/mruby', 'c'))!;
  const [build, run] = testCommand(mruby, inst('mruby/mruby', 'c')).split(' && ');
  expect(build).toBe('rake -m -j2 all 2>&1');
  // No -m: rake's multitask would run mrbtest and bintest at once and interleave their lines.
  expect(run).toBe('rake all test --trace 2>&1');
  expect(mruby.apt).toEqual(['ruby', 'rake', 'bison']);
});

test("echo from 4.5 serves Debian's dgrijalva/jwt-go as github.com/golang-jwt/jwt; earlier echo keeps its spec", () => {
  const at = (pr: number) =>
    specFor(
      testInstance({ repo: 'labstack/echo', language: 'go', version: versionForPr('labstack/echo', pr) }),
    )!;
  expect(at(1910).versions).toBeNull();
  expect(at(1910).envSetup).toHaveLength(1);
  const newer = at(2007);
  expect(newer.versions).toEqual(['4.5-golang-jwt']);
  expect(newer.envSetup[0]).toContain(
    'cp -r /usr/share/gocode/src/github.com/dgrijalva/jwt-go /usr/share/gocode/src/github.com/golang-jwt/jwt',
  );
  expect(newer.envSetup[1]).toContain('golang.org/x/mod golang.org/x/tools');
  expect(newer.testCmd).toBe(at(1910).testCmd);
});

test("gin before #2827 gets Debian's github.com/golang/protobuf; later gin keeps its spec", () => {
  const at = (pr: number) =>
    specFor(
      testInstance({ repo: 'gin-gonic/gin', language: 'go', version: versionForPr('gin-gonic/gin', pr) }),
    )!;
  expect(at(2755).versions).toEqual(['1.7-golang-protobuf']);
  expect(at(2755).apt).toContain('golang-github-golang-protobuf-1-5-dev');
  expect(at(2832).versions).toBeNull();
  expect(at(2832).apt).not.toContain('golang-github-golang-protobuf-1-5-dev');
  expect(at(2755).testCmd).toBe(at(2832).testCmd);
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

/**
 * faun-go-offline against a stand-in `go`: `go list -m all` names `dep` as missing until a replace
 * directive for it exists; `go mod edit` appends to go.mod. Returns where `dep` was pointed.
 */
function goOffline(debianHasDep: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'faun-go-offline-'));
  const [src, stubs, bin, repo] = ['src', 'stubs', 'bin', 'repo'].map((d) => join(dir, d)) as [
    string,
    string,
    string,
    string,
  ];
  const dep = 'github.com/valyala/bytebufferpool';
  for (const d of [join(src, 'github.com/valyala/fasttemplate'), stubs, bin, repo])
    mkdirSync(d, { recursive: true });
  writeFileSync(
    join(src, 'github.com/valyala/fasttemplate/go.mod'),
    `module github.com/valyala/fasttemplate\n\nrequire ${dep} v1.0.0\n`,
  );
  if (debianHasDep) {
    mkdirSync(join(src, dep), { recursive: true });
    writeFileSync(join(src, dep, 'pool.go'), 'package bytebufferpool\n');
  }
  writeFileSync(
    join(repo, 'go.mod'),
    'module github.com/labstack/echo/v4\n\nrequire github.com/valyala/fasttemplate v1.2.1\n',
  );
  writeFileSync(
    join(bin, 'go'),
    [
      '#!/bin/sh',
      'if [ "$1 $2" = "mod edit" ]; then shift 2; for a in "$@"; do echo "$a" >> go.mod; done; exit 0; fi',
      `if grep -q -- '-replace=${dep}=' go.mod; then exit 0; fi`,
      `echo "go: ${dep}@v1.0.0: module lookup disabled by GOPROXY=off"; exit 1`,
    ].join('\n'),
  );
  chmodSync(join(bin, 'go'), 0o755);
  const p = Bun.spawnSync(['sh', '-c', GO_OFFLINE_SCRIPT], {
    cwd: repo,
    env: { PATH: `${bin}:${process.env.PATH}`, FAUN_GOCODE: src, FAUN_GO_STUBS: stubs },
  });
  const target = /-replace=github\.com\/valyala\/bytebufferpool=(\S+)/.exec(
    readFileSync(join(repo, 'go.mod'), 'utf8'),
  )?.[1];
  return { rc: p.exitCode, out: p.stderr.toString(), target, src, stubs, dep };
}

test("faun-go-offline points a graph module Debian ships without a go.mod at Debian's copy, not an empty stand-in", () => {
  const r = goOffline(true);
  expect([r.rc, r.out]).toEqual([0, '']);
  expect(r.target).toBe(join(r.src, r.dep));
  expect(readFileSync(join(r.src, r.dep, 'go.mod'), 'utf8')).toBe(`module ${r.dep}\n`);
  expect(existsSync(join(r.stubs, r.dep))).toBe(false);
});

test('faun-go-offline gives a module Debian lacks an empty stand-in', () => {
  const r = goOffline(false);
  expect(r.rc).toBe(0);
  expect(r.target).toBe(join(r.stubs, r.dep));
  expect(readFileSync(join(r.stubs, r.dep, 'go.mod'), 'utf8')).toBe(`module ${r.dep}\n`);
});
