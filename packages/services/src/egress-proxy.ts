/**
 * The egress proxy of image builds: an HTTP forward proxy (absolute-URI requests, as apt sends them) and
 * CONNECT tunnel (https, as npm uses it) that forwards only to allow-listed `host:port` pairs and refuses
 * everything else with 403. Runs alone (no workspace imports) inside faun's proxy container, started with
 * `FAUN_ALLOW=host:port,…` and optionally `FAUN_UPSTREAM=http://proxy:port` (the host's own proxy).
 * A forwarded request is one bodiless GET or HEAD, its head rewritten (origin-form target, `Host` = the target
 * actually connected to, `Connection: close`); nothing else the client sends reaches the server. A tunnel
 * opens only after the client's TLS ClientHello, whose server name must be the allowed host.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface Head {
  method: string;
  target: string;
  version: string;
  headers: [string, string][];
}

const MAX_HEAD = 64 * 1024;

/** Parses a request head (up to the blank line); null when it is not a well-formed HTTP/1 head. */
export function parseHead(text: string): Head | null {
  const lines = text.split('\r\n');
  const m = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/.exec(lines[0] ?? '');
  if (!m) return null;
  const headers: [string, string][] = [];
  for (const l of lines.slice(1)) {
    if (!l) continue;
    const i = l.indexOf(':');
    if (i <= 0) return null;
    headers.push([l.slice(0, i).trim(), l.slice(i + 1).trim()]);
  }
  return { method: m[1] ?? '', target: m[2] ?? '', version: m[3] ?? '', headers };
}

export type Decision =
  | { allow: true; host: string; port: number; head: string | null }
  | { allow: false; reason: string };

/**
 * Whether to forward a request, and what to send: for CONNECT nothing (the tunnel carries the client's
 * bytes), for a forward request the rewritten head. `allow` holds lowercase `host:port` pairs.
 */
export function decide(h: Head, allow: ReadonlySet<string>): Decision {
  let host: string;
  let port: number;
  let path = '';
  if (h.method === 'CONNECT') {
    const m = /^([A-Za-z0-9.-]+):(\d{1,5})$/.exec(h.target);
    if (!m) return { allow: false, reason: `CONNECT target '${h.target}' is not host:port` };
    host = (m[1] ?? '').toLowerCase();
    port = Number(m[2]);
  } else {
    let u: URL;
    try {
      u = new URL(h.target);
    } catch {
      return { allow: false, reason: `'${h.target}' is not an absolute http URL (this is a proxy)` };
    }
    if (u.protocol !== 'http:' || u.username || u.password)
      return { allow: false, reason: `only plain http URLs are forwarded, got '${h.target}'` };
    host = u.hostname.toLowerCase();
    port = Number(u.port || 80);
    path = `${u.pathname}${u.search}`;
  }
  if (!allow.has(`${host}:${port}`))
    return { allow: false, reason: `${host}:${port} is not an allowed package registry` };
  if (h.method === 'CONNECT') return { allow: true, host, port, head: null };
  const drop = new Set(['host', 'connection', 'proxy-connection', 'proxy-authorization', 'keep-alive']);
  const kept = h.headers.filter(([k]) => !drop.has(k.toLowerCase()));
  const hostHeader = port === 80 ? host : `${host}:${port}`;
  const lines = [`${h.method} ${path || '/'} ${h.version}`, `Host: ${hostHeader}`];
  for (const [k, v] of kept) lines.push(`${k}: ${v}`);
  lines.push('Connection: close', '', '');
  return { allow: true, host, port, head: lines.join('\r\n') };
}

function refuse(client: Socket, status: string, reason: string): void {
  const body = `faun build proxy: ${reason}\n`;
  client.end(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The server name of a TLS ClientHello at the start of `b`: `more` while the first record is incomplete,
 * null when it is not a ClientHello or names no server. A tunnel is opened only for a ClientHello that
 * names the host the CONNECT was allowed for (no other name fronted through an allowed address).
 */
export function clientHelloSni(b: Buffer): string | null | 'more' {
  if (b.length < 5) return 'more';
  if (b[0] !== 0x16) return null;
  const end = 5 + b.readUInt16BE(3);
  if (b.length < end) return end > 5 + 16_384 + 2048 ? null : 'more';
  let i = 5;
  if (b[i] !== 0x01) return null;
  i += 4 + 2 + 32; // handshake type and length, client version, random
  const skip = (lenBytes: 1 | 2) => {
    if (i + lenBytes > end) return false;
    i += lenBytes + (lenBytes === 1 ? (b[i] ?? 0) : b.readUInt16BE(i));
    return i <= end;
  };
  if (!skip(1) || !skip(2) || !skip(1)) return null; // session id, cipher suites, compression methods
  if (i + 2 > end) return null;
  const extEnd = Math.min(end, i + 2 + b.readUInt16BE(i));
  i += 2;
  while (i + 4 <= extEnd) {
    const type = b.readUInt16BE(i);
    const len = b.readUInt16BE(i + 2);
    i += 4;
    if (type === 0 && i + 5 <= extEnd && b[i + 2] === 0) {
      const n = b.readUInt16BE(i + 3);
      return b
        .subarray(i + 5, i + 5 + n)
        .toString('latin1')
        .toLowerCase();
    }
    i += len;
  }
  return null;
}

/** Reads from `c` until `done` says the buffered bytes are enough; resolves with them (null: closed). */
function readUntil(c: Socket, first: Buffer, done: (b: Buffer) => boolean): Promise<Buffer | null> {
  return new Promise((resolve) => {
    let buf = first;
    if (done(buf)) return resolve(buf);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!done(buf)) return;
      c.off('data', onData);
      c.pause();
      resolve(buf);
    };
    c.on('data', onData);
    c.once('close', () => resolve(null));
    c.resume();
  });
}

/** Opens a connection to `host:port`, through the host's proxy when there is one (its 200 consumed). */
async function open(host: string, port: number, upstream: URL | null): Promise<Socket> {
  const to = upstream ? { host: upstream.hostname, port: Number(upstream.port || 80) } : { host, port };
  const s = await new Promise<Socket>((resolve, reject) => {
    const c = connect(to, () => resolve(c));
    c.once('error', reject);
  });
  if (!upstream) return s;
  s.write(`CONNECT ${host}:${port} HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\n`);
  const head = await readUntil(s, Buffer.alloc(0), (b) => b.includes('\r\n\r\n'));
  if (!head || !/^HTTP\/1\.[01] 200/.test(head.toString('latin1'))) {
    s.destroy();
    throw new Error(`the host's proxy refused CONNECT ${host}:${port}`);
  }
  return s;
}

/** Serves one allowed request: a forwarded GET/HEAD (response only), or a tunnel after its ClientHello. */
async function forward(
  client: Socket,
  head: Head,
  d: Extract<Decision, { allow: true }>,
  rest: Buffer,
  log: (l: string) => void,
) {
  const reset = (e: Error) => {
    log(`upstream ${d.host}:${d.port} closed with an error: ${e.message}`);
    client.destroy();
  };
  if (head.method !== 'CONNECT') {
    // one bodiless request: nothing else the client sends reaches the server; the host's proxy, when there
    // is one, gets the absolute URL of the (checked) target
    const via = upstreamOf;
    const server = via
      ? await open(via.hostname, Number(via.port || 80), null)
      : await open(d.host, d.port, null);
    const h = d.head ?? '';
    server.write(via ? h.replace(/^(\S+) /, `$1 http://${d.host}:${d.port}`) : h);
    client.setTimeout(0);
    server.on('error', reset);
    server.pipe(client);
    client.on('close', () => server.destroy());
    return;
  }
  client.write('HTTP/1.1 200 Connection established\r\n\r\n');
  const hello = await readUntil(client, rest, (b) => clientHelloSni(b) !== 'more');
  if (!hello) return;
  const sni = clientHelloSni(hello);
  if (sni !== d.host) throw new Error(`TLS server name ${JSON.stringify(sni)} is not ${d.host}`);
  const server = await open(d.host, d.port, upstreamOf);
  client.setTimeout(0);
  server.on('error', reset);
  server.write(hello);
  server.pipe(client);
  client.pipe(server);
  client.resume();
  client.on('close', () => server.destroy());
  // the origin closing (registries close after a response) ends the tunnel only once the client got every
  // byte the proxy still holds for it: end() flushes them first, destroy() would drop them (a truncated body)
  server.on('close', () => {
    client.end();
    const t = setTimeout(() => client.destroy(), TUNNEL_LINGER_MS);
    client.once('close', () => clearTimeout(t));
  });
}

/** How long a tunnel whose origin closed waits for its client to take the rest and close. */
const TUNNEL_LINGER_MS = 120_000;

let upstreamOf: URL | null = null;

/** Serves one client connection. */
function serve(client: Socket, allow: ReadonlySet<string>, log: (l: string) => void) {
  client.setTimeout(30_000, () => client.destroy());
  client.on('error', () => client.destroy());
  void (async () => {
    const buf = await readUntil(
      client,
      Buffer.alloc(0),
      (b) => b.includes('\r\n\r\n') || b.length > MAX_HEAD,
    );
    if (!buf) return;
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return refuse(client, '431 Request Header Fields Too Large', 'head too large');
    const head = parseHead(buf.subarray(0, end).toString('latin1'));
    if (!head) return refuse(client, '400 Bad Request', 'not an HTTP/1 request');
    const d = decide(head, allow);
    if (!d.allow) {
      log(`deny ${head.method} ${head.target}: ${d.reason}`);
      return refuse(client, '403 Forbidden', d.reason);
    }
    if (head.method !== 'CONNECT' && head.method !== 'GET' && head.method !== 'HEAD') {
      log(`deny ${head.method} ${head.target}: only GET and HEAD are forwarded`);
      return refuse(client, '405 Method Not Allowed', 'only GET and HEAD are forwarded (and CONNECT)');
    }
    log(`allow ${head.method} ${d.host}:${d.port}`);
    try {
      await forward(client, head, d, buf.subarray(end + 4), log);
    } catch (e) {
      log(`error ${d.host}:${d.port}: ${(e as Error).message}`);
      if (head.method === 'CONNECT') client.destroy();
      else refuse(client, '502 Bad Gateway', `${d.host}:${d.port}: ${(e as Error).message}`);
    }
  })();
}

/** Starts the proxy on `port` (all interfaces of its container); resolves once it listens. */
export function startEgressProxy(
  allow: string[],
  o: { port?: number; host?: string; upstream?: string; log?: (l: string) => void } = {},
): Promise<{ port: number; close: () => void }> {
  const set = new Set(allow.map((a) => a.toLowerCase()));
  upstreamOf = o.upstream ? new URL(o.upstream) : null;
  const log = o.log ?? (() => {});
  const srv = createServer((c) => serve(c, set, log));
  return new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(o.port ?? 3128, o.host ?? '0.0.0.0', () => {
      const a = srv.address();
      resolve({ port: typeof a === 'object' && a ? a.port : 0, close: () => srv.close() });
    });
  });
}

if (import.meta.main) {
  // one broken connection never takes the proxy (and every build using it) down
  process.on('uncaughtException', (e) => console.log(`error: ${e.message}`));
  const allow = (process.env.FAUN_ALLOW ?? '').split(',').filter(Boolean);
  const { port } = await startEgressProxy(allow, {
    port: Number(process.env.FAUN_PROXY_PORT ?? 3128),
    upstream: process.env.FAUN_UPSTREAM || undefined,
    log: (l) => console.log(l),
  });
  console.log(`faun build proxy on :${port}, allowing ${allow.join(' ')}`);
}
