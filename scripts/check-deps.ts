/**
 * `npm run lint:deps`: checks the layering rules of `.dependency-cruiser.cjs` over `src/`, the
 * `.astro` files included.
 *
 * dependency-cruiser reads TypeScript but not Astro's components, and a third of the imports that
 * matter (pages reaching services, components reaching the server) are in `.astro` frontmatter.
 * So the check runs on a shadow copy of `src/` in a temporary folder where each `.astro` file is
 * a `.astro.ts` file holding just its imports (frontmatter and `<script>` blocks): the same rules,
 * circles included, hold for both kinds of file, and the report names the real files.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const shadow = mkdtempSync(path.join(os.tmpdir(), 'copperhub-deps-'));

/** An import of an `.astro` file points at its shadow. */
const toShadowSpecifiers = (code: string) => code.replace(/(['"])(\.{1,2}\/[^'"\n]+?\.astro)\1/g, '$1$2.ts$1');

/** The import statements of an Astro component: its frontmatter's and its scripts'. */
function astroImports(source: string): string {
  const blocks: string[] = [];
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source);
  if (frontmatter) blocks.push(frontmatter[1]!);
  for (const script of source.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) blocks.push(script[1]!);
  const imports = blocks.flatMap((block) => [...block.matchAll(/^\s*(import\s[\s\S]*?['"][^'"\n]+['"];?)/gm)].map((match) => match[1]!));
  return imports.join('\n') + '\nexport {};\n';
}

function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) copyTree(source, path.join(to, entry.name));
    else if (entry.name.endsWith('.astro')) writeFileSync(path.join(to, `${entry.name}.ts`), toShadowSpecifiers(astroImports(readFileSync(source, 'utf8'))));
    else if (/\.(ts|tsx|mts|mjs|js)$/.test(entry.name)) writeFileSync(path.join(to, entry.name), toShadowSpecifiers(readFileSync(source, 'utf8')));
    else copyFileSync(source, path.join(to, entry.name));
  }
}

let status = 0;
try {
  copyTree(path.join(root, 'src'), path.join(shadow, 'src'));
  symlinkSync(path.join(root, 'node_modules'), path.join(shadow, 'node_modules'));
  writeFileSync(path.join(shadow, 'tsconfig.json'), JSON.stringify({ extends: path.join(root, 'tsconfig.json'), include: ['src'] }));
  try {
    const report = execFileSync(path.join(root, 'node_modules/.bin/depcruise'), ['src', '--config', path.join(root, '.dependency-cruiser.cjs'), '--output-type', 'err'], {
      cwd: shadow,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    process.stdout.write(report.replaceAll('.astro.ts', '.astro'));
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; status?: number };
    process.stdout.write((failed.stdout ?? '').replaceAll('.astro.ts', '.astro'));
    process.stderr.write(failed.stderr ?? '');
    status = failed.status ?? 1;
  }
} finally {
  rmSync(shadow, { recursive: true, force: true });
}
process.exit(status);
