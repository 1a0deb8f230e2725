/**
 * A scripted OpenAI-compatible server for tests: a real `Bun.serve` on 127.0.0.1 (random port).
 * Each request is matched to an item by the `[[key]]` marker in its last user message; `script`
 * decides the reply for the n-th request of that key (0-based). Every request is logged.
 */
import type { Server } from 'bun';

export type FakeReply =
  | { kind: 'ok'; text: string; delayMs?: number }
  | { kind: 'error'; status: number; retryAfter?: string; delayMs?: number }
  | { kind: 'hang'; ms: number };

export interface FakeRequest {
  key: string;
  attempt: number;
  at: number;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    temperature?: number;
    max_tokens?: number;
  };
}

export interface FakeServer {
  url: string;
  log: FakeRequest[];
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function startFakeOpenAi(script: (key: string, attempt: number) => FakeReply): FakeServer {
  const log: FakeRequest[] = [];
  const attempts = new Map<string, number>();
  const server: Server<undefined> = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions')
        return Response.json({ error: { message: `no route ${url.pathname}` } }, { status: 404 });
      const body = (await req.json()) as FakeRequest['body'];
      const user = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const key = /\[\[([^\]]+)\]\]/.exec(user)?.[1] ?? '?';
      const attempt = attempts.get(key) ?? 0;
      attempts.set(key, attempt + 1);
      log.push({ key, attempt, at: Date.now(), body });
      const r = script(key, attempt);
      if (r.kind === 'hang') {
        await sleep(r.ms);
        return Response.json({ error: { message: 'too late' } }, { status: 500 });
      }
      if (r.delayMs) await sleep(r.delayMs);
      if (r.kind === 'error')
        return Response.json(
          { error: { message: `scripted ${r.status}` } },
          { status: r.status, headers: r.retryAfter ? { 'retry-after': r.retryAfter } : {} },
        );
      return Response.json({
        id: `cmpl-${log.length}`,
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: r.text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
      });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    log,
    async stop() {
      await server.stop(true);
    },
  };
}
