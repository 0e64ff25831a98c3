/** The repository's Markdown files, for the docs tests: git's tracked and untracked-not-ignored ones, else a walk of the tree. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', '.git']);

/** Paths relative to `root`, `/`-separated. */
export function markdownFiles(root: string): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '*.md'], { cwd: root, encoding: 'utf8' });
    return out.split('\0').filter((f) => f !== '' && existsSync(join(root, f)));
  } catch {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        if (SKIP_DIRS.has(name)) continue;
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name.endsWith('.md')) found.push(relative(root, full).split(sep).join('/'));
      }
    };
    walk(root);
    return found;
  }
}
