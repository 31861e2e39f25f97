import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_CONTENT_DIR, DemoContentError, loadDemoContent } from '../../src/server/seed/demo-content.ts';
import { bannerSvg, collectionSvg } from '../../src/server/seed/images.ts';

describe('demo content files', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-demo-content-'));
    cpSync(DEMO_CONTENT_DIR, dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, text: string) => writeFileSync(path.join(dir, name), text);
  const projectFile = (front: string) =>
    `---\ntitle: Tiny Tester\nsummary: A small board.\nowner: jakew\nlang: en\nlicence: MIT\n${front}cover: {label: Tiny, chip: RP2040, mask: green}\n---\n## Overview\n\nIt tests things.\n`;

  it('adds a demo project for a new Markdown file, with its front matter and its body as the description', () => {
    write('projects/tiny-tester.md', projectFile('tags: [rp2040, debug-probe]\nrecommend: 9\n'));
    const content = loadDemoContent(dir);
    const added = content.projects.find((project) => project.slug === 'tiny-tester');
    expect(added).toEqual({
      slug: 'tiny-tester',
      title: 'Tiny Tester',
      summary: 'A small board.',
      owner: 'jakew',
      lang: 'en',
      licence: 'MIT',
      tags: ['rp2040', 'debug-probe'],
      recommend: 9,
      cover: { label: 'Tiny', chip: 'RP2040', mask: 'green' },
      description: '## Overview\n\nIt tests things.\n',
    });
    expect(content.projects).toHaveLength(loadDemoContent().projects.length + 1);
  });

  it('names the file and the reference at fault', () => {
    write('projects/tiny-tester.md', projectFile('tags: [no-such-tag]\n'));
    expect(() => loadDemoContent(dir)).toThrow(DemoContentError);
    expect(() => loadDemoContent(dir)).toThrow(/tiny-tester\.md: unknown tag "no-such-tag"/);

    write('projects/tiny-tester.md', projectFile('tags: [rp2040]\nlicence: Beerware\n').replace('licence: MIT\n', ''));
    expect(() => loadDemoContent(dir)).toThrow(/tiny-tester\.md: [\s\S]*licence/);

    rmSync(path.join(dir, 'projects/tiny-tester.md'));
    write('collections.yaml', readFileSync(path.join(dir, 'collections.yaml'), 'utf8').replace('- lab-psu-30v', '- lab-psu-99v'));
    expect(() => loadDemoContent(dir)).toThrow(/collections\.yaml: unknown project in collection bench-tools "lab-psu-99v"/);
  });

  it('refuses build logs, makes, remixes and members\' collections that name what is not there or is not allowed', () => {
    const original = (name: string) => readFileSync(path.join(DEMO_CONTENT_DIR, name), 'utf8');
    write('logs.yaml', original('logs.yaml').replace('- project: lab-psu-30v', '- project: lab-psu-99v'));
    expect(() => loadDemoContent(dir)).toThrow(/logs\.yaml: unknown project "lab-psu-99v"/);
    write('logs.yaml', original('logs.yaml').replace('- project: lab-psu-30v', '- project: wx-s3-weather'));
    expect(() => loadDemoContent(dir)).toThrow(/logs\.yaml: project "wx-s3-weather" appears twice/);
    write('logs.yaml', original('logs.yaml'));

    // the maker of a make is never the project's owner (jakew owns the macro pad)
    write('makes.yaml', original('makes.yaml').replace('maker: lena-marsh', 'maker: jakew'));
    expect(() => loadDemoContent(dir)).toThrow(/makes\.yaml: jakew makes their own project "macro-pad-12"/);
    write('makes.yaml', original('makes.yaml').replace('photos: 2', 'photos: 9'));
    expect(() => loadDemoContent(dir)).toThrow(/makes\.yaml: [\s\S]*photos/);
    write('makes.yaml', original('makes.yaml'));

    write('member-collections.yaml', original('member-collections.yaml').replace('[eurorack-vco,', '[eurorack-vcx,'));
    expect(() => loadDemoContent(dir)).toThrow(/member-collections\.yaml: unknown project in "Synth bench" "eurorack-vcx"/);
    write('member-collections.yaml', original('member-collections.yaml'));

    // a member's tag is a name a member could type, and not a staff tag's
    write('projects/tiny-tester.md', projectFile('tags: [rp2040]\nmemberTags: [Debug Probe]\n'));
    expect(() => loadDemoContent(dir)).toThrow(/tiny-tester\.md: member tag "Debug Probe" is the staff tag "debug-probe"/);
    write('projects/tiny-tester.md', projectFile('tags: [rp2040]\nmemberTags: ["<<>>"]\n'));
    expect(() => loadDemoContent(dir)).toThrow(/tiny-tester\.md: member tag "<<>>" cannot be a tag/);

    // a licence without derivatives takes no remix
    write('projects/tiny-tester.md', projectFile('tags: [rp2040]\n').replace('licence: MIT', 'licence: CC-BY-ND-4.0'));
    write('projects/tiny-remix.md', projectFile('tags: [rp2040]\nremixOf: tiny-tester\n'));
    expect(() => loadDemoContent(dir)).toThrow(/tiny-remix\.md: remixOf "tiny-tester" has a licence without derivatives/);
  });

  it('refuses a project file without front matter', () => {
    write('projects/tiny-tester.md', '# Tiny Tester\n');
    expect(() => loadDemoContent(dir)).toThrow(/tiny-tester\.md: must start with YAML front matter/);
  });
});

describe('banner and collection artwork', () => {
  it('carries no text, so the page can show the title in the reader’s language', () => {
    expect(bannerSvg({ from: '#0f5a2a', to: '#1f8a70', seed: 1 })).not.toContain('<text');
    expect(collectionSvg({ from: '#4a1d6e', to: '#c2417a', seed: 2 })).not.toContain('<text');
  });
});
