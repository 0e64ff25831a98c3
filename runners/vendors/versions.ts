/**
 * The pinned vendor releases (`versions.json` beside this file): one place to bump a version.
 * `parsePins` is pure; `loadPins` reads the file.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aliasOf, renamedNotice } from '../../impl/integrations/registry.js';

export const VENDORS = ['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'cline', 'opencode', 'kilocode', 'pi'] as const;
export type Vendor = (typeof VENDORS)[number];

/**
 * A lane selection (`vendor` or `vendor/scenario`) with an earlier name (a descriptor's
 * `aliases`, e.g. `gemini`) replaced by the vendor's one name, and the notice to print.
 */
export function canonicalSelection(selection: string): { selection: string; notice?: string } {
  const [vendor, ...rest] = selection.split('/');
  const alias = aliasOf(vendor);
  if (alias === undefined || !(VENDORS as readonly string[]).includes(alias.name)) return { selection };
  const read = [alias.name, ...rest].join('/');
  return { selection: read, notice: renamedNotice(vendor!, alias.name, read) };
}

export interface Pin {
  vendor: Vendor;
  /** npm package name. */
  package: string;
  /** Exact version (no ranges: a certification names one release). */
  version: string;
  /** The binary the package installs under node_modules/.bin. */
  bin: string;
}

const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** The pins of a parsed versions file, or a list of what is wrong with it (never throws). */
export function parsePins(value: unknown): { pins: Pin[]; problems: string[] } {
  const problems: string[] = [];
  const pins: Pin[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { pins, problems: ['versions.json: expected a JSON object keyed by vendor'] };
  const file = value as Record<string, unknown>;
  for (const vendor of VENDORS) {
    const entry = file[vendor];
    if (typeof entry !== 'object' || entry === null) {
      problems.push(`versions.json: "${vendor}" is missing; add {"package", "version", "bin"}`);
      continue;
    }
    const { package: pkg, version, bin } = entry as Record<string, unknown>;
    if (typeof pkg !== 'string' || pkg === '') problems.push(`versions.json: ${vendor}.package must be the npm package name`);
    if (typeof version !== 'string' || !EXACT.test(version)) problems.push(`versions.json: ${vendor}.version must be an exact version such as 1.2.3, got ${JSON.stringify(version)}`);
    if (typeof bin !== 'string' || !/^[A-Za-z0-9._-]+$/.test(bin)) problems.push(`versions.json: ${vendor}.bin must be the binary name`);
    if (typeof pkg === 'string' && typeof version === 'string' && typeof bin === 'string') pins.push({ vendor, package: pkg, version, bin });
  }
  for (const key of Object.keys(file)) if (!key.startsWith('$') && !(VENDORS as readonly string[]).includes(key)) problems.push(`versions.json: unknown vendor "${key}" (known: ${VENDORS.join(', ')})`);
  return { pins: problems.length ? [] : pins, problems };
}

/** The source-tree path of versions.json (dist/ builds read the same file from the source tree). */
export function versionsFile(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = here.includes(`${'/'}dist${'/'}`) ? join(here.replace(/\/dist\/.*$/, ''), 'runners', 'vendors') : here;
  return join(root, 'versions.json');
}

/** Read and check the pins; throws an Error listing every problem. */
export function loadPins(path = versionsFile()): Pin[] {
  const { pins, problems } = parsePins(JSON.parse(readFileSync(path, 'utf8')));
  if (problems.length) throw new Error(problems.join('\n'));
  return pins;
}
