/**
 * Published per-instance images (pure): their names as SWE-bench and Multi-SWE-bench publish them, and what
 * runs in them — the row's `eval_script` (SWE-bench v5, with the test command's exit code recorded as
 * SWE-bench records it) or the image's own `/home/fix-run.sh` (Multi-SWE-bench).
 */
import type { ExecutionInstance } from '@faun/schema';
import { SWE_MARKERS } from '../grading/grading-swebench.ts';

/** `build`: faun builds every environment; `pull`: published images; `auto`: pull when a registry answers. */
export type ImagesMode = 'auto' | 'pull' | 'build';

export interface ImageNamespaces {
  /** SWE-bench's namespace (default `swebench`, i.e. Docker Hub). */
  swebench: string;
  /** Multi-SWE-bench's (default `mswebench`). */
  msb: string;
}
export const DEFAULT_NAMESPACES: ImageNamespaces = { swebench: 'swebench', msb: 'mswebench' };

/** SWE-bench's name: `<ns>/sweb.eval.x86_64.<id lowercased>:latest`, every `__` written `_1776_`. */
export function swebenchImageName(namespace: string, instanceId: string, arch = 'x86_64'): string {
  return `${namespace}/sweb.eval.${arch}.${instanceId}:latest`.toLowerCase().replaceAll('__', '_1776_');
}

/** Multi-SWE-bench's name: `<ns>/<org>_m_<repo>:pr-<N>` (name lowercased). */
export function msbImageName(namespace: string, org: string, repo: string, number: string | number): string {
  return `${`${namespace}/${org}_m_${repo}`.toLowerCase()}:pr-${number}`;
}

/** How a row runs in a published image. */
export interface PublishedPlan {
  kind: 'swebench' | 'multi-swe-bench';
  image: string;
  /** Where commands run in the container. */
  workdir: string;
}

/** The published image a row runs in, or null when it needs faun's own environment. */
export function publishedPlan(inst: ExecutionInstance, ns: ImageNamespaces): PublishedPlan | null {
  if (inst.source === 'multi-swe-bench') {
    const m = /^([^/]+)\/(.+):pr-(\d+)$/.exec(inst.instance_id);
    if (!m) return null;
    return {
      kind: 'multi-swe-bench',
      image: inst.image ?? msbImageName(ns.msb, m[1]!, m[2]!, m[3]!),
      workdir: '/home',
    };
  }
  if (!inst.eval_script) return null;
  return {
    kind: 'swebench',
    image: inst.image ?? swebenchImageName(ns.swebench, inst.instance_id),
    workdir: '/testbed',
  };
}

/**
 * The eval script SWE-bench runs for a v5 row: the row's script without its shebang and `set` line, the
 * test command's `$?` kept just before the end marker and echoed after it, under `#!/bin/bash` +
 * `set -uxo pipefail`.
 */
export function swebenchEvalScript(evalScript: string): string {
  const lines = evalScript
    .trim()
    .split('\n')
    .filter((l) => l !== '#!/bin/bash' && l !== 'set -uxo pipefail');
  const i = lines.findIndex((l) => l.includes(SWE_MARKERS.end));
  const VAR = 'SWEBENCH_TEST_EXIT_CODE';
  const body =
    i < 0
      ? lines
      : [
          ...lines.slice(0, i),
          `${VAR}=$?`,
          lines[i]!,
          `echo "${SWE_MARKERS.exitCode}: $${VAR}"`,
          ...lines.slice(i + 1),
        ];
  return `${['#!/bin/bash', 'set -uxo pipefail', ...body].join('\n')}\n`;
}

/** Multi-SWE-bench's fix stage in its image: the fix patch at /home/fix.patch, then `bash /home/fix-run.sh`. */
export const MSB_FIX_PATCH = '/home/fix.patch';
export const MSB_FIX_RUN = 'bash /home/fix-run.sh';
