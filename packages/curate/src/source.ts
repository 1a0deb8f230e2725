/**
 * Where repository trees and file contents come from: the GitHub API (git trees + contents) or a local
 * clone (`git ls-tree` / `git show`). Both implement {@link RepoSource}; {@link routeSources} picks a
 * local clone when one was given for the repository and the API otherwise.
 * @module
 */
import { FaunError, type RepoDirs, repoDirOf, UsageError } from '@faun/kit';

/** Trees and files of repositories at given commits. */
export interface RepoSource {
  /** Every file path (blobs only) of `repo` at `commit`. */
  tree(repo: string, commit: string): Promise<string[]>;
  /** The file's text at `commit`, or null when the path does not exist there. */
  file(repo: string, commit: string, path: string): Promise<string | null>;
}

/** Reads trees and files from local clones: `repo → directory`. */
export class LocalGitSource implements RepoSource {
  constructor(private readonly dirs: RepoDirs) {}

  private dir(repo: string): string {
    const d = repoDirOf(this.dirs, repo);
    if (!d)
      throw new UsageError(`no local clone given for ${repo}`, { hint: `pass --repo-dir ${repo}=PATH` });
    return d;
  }

  has(repo: string): boolean {
    return repoDirOf(this.dirs, repo) !== null;
  }

  async tree(repo: string, commit: string): Promise<string[]> {
    const out = await git(this.dir(repo), ['ls-tree', '-r', '--name-only', '-z', commit]);
    if (out === null)
      throw new FaunError(`git ls-tree failed for ${repo} at ${commit} in ${this.dir(repo)}`, {
        hint: 'fetch the commit into the clone (git fetch origin <sha>) and retry',
      });
    return out.split('\0').filter(Boolean).sort();
  }

  file(repo: string, commit: string, path: string): Promise<string | null> {
    return git(this.dir(repo), ['show', `${commit}:${path}`]);
  }

  /** A commit's full sha, parents, message and committer time; null when the clone lacks it. */
  async commit(
    repo: string,
    rev: string,
  ): Promise<{ sha: string; parents: string[]; message: string; date: string } | null> {
    const out = await git(this.dir(repo), ['show', '-s', '--format=%H%n%cI%n%B', `${rev}^{commit}`]);
    if (out === null) return null;
    const [sha = '', date = '', ...msg] = out.split('\n');
    // the raw object's parents: a shallow clone's graft would hide them (and make a merge look like a root)
    const raw = (await git(this.dir(repo), ['cat-file', 'commit', sha])) ?? '';
    const head = raw.slice(0, raw.indexOf('\n\n'));
    const parents = [...head.matchAll(/^parent ([0-9a-f]+)$/gm)].map((m) => m[1] ?? '');
    return { sha, parents, message: msg.join('\n').trimEnd(), date };
  }

  /** Whether the clone has this commit's objects. */
  async hasCommit(repo: string, rev: string): Promise<boolean> {
    return (await git(this.dir(repo), ['cat-file', '-e', `${rev}^{commit}`])) !== null;
  }

  /** `git diff --no-renames --full-index a b` (null when git fails). */
  diff(repo: string, a: string, b: string): Promise<string | null> {
    return git(this.dir(repo), ['diff', '--no-renames', '--no-color', '--full-index', a, b]);
  }

  /** The clone's current branch name (`main` when detached or bare without HEAD). */
  async branch(repo: string): Promise<string> {
    return (await git(this.dir(repo), ['symbolic-ref', '--short', 'HEAD']))?.trim() || 'main';
  }
}

async function git(dir: string, args: string[]): Promise<string | null> {
  const p = Bun.spawn(['git', '-C', dir, ...args], { stdout: 'pipe', stderr: 'pipe' });
  const [text, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  return code === 0 ? text : null;
}

export interface ApiSourceOptions {
  /** API root, e.g. `https://api.github.com` or the fake server's URL. */
  apiUrl: string;
  /** Token from the environment (never logged). */
  token?: string | undefined;
  fetch?: typeof fetch;
  /** Ask for raw file bodies (default true); false asks for the JSON content object (base64). */
  raw?: boolean;
}

/** The JSON answer of `GET /repos/{o}/{r}/contents/{path}` (the fields read here). */
interface ContentObject {
  content?: unknown;
  encoding?: unknown;
  type?: unknown;
}

/** Reads trees and files through the GitHub REST API (`git/trees?recursive=1`, `contents`). */
export class GitHubApiSource implements RepoSource {
  private readonly f: typeof fetch;
  constructor(private readonly opts: ApiSourceOptions) {
    this.f = opts.fetch ?? fetch;
  }

  private async get(path: string, accept: string): Promise<Response | null> {
    const headers: Record<string, string> = { accept, 'x-github-api-version': '2022-11-28' };
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    const res = await this.f(`${this.opts.apiUrl.replace(/\/$/, '')}${path}`, { headers });
    if (res.status === 404) return null;
    if (!res.ok)
      throw new FaunError(`GitHub API ${res.status} for ${path}`, {
        hint: res.status === 401 ? 'check GITHUB_TOKEN' : 'retry later or use --repo-dir with a local clone',
      });
    return res;
  }

  async tree(repo: string, commit: string): Promise<string[]> {
    const res = await this.get(
      `/repos/${repo}/git/trees/${commit}?recursive=1`,
      'application/vnd.github+json',
    );
    if (!res) throw new FaunError(`tree of ${repo} at ${commit} not found`);
    const body = (await res.json()) as { tree?: Array<{ path: string; type: string }>; truncated?: boolean };
    if (body.truncated)
      throw new FaunError(`tree of ${repo} at ${commit} is truncated by the API`, {
        hint: `use a local clone: --repo-dir ${repo}=PATH`,
      });
    return (body.tree ?? [])
      .filter((t) => t.type === 'blob')
      .map((t) => t.path)
      .sort();
  }

  async file(repo: string, commit: string, path: string): Promise<string | null> {
    const enc = path.split('/').map(encodeURIComponent).join('/');
    const accept =
      this.opts.raw === false ? 'application/vnd.github+json' : 'application/vnd.github.raw+json';
    const res = await this.get(`/repos/${repo}/contents/${enc}?ref=${encodeURIComponent(commit)}`, accept);
    if (!res) return null;
    const text = await res.text();
    // Raw answers are the file itself; a JSON content object (base64) is decoded. A raw file that
    // happens to be JSON has no `encoding`/`content` pair, so it is returned as is.
    let body: ContentObject | null = null;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as ContentObject;
    } catch {
      return text;
    }
    if (body && body.encoding === 'base64' && typeof body.content === 'string') {
      if (body.type !== undefined && body.type !== 'file') return null;
      return Buffer.from(body.content.replace(/\n/g, ''), 'base64').toString('utf8');
    }
    return text;
  }
}

/** Uses the local clone for repositories that have one, else `fallback` (or fails with a hint). */
export function routeSources(local: LocalGitSource, fallback: RepoSource | null): RepoSource {
  const pick = (repo: string): RepoSource => {
    if (local.has(repo)) return local;
    if (fallback) return fallback;
    throw new UsageError(`no source for the files of ${repo}`, {
      hint: `pass --repo-dir ${repo}=PATH (a local clone) or --api-url with GITHUB_TOKEN set`,
    });
  };
  return {
    tree: async (repo, commit) => pick(repo).tree(repo, commit),
    file: async (repo, commit, path) => pick(repo).file(repo, commit, path),
  };
}
