/** Installs Debian packages that are missing (as root), waiting for apt's lock rather than failing. */
import { PrerequisiteError } from '@faun/kit';
import { run, runQuiet } from './proc.ts';

let updated = false;

export async function missingDebs(pkgs: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of pkgs) {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax
    const r = await run(['dpkg-query', '-W', '-f=${Status}', p]);
    if (r.code !== 0 || !r.stdout.includes('install ok installed')) out.push(p);
  }
  return out;
}

export async function ensureDebs(pkgs: string[], log: (l: string) => void = () => {}): Promise<void> {
  const missing = await missingDebs(pkgs);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0)
    throw new PrerequisiteError(`missing Debian packages: ${missing.join(' ')}`, {
      hint: `install them: sudo apt-get install -y ${missing.join(' ')}`,
    });
  log(`installing Debian packages: ${missing.join(' ')} (apt-get output is shown only when it fails)…`);
  const started = Date.now();
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args: string[]) =>
    runQuiet(['apt-get', '-o', 'DPkg::Lock::Timeout=900', ...args], { log, env });
  const install = () => apt(['install', '-y', '--no-install-recommends', ...missing]);
  let r = await install();
  if (r.code !== 0 && !updated) {
    updated = true;
    const u = await apt(['update']);
    if (u.code === 0) r = await install();
  }
  if (r.code !== 0)
    throw new PrerequisiteError(
      `apt-get install ${missing.join(' ')} failed (exit ${r.code}); its last lines:\n  ${r.tail.join('\n  ')}`,
      { hint: 'check the apt sources and network access to the Debian mirror' },
    );
  log(`installed ${missing.join(' ')} in ${Math.round((Date.now() - started) / 1000)} s`);
}
