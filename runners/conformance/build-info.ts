/**
 * What build this is: the package's name and version and the git commit its `dist/` was built from,
 * recorded in `dist/build-info.json` by `npm run build` (so also by `npm pack`'s `prepack` and a
 * clone's `npm install`). A packed tarball has no `.git`; the file it carries still names the commit.
 * Read by `aep conformance` and `aep check-live` into `run.tool`.
 *
 * Run as a script (`node dist/runners/conformance/build-info.js`) it writes the file: the commit is
 * `git rev-parse HEAD` of the package's own repository (never one the package merely sits inside),
 * `-dirty` appended when tracked files differ from it; without a repository an existing file is kept.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageRoot } from './corpus.js';

export interface BuildInfo {
  name: string;
  version: string;
  /** The commit, `<sha>` or `<sha>-dirty`; `unknown` when the build recorded none. */
  commit: string;
}

export const BUILD_INFO_FILE = ['dist', 'build-info.json'] as const;

function manifest(root: string): { name: string; version: string } {
  try {
    const m = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return { name: typeof m.name === 'string' ? m.name : 'aep-reference', version: typeof m.version === 'string' ? m.version : 'unknown' };
  } catch {
    return { name: 'aep-reference', version: 'unknown' };
  }
}

/** The recorded build (name and version from package.json, the commit from dist/build-info.json). */
export function readBuildInfo(root: string = packageRoot()): BuildInfo {
  const { name, version } = manifest(root);
  let commit = 'unknown';
  try {
    const recorded = JSON.parse(readFileSync(join(root, ...BUILD_INFO_FILE), 'utf8')) as { commit?: unknown };
    if (typeof recorded.commit === 'string' && recorded.commit !== '') commit = recorded.commit;
  } catch {
    // no build record: a build that predates it, or a tree never built
  }
  return { name, version, commit };
}

function git(root: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  } catch {
    return undefined;
  }
}

/** The commit of the repository rooted at `root` itself, or undefined (no git, no repository, or `root` is inside another one). */
export function gitCommit(root: string): string | undefined {
  const top = git(root, ['rev-parse', '--show-toplevel']);
  if (top === undefined || resolve(top) !== resolve(root)) return undefined;
  const sha = git(root, ['rev-parse', 'HEAD']);
  if (sha === undefined || !/^[0-9a-f]{40,64}$/.test(sha)) return undefined;
  const clean = git(root, ['diff', '--quiet', 'HEAD', '--']) !== undefined;
  return clean ? sha : `${sha}-dirty`;
}

/** Writes dist/build-info.json; keeps a recorded commit when there is no repository to ask. Returns what was written. */
export function writeBuildInfo(root: string = packageRoot()): BuildInfo {
  const previous = readBuildInfo(root);
  const commit = gitCommit(root) ?? previous.commit;
  const info: BuildInfo = { name: previous.name, version: previous.version, commit };
  writeFileSync(join(root, ...BUILD_INFO_FILE), `${JSON.stringify(info, null, 2)}\n`);
  return info;
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  const info = writeBuildInfo(packageRoot(fileURLToPath(new URL('.', import.meta.url))));
  process.stdout.write(`build-info: ${info.name} ${info.version} at ${info.commit}\n`);
}
