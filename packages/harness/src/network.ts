/**
 * Whether registries answer (I/O edge): decides the defaults of `--images` (pull published images when their
 * registry answers, else build) and `--build-network` (host when a package registry answers, else none).
 */

/** True when `url` gives any HTTP response within `timeoutMs` (401 from a registry counts: it answers). */
export async function answers(url: string, timeoutMs = 2500): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    return true;
  } catch {
    return false;
  }
}

/** The registry API root an image namespace lives on (`host[:port]/ns` or Docker Hub). */
export function registryUrl(namespace: string): string {
  const first = namespace.split('/')[0] ?? '';
  if (namespace.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    const local = /^(localhost|127\.|\[::1\])/.test(first);
    return `${local ? 'http' : 'https'}://${first}/v2/`;
  }
  return 'https://registry-1.docker.io/v2/';
}

/** Package registries an environment build may use (any one answering makes `host` the default). */
export const PACKAGE_REGISTRIES = [
  'https://pypi.org/simple/',
  'https://registry.npmjs.org/',
  'https://proxy.golang.org/',
  'https://repo.maven.apache.org/maven2/',
  'https://index.crates.io/config.json',
];

export async function anyAnswers(urls: string[], timeoutMs?: number): Promise<string | null> {
  const hits = await Promise.all(urls.map(async (u) => ((await answers(u, timeoutMs)) ? u : null)));
  return hits.find((h) => h !== null) ?? null;
}
