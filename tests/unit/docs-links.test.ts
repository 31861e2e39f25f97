import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README is a map into `docs/`: a reader who follows a link lands on a file that exists and,
 * when the link names a heading (`docs/operations.md#backups`, `#configuration`), on that heading.
 * Every Markdown file of the repository is checked, so a document moved or a heading renamed fails
 * here, naming the file and the link, instead of leaving a dead link for the next reader.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
// Folders that hold no Markdown of ours (dependencies, build output, data, test output).
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'data', '.astro', 'test-results', 'playwright-report', '.work']);

/** The repository's Markdown files (tracked, or new and not ignored), relative to its root. */
function markdownFiles(): string[] {
  try {
    const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.md'], { cwd: ROOT, encoding: 'utf8' });
    return listed
      .split('\0')
      .filter((file) => file && !file.split('/').some((part) => SKIPPED_FOLDERS.has(part)))
      .filter((file) => existsSync(path.join(ROOT, file)));
  } catch {
    // No git (a copy of the sources without .git): walk the tree instead.
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(path.join(ROOT, dir))) {
        if (SKIPPED_FOLDERS.has(name)) continue;
        const file = dir ? `${dir}/${name}` : name;
        if (statSync(path.join(ROOT, file)).isDirectory()) walk(file);
        else if (name.endsWith('.md')) files.push(file);
      }
    };
    walk('');
    return files;
  }
}

/** The text with fenced code blocks blanked (line numbers kept): a `# comment` or `[a](b)` in code is neither a heading nor a link. */
function withoutCodeBlocks(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) {
      fence = marker;
      return '';
    }
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      return '';
    }
    return line;
  });
}

/** GitHub's anchor for a heading: its text lower-cased, punctuation and symbols dropped, spaces turned into hyphens. */
function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or picture shows its text
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown file offers: its headings' slugs (a repeated one numbered -1, -2, … as GitHub does) and any `<a id|name="…">`. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(text)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = githubSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

type Link = { file: string; line: number; target: string };

/** Every link of a Markdown file, inline (`[text](target)`, `![alt](src)`) or by reference (`[ref]: target`), outside code. */
function linksOf(file: string, text: string): Link[] {
  return withoutCodeBlocks(text).flatMap((raw, index) => {
    const line = raw.replace(/(`+)[^`]*?\1/g, ''); // inline code is shown as written, not followed
    const inline = [...line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
    const reference = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(line)?.[1];
    return [...inline, ...(reference ? [reference] : [])].map((target) => ({ file, line: index + 1, target: target.replace(/^<|>$/g, '') }));
  });
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** Why a relative link leads nowhere, or null when its file (and heading) exist. */
function brokenBecause(link: Link): string | null {
  const [pathPart = '', anchor] = link.target.split('#', 2) as [string, string | undefined];
  const decoded = decodeURIComponent(pathPart);
  const target = decoded === '' ? link.file : decoded.startsWith('/') ? decoded.slice(1) : path.posix.join(path.posix.dirname(link.file), decoded);
  const full = path.join(ROOT, target);
  if (path.relative(ROOT, full).startsWith('..')) return `${target} is outside the repository`;
  if (!existsSync(full)) return `${target} does not exist`;
  if (anchor === undefined || anchor === '') return null;
  if (!target.endsWith('.md') || statSync(full).isDirectory()) return `#${anchor} points into ${target}, which has no headings`;
  const anchors = anchorsOf(readFileSync(full, 'utf8'));
  return anchors.has(decodeURIComponent(anchor)) ? null : `${target} has no heading #${anchor}`;
}

const files = markdownFiles();
const links = files.flatMap((file) => linksOf(file, readFileSync(path.join(ROOT, file), 'utf8')));

describe('links between the Markdown documents', () => {
  it('lead to a file that exists and, with an anchor, to a heading in it', () => {
    const broken = links
      .filter((link) => !isExternal(link.target))
      .map((link) => ({ link, reason: brokenBecause(link) }))
      .filter(({ reason }) => reason !== null)
      .map(({ link, reason }) => `${link.file}:${link.line} [..](${link.target}): ${reason}`);
    expect(broken).toEqual([]);
  });

  it('are read from the README, the docs and the other Markdown files', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'seed/demo/README.md']));
    expect(files.some((file) => file.startsWith('node_modules/'))).toBe(false);
    // The README is a map: it links into docs/ (if this finds none, the link finder is broken).
    expect(links.filter((link) => link.file === 'README.md' && link.target.startsWith('docs/')).length).toBeGreaterThan(5);
  });

  it('list every document of docs/ in its index', () => {
    const index = links.filter((link) => link.file === 'docs/README.md').map((link) => link.target.split('#')[0]);
    const documents = files.filter((file) => file.startsWith('docs/') && file !== 'docs/README.md').map((file) => path.posix.relative('docs', file));
    expect(documents.filter((document) => !index.includes(document))).toEqual([]);
  });
});

describe('the link check', () => {
  it('names a link to a missing file and a link to a missing heading', () => {
    expect(brokenBecause({ file: 'README.md', line: 1, target: 'docs/no-such-document.md' })).toBe('docs/no-such-document.md does not exist');
    expect(brokenBecause({ file: 'docs/README.md', line: 1, target: '../README.md#no-such-heading' })).toBe('README.md has no heading #no-such-heading');
    expect(brokenBecause({ file: 'README.md', line: 1, target: '#no-such-heading' })).toBe('README.md has no heading #no-such-heading');
    expect(brokenBecause({ file: 'README.md', line: 1, target: 'package.json#scripts' })).toBe('#scripts points into package.json, which has no headings');
    expect(brokenBecause({ file: 'README.md', line: 1, target: 'docs/README.md' })).toBeNull();
  });

  it('finds inline links, pictures and reference links, but not what is in code', () => {
    const text = 'See [the docs](docs/README.md "index") and ![board](<public/og default.png>).\n`[not](a-link.md)`\n\n```md\n[nor](this.md)\n```\n[ref]: docs/api.md#the-api\n';
    expect(linksOf('README.md', text).map((link) => `${link.line}:${link.target}`)).toEqual(['1:docs/README.md', '1:public/og default.png', '7:docs/api.md#the-api']);
  });
});

describe('heading anchors', () => {
  it('are made as GitHub makes them', () => {
    expect(githubSlug('Running it: logs, metrics, health, shutdown, backups')).toBe('running-it-logs-metrics-health-shutdown-backups');
    expect(githubSlug("Members' collections")).toBe('members-collections');
    expect(githubSlug('The guest page cache, and a CDN in front')).toBe('the-guest-page-cache-and-a-cdn-in-front');
    expect(githubSlug('`/metrics` and `X-Request-Id`')).toBe('metrics-and-x-request-id');
    expect(githubSlug('Search at 100k projects')).toBe('search-at-100k-projects');
    expect(githubSlug('Open tags: members name tags when they publish')).toBe('open-tags-members-name-tags-when-they-publish');
  });

  it('number a repeated heading as GitHub does, and ignore "headings" inside code blocks', () => {
    const anchors = anchorsOf('# Notes\n\n## Notes\n\n```yaml\n# prometheus.yml: a scraper\n```\n');
    expect([...anchors]).toEqual(['notes', 'notes-1']);
  });
});
