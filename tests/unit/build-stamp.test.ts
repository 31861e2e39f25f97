import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildInputsFingerprint, isBuildCurrent, writeBuildStamp } from '../../scripts/build-stamp.ts';

/** `npm start` rebuilds only when a build input changed: a restart of an unchanged tree starts at once. */
describe('the build stamp', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  function tree(): string {
    const root = mkdtempSync(path.join(os.tmpdir(), 'copperhub-stamp-'));
    roots.push(root);
    mkdirSync(path.join(root, 'src', 'pages'), { recursive: true });
    writeFileSync(path.join(root, 'src', 'pages', 'index.astro'), '<h1>Hello</h1>');
    writeFileSync(path.join(root, 'package-lock.json'), '{}');
    mkdirSync(path.join(root, 'dist', 'server'), { recursive: true });
    writeFileSync(path.join(root, 'dist', 'server', 'entry.mjs'), '');
    return root;
  }

  it('holds for the tree it was written for, and no longer once a source, a file name or the lock file changes', () => {
    const root = tree();
    const dist = path.join(root, 'dist');
    const first = buildInputsFingerprint(root);
    expect(isBuildCurrent(root, dist, first)).toBe(false); // never built with a stamp
    writeBuildStamp(dist, first);
    expect(isBuildCurrent(root, dist, buildInputsFingerprint(root))).toBe(true);

    writeFileSync(path.join(root, 'src', 'pages', 'index.astro'), '<h1>Hello!</h1>');
    expect(isBuildCurrent(root, dist, buildInputsFingerprint(root))).toBe(false);
    writeFileSync(path.join(root, 'src', 'pages', 'index.astro'), '<h1>Hello</h1>');
    expect(buildInputsFingerprint(root)).toBe(first);

    writeFileSync(path.join(root, 'src', 'pages', 'about.astro'), '');
    expect(buildInputsFingerprint(root)).not.toBe(first);
    rmSync(path.join(root, 'src', 'pages', 'about.astro'));
    writeFileSync(path.join(root, 'package-lock.json'), '{"lockfileVersion":3}');
    expect(buildInputsFingerprint(root)).not.toBe(first);
  });

  it('does not hold for a build that never finished', () => {
    const root = tree();
    const dist = path.join(root, 'dist');
    const fingerprint = buildInputsFingerprint(root);
    writeBuildStamp(dist, fingerprint);
    rmSync(path.join(dist, 'server', 'entry.mjs'));
    expect(isBuildCurrent(root, dist, fingerprint)).toBe(false);
  });
});
