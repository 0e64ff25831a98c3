/**
 * The Markdown link check, pure: the links a Markdown text holds (outside code), the anchors its
 * headings give (GitHub's slugs), and the problems of one file's links against the files and
 * anchors that exist. links.test.ts runs it over every tracked Markdown file.
 */

export interface MdLink {
  /** 1-based line of the link. */
  line: number;
  /** The target as written, without a title. */
  target: string;
}

export interface LinkProblem {
  file: string;
  line: number;
  target: string;
  /** What is wrong and how to fix it. */
  message: string;
}

/** The text with fenced code blocks blanked (line numbers kept) and inline code spans replaced by `x`. */
function withoutCode(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (m && m[1]!.startsWith(fence)) fence = null;
      out.push('');
      continue;
    }
    if (m) {
      fence = m[1]!;
      out.push('');
      continue;
    }
    out.push(line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, 'x'));
  }
  return out;
}

/** Every inline link and image target of a Markdown text, outside code. */
export function extractLinks(text: string): MdLink[] {
  const links: MdLink[] = [];
  withoutCode(text).forEach((line, i) => {
    const re = /!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g;
    for (let m = re.exec(line); m; m = re.exec(line)) {
      const raw = m[1]!;
      links.push({ line: i + 1, target: raw.startsWith('<') ? raw.slice(1, -1) : raw });
    }
  });
  return links;
}

/** GitHub's anchor for a heading text: lowercased, inline markup dropped, punctuation removed, spaces to `-`. */
export function slug(heading: string): string {
  // HTML tags are dropped outside code spans only: inside backticks `<name>` is literal text.
  const text = heading
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '')))
    .join('')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings (ATX `#` headings outside code), duplicates numbered as GitHub does. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const lines = text.split('\n');
  let fence: string | null = null;
  for (const line of lines) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (f && f[1]!.startsWith(fence)) fence = null;
      continue;
    }
    if (f) {
      fence = f[1]!;
      continue;
    }
    const m = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Whether a target leaves the repository (a URL with a scheme, or protocol-relative). */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

export interface LinkWorld {
  /** Whether a path (relative to the repository root, `/`-separated, normalized) exists as a file or folder. */
  exists(path: string): boolean;
  /** The text of a Markdown file (relative to the root), for its anchors; undefined when it is not one. */
  markdown(path: string): string | undefined;
}

/** `a/b/../c` → `a/c`; undefined when the path climbs above the root. */
export function normalize(path: string): string | undefined {
  const parts: string[] = [];
  for (const p of path.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(p);
  }
  return parts.join('/');
}

/** The problems of one Markdown file's relative links (`file` relative to the root). */
export function checkFile(file: string, text: string, world: LinkWorld): LinkProblem[] {
  const problems: LinkProblem[] = [];
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  for (const { line, target } of extractLinks(text)) {
    if (isExternal(target)) continue;
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = pathPart === '' ? file : normalize(pathPart.startsWith('/') ? pathPart : `${dir}/${pathPart}`);
    if (resolved === undefined || !world.exists(resolved)) {
      problems.push({ file, line, target, message: `'${pathPart}' does not exist (resolved from ${file} to '${resolved ?? '(above the repository root)'}'): fix the path or remove the link` });
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    const md = world.markdown(resolved);
    if (md === undefined) continue;
    if (!anchors(md).has(anchor)) {
      problems.push({ file, line, target, message: `'${resolved}' has no heading with the anchor '#${anchor}': link to an existing heading (anchors are GitHub's slugs of the heading text)` });
    }
  }
  return problems;
}

/**
 * Table rows that render as literal text: a row glued under a paragraph line (a table needs a
 * blank line before its header), or a table whose second line is not the `|---|` delimiter row.
 * Returns the 1-based lines with what to fix.
 */
export function tableProblems(text: string): { line: number; message: string }[] {
  const problems: { line: number; message: string }[] = [];
  let fence: string | null = null;
  const lines = text.split('\n');
  let prev = '';
  lines.forEach((line, i) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (f && f[1]!.startsWith(fence)) fence = null;
      prev = '';
      return;
    }
    if (f) {
      fence = f[1]!;
      prev = '';
      return;
    }
    // an HTML comment alone on its line (the generated-block markers) ends the block before it
    if (/^\s*<!--.*-->\s*$/.test(line)) {
      prev = '';
      return;
    }
    const isRow = line.startsWith('|');
    const prevRow = prev.startsWith('|');
    if (isRow && !prevRow) {
      if (prev.trim() !== '') problems.push({ line: i + 1, message: 'a table row right under a paragraph line renders as text: put it in its table, or leave a blank line before a new table' });
      else if (!/^\|\s*:?-{3,}/.test(lines[i + 1] ?? '')) problems.push({ line: i + 1, message: 'a table header must be followed by its |---| delimiter row' });
    }
    prev = line;
  });
  return problems;
}
