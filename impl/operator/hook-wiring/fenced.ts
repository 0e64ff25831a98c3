/**
 * A fenced block of lines at the end of a text file, pure: the wiring of the formats that have
 * comments (YAML, TOML). Everything between the fence lines is ours; removing it gives the
 * file back byte for byte. When the file did not end with a newline, one is needed before the
 * fence: the begin line then says so, and removal takes that newline away again.
 */

export interface Fence {
  begin: string;
  end: string;
}

const JOINED = ' (a newline was added before this line)';

export interface FoundBlock {
  /** Where the removal starts (the added newline included). */
  from: number;
  /** Just past the end line and its newline. */
  to: number;
}

/** Our block in `text`, or undefined; an error when a begin line has no end line. */
export function findBlock(text: string, fence: Fence): FoundBlock | undefined | { error: string } {
  const lines = text.split('\n');
  let offset = 0;
  let start: { from: number; joined: boolean } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (start === undefined && line.startsWith(fence.begin)) {
      const joined = line.endsWith(JOINED);
      start = { from: joined && offset > 0 ? offset - 1 : offset, joined };
    } else if (start !== undefined && line === fence.end) {
      const to = Math.min(text.length, offset + lines[i]!.length + 1);
      return { from: start.from, to };
    }
    offset += lines[i]!.length + 1;
  }
  return start === undefined ? undefined : { error: `it has the line '${fence.begin}' but not the closing '${fence.end}'; restore or delete the block by hand and run again` };
}

/** `text` without our block (unchanged when there is none). */
export function withoutBlock(text: string, fence: Fence): { ok: true; text: string; removed: boolean } | { ok: false; error: string } {
  const found = findBlock(text, fence);
  if (found === undefined) return { ok: true, text, removed: false };
  if ('error' in found) return { ok: false, error: found.error };
  return { ok: true, text: text.slice(0, found.from) + text.slice(found.to), removed: true };
}

/** `text` with `body` (lines, newline-terminated) as our block at the end, replacing an earlier block. */
export function withBlock(text: string, fence: Fence, body: string): { ok: true; text: string } | { ok: false; error: string } {
  const rest = withoutBlock(text, fence);
  if (!rest.ok) return rest;
  const base = rest.text;
  const joined = base !== '' && !base.endsWith('\n');
  const block = `${joined ? '\n' : ''}${fence.begin}${joined ? JOINED : ''}\n${body.endsWith('\n') || body === '' ? body : `${body}\n`}${fence.end}\n`;
  return { ok: true, text: base + block };
}

/** A text file's wiring: `conflicts` are what, outside our block, means the user wired it by hand (or blocks ours). */
export function wireText(text: string, fence: Fence, body: string, conflicts: ReadonlyArray<{ re: RegExp; error: string }>): { ok: true; text: string } | { ok: false; error: string } {
  const rest = withoutBlock(text, fence);
  if (!rest.ok) return rest;
  for (const c of conflicts) if (c.re.test(rest.text)) return { ok: false, error: c.error };
  return withBlock(rest.text, fence, body);
}
