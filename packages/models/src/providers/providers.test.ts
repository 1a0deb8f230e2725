import { describe, expect, test } from 'bun:test';
import type { QaItem } from '@faun/schema';
import { costOf } from '../cost.ts';
import { cleanQaAnswer } from '../parse/qa.ts';
import { createProvider, parseModelSpec } from '../registry.ts';
import { normalizeBaseUrl, resolveEndpoint } from './openai.ts';
import { replayModelName } from './replay.ts';

const signal = new AbortController().signal;

describe('registry', () => {
  test('parses provider:name and suggests near misses', async () => {
    expect(parseModelSpec('openai:gpt-4o')).toEqual({ provider: 'openai', name: 'gpt-4o' });
    expect(parseModelSpec('vllm:Qwen/Qwen2.5-7B:latest')).toEqual({
      provider: 'vllm',
      name: 'Qwen/Qwen2.5-7B:latest',
    });
    expect(parseModelSpec('bm25')).toEqual({ provider: 'bm25', name: '' });
    await expect(createProvider('opnai:gpt-4o')).rejects.toThrow("Did you mean 'openai'");
    await expect(createProvider('baseline:titel')).rejects.toThrow("Did you mean 'title'");
  });

  test('baselines and the echo double are deterministic and offline', async () => {
    const item = { task: 'qa', id: 'x', issue_title: 'Crash on start' } as QaItem;
    const title = await createProvider('baseline:title');
    expect((await title.generate({ messages: [], item }, { signal })).text).toBe('Crash on start');
    const noEdit = await createProvider('baseline:no-edit');
    expect((await noEdit.generate({ messages: [], item }, { signal })).text).toBe('');
    // The echo test double is not a shipped provider (checked in a fresh process, since this one may
    // already have loaded @faun/models/testing, which registers it).
    const registry = new URL('../registry.ts', import.meta.url).pathname;
    const fresh = Bun.spawnSync([
      'bun',
      '-e',
      `const r = await import(${JSON.stringify(registry)}); console.log(r.providerNames().includes('echo'))`,
    ]);
    expect(fresh.stdout.toString().trim()).toBe('false');
    await import('../../testing/doubles.ts');
    const echo = await createProvider('echo');
    const r = await echo.generate({ messages: [{ role: 'user', content: 'hi' }] }, { signal });
    expect(r.text).toBe('hi');
    expect((await (await createProvider('echo:yes')).generate({ messages: [] }, { signal })).text).toBe(
      'yes',
    );
  });
});

describe('OpenAI-compatible endpoint resolution', () => {
  test('a bare host gets /v1; paths are kept', () => {
    expect(normalizeBaseUrl('http://127.0.0.1:8000')).toBe('http://127.0.0.1:8000/v1');
    expect(normalizeBaseUrl('http://h:1/')).toBe('http://h:1/v1');
    expect(normalizeBaseUrl('https://g.example/v1beta/openai/')).toBe('https://g.example/v1beta/openai');
    expect(() => normalizeBaseUrl('not a url')).toThrow('invalid base URL');
  });

  test('flag > <SERVICE>_BASE_URL > known default > OPENAI_BASE_URL', () => {
    const env = {
      OPENAI_BASE_URL: 'http://o:1',
      OPENAI_API_KEY: 'sk-o',
      GROQ_API_KEY: 'gk',
      MYLAB_BASE_URL: 'http://lab:9',
    };
    expect(resolveEndpoint({ service: 'openai', model: 'm', env })).toEqual({
      baseUrl: 'http://o:1/v1',
      apiKey: 'sk-o',
    });
    expect(resolveEndpoint({ service: 'openai', model: 'm', env, baseUrl: 'http://f:2' }).baseUrl).toBe(
      'http://f:2/v1',
    );
    expect(resolveEndpoint({ service: 'groq', model: 'm', env })).toEqual({
      baseUrl: 'https://api.groq.com/openai/v1',
      apiKey: 'gk',
    });
    // Named services never receive the OpenAI key.
    expect(resolveEndpoint({ service: 'mylab', model: 'm', env })).toEqual({
      baseUrl: 'http://lab:9/v1',
      apiKey: null,
    });
    expect(() => resolveEndpoint({ service: 'nolab', model: 'm', env: {} })).toThrow(
      "no base URL for 'nolab'",
    );
  });

  test('a hosted service without a key fails before any request', async () => {
    await expect(createProvider('gemini:gemini-2.0-flash', { env: {} })).rejects.toThrow('GEMINI_API_KEY');
  });
});

describe('replay model name', () => {
  test("the replayed predictions' one model, else the file base name — never the path", () => {
    const m = (model: string) => ({ model });
    expect(replayModelName('/tmp/a/b/x.jsonl', [m('openai:gpt-4o'), m('openai:gpt-4o')])).toBe(
      'openai:gpt-4o',
    );
    expect(replayModelName('/tmp/a/b/x.jsonl', [m('openai:gpt-4o'), m('groq:llama')])).toBe('replay:x.jsonl');
    expect(replayModelName('/tmp/a/b/x.jsonl', [m(''), m(' ')])).toBe('replay:x.jsonl');
    expect(replayModelName('rel/y.jsonl', [])).toBe('replay:y.jsonl');
    // An older replay recorded its path: only the base name is kept.
    expect(replayModelName('z.jsonl', [m('replay:/home/me/runs/gpt.jsonl')])).toBe('replay:gpt.jsonl');
  });
});

describe('cost and QA cleanup', () => {
  test('cost from a price table (USD per million tokens)', () => {
    const table = { 'gpt-4o': { input: 2.5, output: 10, cached_input: 1.25 } };
    const usage = { promptTokens: 1000, completionTokens: 200, cachedTokens: 400 };
    // 600·2.5 + 400·1.25 + 200·10 = 1500 + 500 + 2000 = 4000 per million → 0.004
    expect(costOf(table, 'openai:gpt-4o', usage)).toBe(0.004);
    expect(costOf(table, 'openai:other', usage)).toBeNull();
    expect(costOf(null, 'openai:gpt-4o', usage)).toBeNull();
  });

  test('cleanQaAnswer drops labels and an outer markdown fence, keeps code', () => {
    expect(cleanQaAnswer('Answer: use `x`\r\n')).toBe('use `x`');
    expect(cleanQaAnswer('```markdown\nTry this.\n```')).toBe('Try this.');
    expect(cleanQaAnswer('Try:\n```py\nx = 1\n```')).toBe('Try:\n```py\nx = 1\n```');
  });
});
