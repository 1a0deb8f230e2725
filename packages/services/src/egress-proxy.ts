/**
 * The egress proxy of image builds: an HTTP forward proxy (absolute-URI requests, as apt sends them) and
 * CONNECT tunnel (https, as npm uses it) that forwards only to allow-listed `host:port` pairs and refuses
 * everything else with 403. Runs alone (no workspace imports) inside faun's proxy container, started with
 * `FAUN_ALLOW=host:port,…` and optionally `FAUN_UPSTREAM=http://proxy:port` (the host's own proxy).
 * The request head is rewritten: origin-form target, `Host` = the target actually connected to,
 * `Connection: close` (one request per connection, so a second request cannot name another host).
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

/** Serves one client connection. */
function serve(client: Socket, allow: ReadonlySet<string>, upstream: URL | null, log: (l: string) => void) {
  let buf = Buffer.alloc(0);
  client.setTimeout(30_000, () => client.destroy());
  const onData = (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) {
      if (buf.length > MAX_HEAD) refuse(client, '431 Request Header Fields Too Large', 'head too large');
      return;
    }
    client.off('data', onData);
    client.pause();
    client.setTimeout(0);
    const head = parseHead(buf.subarray(0, end).toString('latin1'));
    const rest = buf.subarray(end + 4);
    if (!head) return refuse(client, '400 Bad Request', 'not an HTTP/1 request');
    const d = decide(head, allow);
    if (!d.allow) {
      log(`deny ${head.method} ${head.target}: ${d.reason}`);
      return refuse(client, '403 Forbidden', d.reason);
    }
    log(`allow ${head.method} ${d.host}:${d.port}`);
    const to = upstream
      ? { host: upstream.hostname, port: Number(upstream.port || 80) }
      : { host: d.host, port: d.port };
    const server = connect(to, () => {
      if (head.method === 'CONNECT') {
        if (upstream)
          server.write(`CONNECT ${d.host}:${d.port} HTTP/1.1\r\nHost: ${d.host}:${d.port}\r\n\r\n`);
        else client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      } else {
        // the host's proxy gets the absolute URL of the (checked) target; an origin server the path
        const h = d.head ?? '';
        server.write(upstream ? h.replace(/^(\S+) /, `$1 http://${d.host}:${d.port}`) : h);
      }
      if (rest.length) server.write(rest);
      server.pipe(client);
      client.pipe(server);
      client.resume();
    });
    server.on('error', (e) => {
      log(`error ${d.host}:${d.port}: ${e.message}`);
      if (!client.destroyed) refuse(client, '502 Bad Gateway', `${d.host}:${d.port}: ${e.message}`);
    });
    client.on('error', () => server.destroy());
    client.on('close', () => server.destroy());
  };
  client.on('data', onData);
  client.on('error', () => client.destroy());
}

/** Starts the proxy on `port` (all interfaces of its container); resolves once it listens. */
export function startEgressProxy(
  allow: string[],
  o: { port?: number; host?: string; upstream?: string; log?: (l: string) => void } = {},
): Promise<{ port: number; close: () => void }> {
  const set = new Set(allow.map((a) => a.toLowerCase()));
  const upstream = o.upstream ? new URL(o.upstream) : null;
  const log = o.log ?? (() => {});
  const srv = createServer((c) => serve(c, set, upstream, log));
  return new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(o.port ?? 3128, o.host ?? '0.0.0.0', () => {
      const a = srv.address();
      resolve({ port: typeof a === 'object' && a ? a.port : 0, close: () => srv.close() });
    });
  });
}

if (import.meta.main) {
  const allow = (process.env.FAUN_ALLOW ?? '').split(',').filter(Boolean);
  const { port } = await startEgressProxy(allow, {
    port: Number(process.env.FAUN_PROXY_PORT ?? 3128),
    upstream: process.env.FAUN_UPSTREAM || undefined,
    log: (l) => console.log(l),
  });
  console.log(`faun build proxy on :${port}, allowing ${allow.join(' ')}`);
}
