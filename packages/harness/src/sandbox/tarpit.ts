/**
 * The tarpit: a sandbox started with no network gets one interface of its own whose only neighbour,
 * 10.255.255.1, never answers — so a connect to it hangs until the client's timeout (what tests of connect
 * timeouts expect) instead of failing at once. The interface is one end of a veth pair whose other end sits,
 * unaddressed, in a sink network namespace that forwards nothing: the sandbox reaches neither the host nor
 * any other sandbox, and every other address stays unreachable. Set up from the host (faun runs as root).
 */
import { FaunError, PrerequisiteError } from '@faun/kit';
import { run } from '@faun/services';
import { docker } from '../envs/docker-images.ts';

/** The address that never answers, and the sandbox's own address beside it. */
export const TARPIT_ADDRESS = '10.255.255.1';
const OWN_ADDRESS = '10.255.255.2/24';
/** A locally administered MAC no interface has: frames to it are sent and never answered. */
const NOBODY_MAC = '02:fa:0f:ff:ff:01';
export const SINK_NETNS = 'faun-tarpit-sink';

async function ip(args: string[], what: string): Promise<string> {
  const r = await run(args);
  if (r.code !== 0)
    throw new FaunError(`tarpit: ${what} failed: ${(r.stderr || r.stdout).trim()}`, {
      hint: 'the tarpit needs root and iproute2 (ip, nsenter) on the Docker host',
    });
  return r.stdout;
}

async function ensureSink(): Promise<void> {
  const list = await run(['ip', 'netns', 'list']);
  if (list.code !== 0)
    throw new PrerequisiteError(`tarpit: ip netns is not available: ${list.stderr.trim()}`, {
      hint: 'install iproute2 and run faun as root, or use a spec without the tarpit network',
    });
  if (list.stdout.split('\n').some((l) => l.split(' ')[0] === SINK_NETNS)) return;
  const r = await run(['ip', 'netns', 'add', SINK_NETNS]);
  // another run may have made it in the meantime
  if (r.code !== 0 && !/exists/i.test(r.stderr))
    throw new FaunError(`tarpit: ip netns add ${SINK_NETNS} failed: ${r.stderr.trim()}`);
}

/** Gives the running container `id` (started with `--network none`) its tarpit interface. */
export async function attachTarpit(id: string): Promise<void> {
  const pid = (await docker(['inspect', '--format', '{{.State.Pid}}', id])).out.trim();
  if (!/^[1-9]\d*$/.test(pid)) throw new FaunError(`tarpit: container ${id} is not running`);
  await ensureSink();
  const tag = id.slice(0, 8);
  const inner = `ftpi${tag}`;
  const outer = `ftpo${tag}`;
  await ip(['ip', 'link', 'add', outer, 'type', 'veth', 'peer', 'name', inner], 'veth');
  try {
    await ip(['ip', 'link', 'set', inner, 'netns', pid], 'moving the inner end');
    await ip(['ip', 'link', 'set', outer, 'netns', SINK_NETNS], 'moving the outer end');
  } catch (e) {
    await run(['ip', 'link', 'del', outer]);
    throw e;
  }
  await ip(['ip', '-n', SINK_NETNS, 'link', 'set', outer, 'up'], 'sink end up');
  const inNs = ['nsenter', '-t', pid, '-n', 'ip'];
  await ip([...inNs, 'link', 'set', inner, 'name', 'tarpit0'], 'rename');
  await ip([...inNs, 'addr', 'add', OWN_ADDRESS, 'dev', 'tarpit0'], 'address');
  await ip([...inNs, 'link', 'set', 'tarpit0', 'up'], 'link up');
  await ip(
    [...inNs, 'neigh', 'replace', TARPIT_ADDRESS, 'lladdr', NOBODY_MAC, 'dev', 'tarpit0', 'nud', 'permanent'],
    'neighbour',
  );
}
