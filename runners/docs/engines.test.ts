/**
 * The Node range the docs claim: every runtime package (package-lock.json, not dev) whose
 * `engines.node` does not admit the lowest Node of our own `engines` is named in
 * docs/dependencies.md, so the docs say which packages warn (EBADENGINE) or may not run there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { engineAdmits, lowestAdmitted } from './engines.js';

const read = (rel: string): string => readFileSync(new URL(`../../${rel}`, import.meta.url), 'utf8');

interface LockPackage {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  engines?: Record<string, string> | string[];
}

describe('Node engines of the runtime packages', () => {
  it('every runtime package that does not admit our lowest Node is named in docs/dependencies.md', () => {
    const ours = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const lowest = lowestAdmitted(ours);
    expect(lowest, `package.json engines.node '${ours}' is not of the form >=X.Y or ^X.Y.Z alternatives`).toBeDefined();
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockPackage> };
    const docs = read('docs/dependencies.md');
    const problems: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      if (path === '' || p.dev || p.devOptional) continue;
      const range = !Array.isArray(p.engines) ? p.engines?.node : undefined;
      if (range === undefined) continue;
      const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      const admits = engineAdmits(range, lowest!);
      if (admits === undefined) problems.push(`${name}: cannot read engines.node '${range}'`);
      else if (!admits && !docs.includes(`\`${name}\``)) problems.push(`${name} ${p.version ?? ''} wants Node '${range}', which excludes ${lowest}: say so in docs/dependencies.md`);
    }
    expect(problems).toEqual([]);
  });

  it('reads the ranges npm packages write', () => {
    expect(engineAdmits('>= 22.x', '20.19.0')).toBe(false);
    expect(engineAdmits('>= 22.x', '22.0.0')).toBe(true);
    expect(engineAdmits('^18.19.0 || >=20.6.0', '20.19.0')).toBe(true);
    expect(engineAdmits('^18.19.0 || >=20.6.0', '19.0.0')).toBe(false);
    expect(engineAdmits('>=14 <20', '20.19.0')).toBe(false);
    expect(engineAdmits('~20.1', '20.19.0')).toBe(false);
    expect(engineAdmits('20.x', '20.19.0')).toBe(true);
    expect(engineAdmits('>= 0.8', '20.19.0')).toBe(true);
    expect(engineAdmits('>20.x', '20.19.0')).toBe(false);
    expect(engineAdmits('>19.x', '20.19.0')).toBe(true);
    expect(engineAdmits('<=20.x', '20.19.0')).toBe(true);
    expect(engineAdmits('<=19', '20.19.0')).toBe(false);
    expect(engineAdmits('node 20', '20.19.0')).toBeUndefined();
    expect(lowestAdmitted('>=20.19')).toBe('20.19.0');
  });
});
