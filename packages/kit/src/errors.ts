/**
 * faun's error hierarchy. Every error says what went wrong and what to do; the CLI prints `message`
 * (plus `hint`) without a stack trace for these, and maps `exitCode` to the process exit code.
 */
export class FaunError extends Error {
  /** 1 = the run failed, 2 = usage error. */
  readonly exitCode: number;
  readonly hint: string | undefined;
  constructor(message: string, opts: { hint?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.hint = opts.hint;
    this.exitCode = opts.exitCode ?? 1;
  }
}

/** Bad flags, bad arguments, bad config: exit code 2. */
export class UsageError extends FaunError {
  constructor(message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super(message, { ...opts, exitCode: 2 });
  }
}

/** Bad input data (a file's content): names the file/line/field. Exit code 1. */
export class InputError extends FaunError {}

/** The environment is missing something the user can install or start (Docker, Redis…). */
export class PrerequisiteError extends FaunError {}

/** The run was interrupted (Ctrl+C); carries the command that resumes it. */
export class CancelledError extends FaunError {
  constructor(readonly resumeCommand: string | null) {
    super('interrupted', { exitCode: 130 });
  }
}
