/** Installs Debian packages that are missing (as root), waiting for apt's lock rather than failing. */
import { PrerequisiteError } from '@faun/kit';
import { run, runLogged } from './proc.ts';

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
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    runLogged(
      ['apt-get', '-o', 'DPkg::Lock::Timeout=900', 'install', '-y', '--no-install-recommends', ...missing],
      log,
      env,
    );
  let code = await install();
  if (code !== 0 && !updated) {
    updated = true;
    await runLogged(['apt-get', '-o', 'DPkg::Lock::Timeout=900', 'update'], log, env);
    code = await install();
  }
  if (code !== 0)
    throw new PrerequisiteError(`apt-get install ${missing.join(' ')} failed (exit ${code})`, {
      hint: 'check the apt sources and network access to the Debian mirror',
    });
}
