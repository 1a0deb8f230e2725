/**
 * Whether an image registry answers (I/O edge): decides the default of `--images` (pull published images
 * when their registry answers, else build). What image builds reach is `--build-network` (@faun/services).
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
