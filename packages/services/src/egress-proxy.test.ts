import { afterAll, beforeAll, expect, test } from 'bun:test';
import { connect, createServer, type Server } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { clientHelloSni, decide, parseHead, startEgressProxy } from './egress-proxy.ts';

const allow = new Set(['deb.debian.org:80', 'registry.npmjs.org:443']);
const head = (s: string) => {
  const h = parseHead(s);
  if (!h) throw new Error(`unparsed: ${s}`);
  return h;
};

test('decide: forward requests to allowed hosts are rewritten; Host is the target actually connected to', () => {
  const d = decide(
    head(
      'GET http://deb.debian.org/debian/dists/bookworm/InRelease HTTP/1.1\r\nHost: evil.example\r\nProxy-Connection: keep-alive\r\nUser-Agent: apt',
    ),
    allow,
  );
  expect(d).toEqual({
    allow: true,
    host: 'deb.debian.org',
    port: 80,
    head: 'GET /debian/dists/bookworm/InRelease HTTP/1.1\r\nHost: deb.debian.org\r\nUser-Agent: apt\r\nConnection: close\r\n\r\n',
  });
});

test('decide: CONNECT to an allowed host:port only; everything else refused with the reason', () => {
  expect(decide(head('CONNECT registry.npmjs.org:443 HTTP/1.1\r\nHost: x'), allow)).toEqual({
    allow: true,
    host: 'registry.npmjs.org',
    port: 443,
    head: null,
  });
  const no = (s: string) => {
    const d = decide(head(s), allow);
    return d.allow ? 'allowed' : d.reason;
  };
  expect(no('CONNECT registry.npmjs.org:22 HTTP/1.1')).toBe(
    'registry.npmjs.org:22 is not an allowed package registry',
  );
  expect(no('CONNECT 127.0.0.1:6379 HTTP/1.1')).toBe('127.0.0.1:6379 is not an allowed package registry');
  expect(no('CONNECT 172.17.0.1:5432 HTTP/1.1')).toBe('172.17.0.1:5432 is not an allowed package registry');
  expect(no('GET http://example.com/ HTTP/1.1')).toBe('example.com:80 is not an allowed package registry');
  expect(no('GET http://deb.debian.org:8080/ HTTP/1.1')).toMatch(/deb.debian.org:8080 is not an allowed/);
  expect(no('GET https://deb.debian.org/ HTTP/1.1')).toMatch(/only plain http URLs/);
  expect(no('GET http://u:p@deb.debian.org/ HTTP/1.1')).toMatch(/only plain http URLs/);
  expect(no('GET /debian/ HTTP/1.1')).toMatch(/not an absolute http URL/);
  expect(no('CONNECT deb.debian.org HTTP/1.1')).toMatch(/not host:port/);
  expect(parseHead('garbage')).toBeNull();
});

// A real proxy on loopback in front of a real origin on loopback (allowed by its port).
let origin: Server;
let originPort = 0;
const seen: string[] = [];
let proxy: { port: number; close: () => void };

beforeAll(async () => {
  origin = createServer((s) => {
    s.once('data', (d) => {
      seen.push(d.toString('latin1'));
      s.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
    });
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
  const a = origin.address();
  originPort = typeof a === 'object' && a ? a.port : 0;
  proxy = await startEgressProxy([`127.0.0.1:${originPort}`], { port: 0, host: '127.0.0.1' });
});
afterAll(() => {
  proxy.close();
  origin.close();
});

function exchange(send: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = connect({ host: '127.0.0.1', port: proxy.port }, () => c.write(send));
    let got = '';
    c.on('data', (d) => {
      got += d.toString('latin1');
    });
    c.on('end', () => resolve(got));
    c.on('error', reject);
    setTimeout(() => {
      c.destroy();
      resolve(got);
    }, 3000);
  });
}

test('the proxy: an allowed GET forwarded (Host rewritten), other hosts 403, bodies 405, tunnels only for the allowed TLS name', async () => {
  const ok = await exchange(`GET http://127.0.0.1:${originPort}/x HTTP/1.1\r\nHost: evil.example\r\n\r\n`);
  expect(ok).toStartWith('HTTP/1.1 200 OK');
  expect(seen.at(-1)).toStartWith(`GET /x HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\n`);
  const before = seen.length;
  const denied = await exchange(`GET http://127.0.0.1:${originPort + 1}/x HTTP/1.1\r\n\r\n`);
  expect(denied).toStartWith('HTTP/1.1 403 Forbidden');
  expect(denied).toContain(`127.0.0.1:${originPort + 1} is not an allowed package registry`);
  const post = await exchange(`POST http://127.0.0.1:${originPort}/x HTTP/1.1\r\nContent-Length: 1\r\n\r\nx`);
  expect(post).toStartWith('HTTP/1.1 405');
  // a tunnel opens after a ClientHello naming the allowed host; its bytes reach the origin as sent
  const ok2 = hello('127.0.0.1');
  const tunnel = await exchange(`CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\n\r\n${ok2.toString('latin1')}`);
  expect(tunnel).toStartWith('HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 200 OK');
  expect(seen.at(-1)).toBe(ok2.toString('latin1'));
  // another name fronted through the allowed address: the tunnel closes, the origin never sees it
  const fronted = await exchange(
    `CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\n\r\n${hello('evil.example').toString('latin1')}`,
  );
  expect(fronted).toBe('HTTP/1.1 200 Connection established\r\n\r\n');
  const plain = await exchange(`CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\n\r\nGET /t HTTP/1.1\r\n\r\n`);
  expect(plain).toBe('HTTP/1.1 200 Connection established\r\n\r\n');
  expect(seen.length).toBe(before + 1);
});

/** A minimal TLS 1.2 ClientHello naming `name` (SNI), as a record. */
function hello(name: string): Buffer {
  const sniName = Buffer.from(name, 'latin1');
  const sni = Buffer.concat([
    u16(0),
    u16(sniName.length + 5),
    u16(sniName.length + 3),
    Buffer.from([0]),
    u16(sniName.length),
    sniName,
  ]);
  const body = Buffer.concat([
    Buffer.from([3, 3]),
    Buffer.alloc(32, 7),
    Buffer.from([0]), // session id
    u16(2),
    Buffer.from([0x13, 0x01]), // one cipher suite
    Buffer.from([1, 0]), // compression: null
    u16(sni.length),
    sni,
  ]);
  const hs = Buffer.concat([Buffer.from([1, 0, body.length >> 8, body.length & 255]), body]);
  return Buffer.concat([Buffer.from([0x16, 3, 1]), u16(hs.length), hs]);
}
function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

test("clientHelloSni reads the server name of a real TLS client's ClientHello, and waits for the whole record", async () => {
  const got = await new Promise<Buffer>((resolve) => {
    const srv = createServer((s) => {
      let b = Buffer.alloc(0);
      s.on('data', (d) => {
        b = Buffer.concat([b, d as Buffer]);
        if (clientHelloSni(b) !== 'more') {
          s.destroy();
          srv.close();
          resolve(b);
        }
      });
    });
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      tlsConnect({ host: '127.0.0.1', port, servername: 'registry.npmjs.org' }).on('error', () => {});
    });
  });
  expect(clientHelloSni(got)).toBe('registry.npmjs.org');
  expect(clientHelloSni(got.subarray(0, 40))).toBe('more');
  expect(clientHelloSni(Buffer.from('GET / HTTP/1.1\r\n'))).toBeNull();
  expect(clientHelloSni(hello('Deb.Debian.org'))).toBe('deb.debian.org');
});

test('a tunnel whose origin closes while the proxy still holds bytes for the client delivers them all', async () => {
  // npm 9 reads each response at its own pace; the registry closes its side right after the body, while
  // the proxy still buffers the tail for the client (measured: 84 kB pending when the origin closed)
  const size = 4 * 1024 * 1024;
  const big = createServer((s) => {
    s.once('data', () => s.end(Buffer.alloc(size, 0x62)));
  });
  await new Promise<void>((r) => big.listen(0, '127.0.0.1', () => r()));
  const a = big.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  const p = await startEgressProxy([`127.0.0.1:${port}`], { port: 0, host: '127.0.0.1' });
  try {
    const got = await new Promise<number>((resolve, reject) => {
      const c = connect({ host: '127.0.0.1', port: p.port }, () =>
        c.write(
          Buffer.concat([Buffer.from(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`), hello('127.0.0.1')]),
        ),
      );
      let n = 0;
      let first = true;
      // a client slower than the origin: a long stop at the start, then a short pause after every chunk
      c.on('data', (d) => {
        n += d.length;
        c.pause();
        setTimeout(() => c.resume(), first ? 1500 : 1);
        first = false;
      });
      c.on('close', () => resolve(n));
      c.on('error', reject);
    });
    const established = 'HTTP/1.1 200 Connection established\r\n\r\n'.length;
    expect(got - established).toBe(size);
  } finally {
    p.close();
    big.close();
  }
}, 20_000);
