/** The host's address on Docker's default bridge, for tests that check a sandbox cannot reach it. */
import { networkInterfaces } from 'node:os';
import { docker } from '../src/envs/docker-images.ts';

/**
 * The default bridge's IPv4 gateway: from Docker's IPAM record when it has one, else the address of the
 * bridge's interface (a freshly started Docker 20.10 records the subnet only). Throws when neither is known.
 */
export async function bridgeGateway(): Promise<string> {
  const fmt =
    '{{range .IPAM.Config}}{{.Gateway}} {{end}}|{{index .Options "com.docker.network.bridge.name"}}';
  const { out } = await docker(['network', 'inspect', 'bridge', '--format', fmt]);
  const [gateways = '', name = ''] = out.trim().split('|');
  const ipv4 = /^\d+\.\d+\.\d+\.\d+$/;
  const recorded = gateways.split(/\s+/).find((a) => ipv4.test(a));
  if (recorded) return recorded;
  const own = (networkInterfaces()[name.trim() || 'docker0'] ?? []).find((a) => a.family === 'IPv4');
  if (own) return own.address;
  throw new Error(`Docker's default bridge has no IPv4 gateway (docker network inspect bridge: ${out})`);
}
