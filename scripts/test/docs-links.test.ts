import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README and docs/ link to each other by relative paths and #anchors; a moved file or a renamed heading
// breaks them silently on GitHub. This reads every link of every Markdown file there and checks that its file
// exists and that its anchor names a heading of that file (GitHub's slugs).

const ROOT = join(__dirname, '..', '..');
const README_MAX_LINES = 200;

function markdownFiles(): string[] {
  const docs = join(ROOT, 'docs');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.md') ? [path] : [];
    });
  return [join(ROOT, 'README.md'), ...walk(docs)];
}

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (not `-` or `_`), spaces as `-`, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

function links(markdown: string): { line: number; target: string }[] {
  return prose(markdown).flatMap((text, i) => [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => ({ line: i + 1, target: m[1]! })));
}

function brokenLinks(file: string): string[] {
  const out: string[] = [];
  for (const { line, target } of links(readFileSync(file, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:: not ours to check offline
    const [path = '', anchor] = target.split('#', 2);
    const abs = path ? join(dirname(file), decodeURIComponent(path)) : file;
    const where = `${relative(ROOT, file)}:${line} → ${target}`;
    if (!existsSync(abs)) {
      out.push(`${where}: no such file`);
      continue;
    }
    if (anchor !== undefined && !(abs.endsWith('.md') && headingAnchors(readFileSync(abs, 'utf8')).has(anchor))) {
      out.push(`${where}: no heading with that anchor`);
    }
  }
  return out;
}

describe('the README and docs/', () => {
  it('link only to files that exist and to headings those files have', () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });

  it(`keep the README an introduction of at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('would notice a broken link or anchor', () => {
    expect([...headingAnchors('# Modes (`AUTH_MODE`)\n## Gaps in the spec, and what Fleetmap does\n## Proof\n## Proof\n```\n# not a heading\n```')]).toEqual([
      'modes-auth_mode',
      'gaps-in-the-spec-and-what-fleetmap-does',
      'proof',
      'proof-1',
    ]);
    expect(links('see [a](b.md#c) and `[not](x.md)`\n```\n[nor](y.md)\n```\n![img](i.svg)').map((l) => l.target)).toEqual(['b.md#c', 'i.svg']);
  });
});
