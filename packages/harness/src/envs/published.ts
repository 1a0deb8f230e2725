/**
 * Published per-instance images (pure): where they come from and what runs in them — a row's own script, or
 * the image's own `/home/fix-run.sh`. Each benchmark names its images and makes the plan (benchmarks/).
 */

/** `build`: faun builds every environment; `pull`: published images; `auto`: pull when a registry answers. */
export type ImagesMode = 'auto' | 'pull' | 'build';

export interface ImageNamespaces {
  /** SWE-bench's namespace (default `swebench`, i.e. Docker Hub). */
  swebench: string;
  /** Multi-SWE-bench's (default `mswebench`). */
  msb: string;
}
export const DEFAULT_NAMESPACES: ImageNamespaces = { swebench: 'swebench', msb: 'mswebench' };

/** How a row runs in a published image (each benchmark's own: benchmarks/). */
export interface PublishedPlan {
  image: string;
  /** Where commands run in the container. */
  workdir: string;
  /**
   * The row's own test script, as its benchmark runs it (a row's command: only with `--trust-rows`), or
   * null: the image's own fix run (the fix patch at /home/fix.patch, then `bash /home/fix-run.sh`).
   */
  script: string | null;
  /** The runtime's exit code is graded (false where the benchmark does not read it). */
  readsExitCode: boolean;
}

/** The fix stage of an image that brings its own run: the fix patch at /home/fix.patch, then `bash /home/fix-run.sh`. */
export const MSB_FIX_PATCH = '/home/fix.patch';
export const MSB_FIX_RUN = 'bash /home/fix-run.sh';
