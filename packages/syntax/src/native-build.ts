/**
 * Builds the native parser libraries (Node/Bun edge, imported lazily): for each grammar one shared library
 * of tree-sitter's C runtime (`lib.c` of the pinned `tree-sitter` npm package), the grammar's `parser.c` /
 * `scanner.c` (the same pinned npm packages whose `.wasm` files the WASM path loads) and `native/faun_tree.c`.
 * Compiled with the system C compiler at first use and cached under the user's cache folder, keyed by the
 * sources' package versions and faun_tree.c's content; a build is written to a temporary name and renamed,
 * so concurrent processes never load a partial file.
 *
 * Environment: `FAUN_CC` (compiler, default `cc`), `FAUN_SYNTAX_NATIVE_DIR` (cache folder, default
 * `$XDG_CACHE_HOME/faun/tree-sitter` or `~/.cache/faun/tree-sitter`), `FAUN_SYNTAX_PGO=0` (no profile-guided
 * build: the tuned one first; the same trees, ~4× less build time, slower parsing).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { withLock } from '@faun/kit/lock';
import type { SyntaxLang } from './languages.ts';

const require = createRequire(import.meta.url);

/** Grammar folder (inside its npm package), C sources and entry point of each grammar. */
const GRAMMAR_SOURCES: Readonly<
  Record<SyntaxLang, { pkg: string; dir: string; fn: string; scanner: boolean }>
> = {
  python: { pkg: 'tree-sitter-python', dir: 'src', fn: 'tree_sitter_python', scanner: true },
  java: { pkg: 'tree-sitter-java', dir: 'src', fn: 'tree_sitter_java', scanner: false },
  javascript: { pkg: 'tree-sitter-javascript', dir: 'src', fn: 'tree_sitter_javascript', scanner: true },
  typescript: {
    pkg: 'tree-sitter-typescript',
    dir: 'typescript/src',
    fn: 'tree_sitter_typescript',
    scanner: true,
  },
  tsx: { pkg: 'tree-sitter-typescript', dir: 'tsx/src', fn: 'tree_sitter_tsx', scanner: true },
  go: { pkg: 'tree-sitter-go', dir: 'src', fn: 'tree_sitter_go', scanner: false },
};

/** The C runtime's sources: the pinned node binding ships them. */
const RUNTIME_PKG = 'tree-sitter';

const GLUE = resolve(import.meta.dir, '../native/faun_tree.c');
/** Included ahead of the runtime's lib.c (a faster snprintf with the same results; see the file). */
const RUNTIME_PRELUDE = resolve(import.meta.dir, '../native/faun_snprintf.h');
/** The walk's node layout and entry points, shared by the runtime's unit and the glue (part of both keys). */
const WALK_HEADER = resolve(import.meta.dir, '../native/faun_walk.h');
/** The runtime's translation unit: lib.c and a one-pass S-expression printer (see the file). */
const RUNTIME_UNIT = resolve(import.meta.dir, '../native/faun_runtime.c');

/** The training run of the profile-guided build (see the file). */
const TRAINER = resolve(import.meta.dir, '../native/faun_train.c');

/** Why a native library could not be had (the WASM path is used then). */
export class NativeBuildError extends Error {
  override name = 'NativeBuildError';
}

function packageDir(pkg: string): string {
  try {
    return dirname(require.resolve(`${pkg}/package.json`));
  } catch (cause) {
    throw new NativeBuildError(`${pkg} not found — run \`bun install\` in the workspace root`, { cause });
  }
}

function packageVersion(dir: string): string {
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The cache folder for built libraries. */
export function nativeCacheDir(): string {
  const own = process.env.FAUN_SYNTAX_NATIVE_DIR;
  if (own) return own;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'faun', 'tree-sitter');
}

async function run(cmd: string[]): Promise<void> {
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn(cmd, { stdout: 'ignore', stderr: 'pipe', stdin: 'ignore' });
  } catch (cause) {
    throw new NativeBuildError(`cannot run ${cmd[0]} (no C compiler? set FAUN_CC)`, { cause });
  }
  const code = await proc.exited;
  if (code !== 0) {
    const err = await new Response(proc.stderr as ReadableStream).text();
    throw new NativeBuildError(`${cmd[0]} exited ${code}: ${err.slice(-1500)}`);
  }
}

const builds = new Map<SyntaxLang, Promise<string>>();

/** The path of `lang`'s native library, built first when not cached. Throws {@link NativeBuildError}. */
export function nativeLibrary(lang: SyntaxLang): Promise<string> {
  let p = builds.get(lang);
  if (!p) {
    p = build(lang);
    builds.set(lang, p);
    p.catch(() => builds.delete(lang));
  }
  return p;
}

interface BuildPaths {
  so: string;
  runtimeObj: string;
  lib: string;
  gDir: string;
  cc: string;
  flags: readonly string[];
}

/**
 * Compiler flags, best first: optimised for this processor and across the runtime and the grammar (parsing
 * is most of CodeBLEU's time; these make it ~15% faster), else plain `-O2` where the compiler takes no such
 * flags. `pgo` is `tuned` guided by a profile of a training parse (see {@link buildPgo}); a compiler that
 * cannot do that gets `tuned`. Libraries built for this processor are keyed by its model and features, so a
 * cache folder shared with other machines never hands them a library their processor cannot run.
 */
const FLAVOURS = {
  pgo: ['-O3', '-march=native', '-flto'],
  tuned: ['-O3', '-march=native', '-flto'],
  plain: ['-O2'],
} as const;
type Flavour = keyof typeof FLAVOURS;

/** What the profile-guided build adds to the compile and link commands: the training build, then the final one. */
const PROFILE_GENERATE = ['-fprofile-generate', '-fprofile-update=single'];
const PROFILE_USE = ['-fprofile-use', '-fprofile-partial-training', '-Wno-missing-profile'];

let cpuId: string | null = null;

/** The processor's model and features (Linux), else its model as Node reports it. */
function processorId(): string {
  if (cpuId !== null) return cpuId;
  let id = '';
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const field = (name: string) => info.match(new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm'))?.[1] ?? '';
    id = `${field('model name')}|${field('flags') || field('Features')}`;
  } catch {}
  if (!id) id = cpus()[0]?.model ?? 'unknown';
  cpuId = id;
  return id;
}

function buildPaths(lang: SyntaxLang, flavour: Flavour): BuildPaths {
  const g = GRAMMAR_SOURCES[lang];
  const rtDir = packageDir(RUNTIME_PKG);
  const gDir = packageDir(g.pkg);
  const lib = join(rtDir, 'vendor/tree-sitter/lib');
  const cc = process.env.FAUN_CC || 'cc';
  const flags = FLAVOURS[flavour];
  const machine = flavour === 'plain' ? '' : `|${processorId()}`;
  const guided = flavour === 'pgo' ? `|pgo:${Bun.hash(readFileSync(TRAINER, 'utf8')).toString(16)}` : '';
  const prelude = Bun.hash(
    readFileSync(RUNTIME_PRELUDE, 'utf8') +
      readFileSync(RUNTIME_UNIT, 'utf8') +
      readFileSync(WALK_HEADER, 'utf8'),
  ).toString(16);
  const rtKey = `${RUNTIME_PKG}@${packageVersion(rtDir)}-${process.platform}-${process.arch}-${cc}|${flags.join(' ')}${machine}|${prelude}${guided}`;
  const key = Bun.hash(`${rtKey}|${g.pkg}@${packageVersion(gDir)}|${g.dir}|`).toString(16);
  const glueKey = Bun.hash(readFileSync(GLUE, 'utf8') + readFileSync(WALK_HEADER, 'utf8')).toString(16);
  const dir = nativeCacheDir();
  return {
    so: join(dir, `${lang}-${key}-${glueKey}.so`),
    runtimeObj: join(dir, `runtime-${Bun.hash(rtKey).toString(16)}.o`),
    lib,
    gDir,
    cc,
    flags,
  };
}

/** The path of `lang`'s library when it is already built, else null (cheap: no compiler runs). */
export function cachedLibrary(lang: SyntaxLang): string | null {
  for (const flavour of Object.keys(FLAVOURS) as Flavour[]) {
    try {
      const { so } = buildPaths(lang, flavour);
      if (existsSync(so)) return so;
    } catch {
      return null;
    }
  }
  return null;
}

/** Builds `lang`'s library with the best flags the compiler takes. */
async function build(lang: SyntaxLang): Promise<string> {
  const flavours = process.env.FAUN_SYNTAX_PGO === '0' ? (['tuned'] as const) : (['pgo', 'tuned'] as const);
  for (const flavour of flavours) {
    try {
      return flavour === 'pgo' ? await buildPgo(lang) : await buildFlavour(lang, flavour);
    } catch (e) {
      if (!(e instanceof NativeBuildError)) throw e;
    }
  }
  return await buildFlavour(lang, 'plain');
}

/** The runtime's compile command (`extra` flags ahead of the output). */
function runtimeCommand(p: BuildPaths, extra: readonly string[], out: string): string[] {
  return [
    p.cc,
    ...p.flags,
    ...extra,
    '-fPIC',
    '-fvisibility=hidden',
    `-I${join(p.lib, 'include')}`,
    `-I${join(p.lib, 'src')}`,
    '-std=c11',
    '-D_POSIX_C_SOURCE=200112L',
    '-D_DEFAULT_SOURCE',
    '-include',
    RUNTIME_PRELUDE,
    '-c',
    RUNTIME_UNIT,
    '-o',
    out,
  ];
}

/** The grammar's sources (glue, parser, scanner) with the include flags they compile with. */
function grammarSources(lang: SyntaxLang, p: BuildPaths): { includes: string[]; files: string[] } {
  const g = GRAMMAR_SOURCES[lang];
  const src = join(p.gDir, g.dir);
  return {
    includes: [`-I${src}`, `-I${join(p.lib, 'include')}`, `-DFAUN_TS_LANGUAGE=${g.fn}`],
    files: [GLUE, join(src, 'parser.c'), ...(g.scanner ? [join(src, 'scanner.c')] : [])],
  };
}

async function buildFlavour(lang: SyntaxLang, flavour: Flavour): Promise<string> {
  const p = buildPaths(lang, flavour);
  const { so, runtimeObj, lib } = p;
  if (!existsSync(join(lib, 'src/lib.c'))) {
    throw new NativeBuildError(`${RUNTIME_PKG} ships no C sources (${lib}/src/lib.c)`);
  }
  mkdirSync(dirname(so), { recursive: true });
  if (existsSync(so)) return so;
  const tmp = (f: string) => `${f}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await withLock(`${runtimeObj}.lock`, async () => {
    if (existsSync(runtimeObj)) return;
    const t = tmp(runtimeObj);
    await run(runtimeCommand(p, [], t));
    renameSync(t, runtimeObj);
  });
  await withLock(`${so}.lock`, async () => {
    if (existsSync(so)) return;
    const { includes, files } = grammarSources(lang, p);
    const t = tmp(so);
    await run([p.cc, ...p.flags, '-fPIC', '-shared', ...includes, ...files, runtimeObj, '-o', t]);
    renameSync(t, so);
  });
  if (!existsSync(so)) throw new NativeBuildError(`${so} was not built`);
  return so;
}

/**
 * Texts the profile-guided build trains on, all from the pinned packages the build already reads (so the
 * same packages give the same profile): the grammars' `grammar.js` files and the runtime's C sources —
 * JavaScript and C-like code for every grammar, most of it foreign, which is what trains tree-sitter's
 * error recovery; the runtime's code is the same for every grammar and is most of the parse.
 */
function trainingFiles(p: BuildPaths): string[] {
  const files: string[] = [];
  const pkgs = [...new Set(Object.values(GRAMMAR_SOURCES).map((g) => g.pkg))].sort();
  for (const pkg of pkgs) {
    const dir = packageDir(pkg);
    for (const f of ['grammar.js', 'common/define-grammar.js']) {
      if (existsSync(join(dir, f))) files.push(join(dir, f));
    }
  }
  const src = join(p.lib, 'src');
  for (const f of readdirSync(src).sort()) if (/\.[ch]$/.test(f)) files.push(join(src, f));
  return files;
}

/**
 * The profile-guided build: every source compiled with -fprofile-generate in a private folder, a training
 * parse (`native/faun_train.c` over {@link trainingFiles}, written profiles checked), then compiled again
 * with -fprofile-use from the same paths (the profiles are found by object name). Only the code's layout and
 * inlining follow the profile, never what it computes: the trees are the same as the other flavours'.
 * Throws {@link NativeBuildError} when any step fails (the caller builds `tuned` then).
 */
async function buildPgo(lang: SyntaxLang): Promise<string> {
  const p = buildPaths(lang, 'pgo');
  const { so, lib } = p;
  if (!existsSync(join(lib, 'src/lib.c'))) {
    throw new NativeBuildError(`${RUNTIME_PKG} ships no C sources (${lib}/src/lib.c)`);
  }
  mkdirSync(dirname(so), { recursive: true });
  if (existsSync(so)) return so;
  await withLock(`${so}.lock`, async () => {
    if (existsSync(so)) return;
    const work = mkdtempSync(join(dirname(so), `pgo-${lang}-`));
    try {
      const out = join(work, 'lib.so');
      const compile = async (extra: readonly string[]) => {
        const rt = join(work, 'runtime.o');
        await run(runtimeCommand(p, extra, rt));
        const { includes, files } = grammarSources(lang, p);
        const objs = files.map((f, i) => join(work, `${i}-${f.split('/').pop()?.replace(/\.c$/, '')}.o`));
        for (const [i, f] of files.entries()) {
          await run([p.cc, ...p.flags, ...extra, '-fPIC', ...includes, '-c', f, '-o', objs[i] as string]);
        }
        await run([p.cc, ...p.flags, ...extra, '-fPIC', '-shared', ...objs, rt, '-o', out]);
      };
      await compile(PROFILE_GENERATE);
      const trainer = join(work, 'train');
      await run([p.cc, '-O2', TRAINER, '-o', trainer, '-ldl']);
      await run([trainer, out, ...trainingFiles(p)]);
      const profiles = readdirSync(work).filter((f) => f.endsWith('.gcda'));
      if (profiles.length === 0) throw new NativeBuildError('the training parse wrote no profile');
      for (const f of readdirSync(work)) if (!f.endsWith('.gcda')) rmSync(join(work, f));
      await compile(PROFILE_USE);
      renameSync(out, so);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
  if (!existsSync(so)) throw new NativeBuildError(`${so} was not built`);
  return so;
}

/**
 * `bun native-build.ts LANG...` builds the libraries (what `loadNative` starts in the background when they
 * are missing); exits 1 naming the first failure.
 */
if (import.meta.main) {
  const { isSyntaxLang } = await import('./languages.ts');
  const langs = process.argv.slice(2).filter(isSyntaxLang);
  try {
    for (const l of langs) console.log(await nativeLibrary(l));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
