/** The corpus revision: one digest over every fixture file, so a report names exactly what it ran. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** `sha256:<hex>` over `<relative path>\0<bytes>\0` of every file under `corpusDir`, in path order. */
export function corpusRevision(corpusDir: string): string {
  const hash = createHash('sha256');
  const rels = files(corpusDir).map((p) => relative(corpusDir, p).split(sep).join('/')).sort();
  for (const rel of rels) {
    hash.update(`${rel}\0`);
    hash.update(readFileSync(join(corpusDir, rel)));
    hash.update('\0');
  }
  return `sha256:${hash.digest('hex')}`;
}
