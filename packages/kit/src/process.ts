/** A child process's output, read to the end. */

/** What a finished child process printed and its exit code. */
export interface ProcessOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Reads both piped streams of `p` while it runs (so neither pipe fills) and waits for its exit code. */
export async function outputOf(p: {
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  exited: Promise<number>;
}): Promise<ProcessOutput> {
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { code, stdout, stderr };
}
