/**
 * Option resolution: flag > FAUN_<FLAG> environment variable > config file > default.
 * The config file is JSON: `--config FILE`, else `$FAUN_CONFIG`, else `./faun.config.json` when present.
 * Top-level keys apply to every command; a key named after a command (e.g. `"crawl": {…}`) applies to it
 * and wins over the top level. Keys may be kebab-case or camelCase.
 */
import { existsSync, readFileSync } from 'node:fs';
import { didYouMean, type OptionSpec, optionKey, UsageError } from '@faun/kit';

export type Source = 'flag' | 'env' | 'config' | 'default';

export function envName(option: string, command?: string): string {
  const up = (x: string) => x.replace(/-/g, '_').toUpperCase();
  return command ? `FAUN_${up(command)}_${up(option)}` : `FAUN_${up(option)}`;
}

export function loadConfig(explicit: string | undefined, env = process.env): Record<string, unknown> {
  const path =
    explicit ?? env.FAUN_CONFIG ?? (existsSync('faun.config.json') ? 'faun.config.json' : undefined);
  if (!path) return {};
  if (!existsSync(path))
    throw new UsageError(`config file not found: ${path}`, { hint: 'check --config / FAUN_CONFIG' });
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('the top level must be a JSON object');
    return parsed as Record<string, unknown>;
  } catch (e) {
    throw new UsageError(`config file ${path}: ${(e as Error).message}`, {
      hint: 'fix the JSON, or pass --config',
    });
  }
}

function configValue(config: Record<string, unknown>, command: string, name: string): unknown {
  const section = config[command];
  const keys = [name, optionKey(name)];
  if (section && typeof section === 'object' && !Array.isArray(section)) {
    for (const k of keys) if (k in section) return (section as Record<string, unknown>)[k];
  }
  for (const k of keys) if (k in config && typeof config[k] !== 'object') return config[k];
  for (const k of keys) if (k in config && Array.isArray(config[k])) return config[k];
  return undefined;
}

/** Converts a raw value (string from flag/env, or JSON from config) to the option's type. */
export function coerce(spec: OptionSpec, raw: unknown, origin: string): unknown {
  const where = `${origin} --${spec.name}`;
  switch (spec.type) {
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      const s = String(raw).toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(s)) return true;
      if (['0', 'false', 'no', 'off', ''].includes(s)) return false;
      throw new UsageError(`${where}: expected true or false, got '${raw}'`);
    }
    case 'number': {
      const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (String(raw).trim() === '' || !Number.isFinite(n))
        throw new UsageError(`${where}: expected a number, got '${raw}'`);
      return n;
    }
    case 'list': {
      const items = Array.isArray(raw) ? raw.map(String) : [String(raw)];
      const out = items
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter(Boolean);
      if (spec.choices) for (const v of out) checkChoice(spec, v, where);
      return out;
    }
    default: {
      const s = String(raw);
      if (spec.choices) checkChoice(spec, s, where);
      return s;
    }
  }
}

function checkChoice(spec: OptionSpec, v: string, where: string): void {
  if (!spec.choices?.includes(v))
    throw new UsageError(`${where}: unknown value '${v}'.${didYouMean(v, spec.choices ?? [])}`, {
      hint: `allowed: ${spec.choices?.join(', ')}`,
    });
}

export interface Resolved {
  values: Record<string, unknown>;
  sources: Record<string, Source>;
}

/** Resolves every option of a command from flags (already parsed), env, config and defaults. */
export function resolveOptions(
  command: string,
  specs: OptionSpec[],
  flags: Record<string, unknown>,
  config: Record<string, unknown>,
  env: Record<string, string | undefined> = process.env,
): Resolved {
  const values: Record<string, unknown> = {};
  const sources: Record<string, Source> = {};
  for (const spec of specs) {
    const key = optionKey(spec.name);
    let value: unknown;
    let source: Source = 'default';
    if (flags[key] !== undefined) {
      value = coerce(spec, flags[key], 'flag');
      source = 'flag';
    } else if (env[envName(spec.name, command)] !== undefined) {
      value = coerce(spec, env[envName(spec.name, command)], `env ${envName(spec.name, command)} for`);
      source = 'env';
    } else if (env[envName(spec.name)] !== undefined) {
      value = coerce(spec, env[envName(spec.name)], `env ${envName(spec.name)} for`);
      source = 'env';
    } else {
      const c = configValue(config, command, spec.name);
      if (c !== undefined) {
        value = coerce(spec, c, 'config key for');
        source = 'config';
      } else value = spec.default;
    }
    if (spec.required && (value === undefined || value === ''))
      throw new UsageError(`missing required option --${spec.name}`, {
        hint: `pass --${spec.name}, or set ${envName(spec.name)}`,
      });
    values[key] = value;
    sources[key] = source;
  }
  return { values, sources };
}
