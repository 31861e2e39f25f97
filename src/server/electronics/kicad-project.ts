/**
 * Lays a member's KiCad design source out in a scratch folder for `kicad-cli`, and finds its
 * project there: the folder, the board, the root schematic and the KiCad that saved them.
 *
 * The source is untrusted. A zip's entries pass `readArchiveEntries`'s checks (names, symlinks,
 * sizes, ratios) before a byte is inflated; every file is created new under the scratch folder,
 * never through an existing one (`wx`), and nothing but folders and plain files is ever made, so
 * there is no link to follow. Design files past their size are refused before they are written,
 * and only the head of a board and the sheets of the schematics are read, with a tokenizer that
 * goes no deeper than it needs.
 */
import { chmod, lstat, mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { KICAD_READS_UP_TO, type SourceErrorKey } from '../../lib/contract/eda.ts';
import { ArchiveError, MAX_COMPRESSION_RATIO, readArchiveEntries, type ArchiveLimits } from './archive.ts';
import { KICAD_HOME } from './kicad-cli.ts';

/** Why a design source cannot be read at all; `kicadVersion` is set with `too_new` (the KiCad that saved it, e.g. '10'). */
export class SourceError extends Error {
  readonly key: SourceErrorKey;
  readonly kicadVersion?: string;

  constructor(key: SourceErrorKey, kicadVersion?: string, detail?: string) {
    super(`${key}${kicadVersion ? ` (KiCad ${kicadVersion})` : ''}${detail ? `: ${detail}` : ''}`);
    this.name = 'SourceError';
    this.key = key;
    if (kicadVersion !== undefined) this.kicadVersion = kicadVersion;
  }
}

/** A design source as attached: one zip of a project folder, or loose files. */
export type SourceInput = { zip: Uint8Array; name: string } | { files: Array<{ name: string; bytes: Uint8Array }> };

export interface KicadProject {
  /** The project's name: its .kicad_pro's base name (else the .kicad_pcb's, else the root .kicad_sch's). */
  name: string;
  /** The absolute folder (inside `scratch`) holding the project file(s): kicad-cli runs with paths relative to it. */
  folder: string;
  /** File names relative to `folder`, null when the source has none. */
  pcb: string | null;
  /** The root schematic (`<name>.kicad_sch`, or a KiCad 5 `.sch`), null when the source has none. */
  sch: string | null;
  /** The KiCad major release that saved the files, from their format versions: '5' … '9'; null when unknown. */
  kicadVersion: string | null;
}

/** A project folder with its own footprint, symbol and 3D-model libraries runs to a few thousand files. */
export const MAX_SOURCE_FILES = 10_000;
/** One file of a source: the largest are 3D models of big parts (tens of MiB) and boards (`MAX_BOARD_BYTES`). */
export const MAX_SOURCE_FILE_BYTES = 128 * 2 ** 20;
/**
 * A whole source, unpacked: a project with its libraries and models is about 200 MB, and one
 * attachment (50 MiB at most) of KiCad text, which deflates 5–11×, unpacks to about 500 MiB.
 */
export const MAX_SOURCE_BYTES = 512 * 2 ** 20;
/** One schematic sheet: a real one is under a few MiB (the fixtures' largest is 0.2 MB). */
export const MAX_SCHEMATIC_BYTES = 20 * 2 ** 20;
/** One board: large boards with copper pours are about 30 MB. */
export const MAX_BOARD_BYTES = 80 * 2 ** 20;

/** A design source's zip: its caps, with the Gerber zip's ratio (KiCad text deflates 5–11×, like Gerbers). */
export const SOURCE_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: MAX_SOURCE_FILES,
  maxEntryBytes: MAX_SOURCE_FILE_BYTES,
  maxTotalBytes: MAX_SOURCE_BYTES,
  maxCompressionRatio: MAX_COMPRESSION_RATIO,
};

/**
 * The newest file format each KiCad release writes (eeschema's `SEXPR_SCHEMATIC_FILE_VERSION`,
 * pcbnew's `SEXPR_BOARD_FILE_VERSION`), oldest first. A version between two releases was written
 * by the later one's development builds (7.99 wrote 2023xxxx before 8.0 settled on 20231120), so
 * it counts as the later one. Schematics are s-expressions from KiCad 6 on (older ones are KiCad 5's
 * legacy text); a board older than KiCad 5's (KiCad 4 wrote `(version 4)`) counts as 5, the oldest
 * the contract names. The last entries are KiCad `KICAD_READS_UP_TO`'s:
 * kicad-cli 9.0.8 loads 20250114 and 20241229 and refuses one day later as "Failed to load".
 */
const SCHEMATIC_FORMATS: ReadonlyArray<readonly [major: number, newest: number]> = [
  [6, 20211123],
  [7, 20230121],
  [8, 20231120],
  [9, 20250114],
];
const BOARD_FORMATS: ReadonlyArray<readonly [major: number, newest: number]> = [
  [5, 20171130],
  [6, 20211014],
  [7, 20221018],
  [8, 20240108],
  [9, 20241229],
];

/** How a KiCad 4 or 5 schematic begins; kicad-cli 9 still exports them, hierarchy included. */
const LEGACY_SCHEMATIC = /^\uFEFF?EESchema Schematic File Version \d/;
/** The format version is in a file's opening lines; this much of a board is read to find it. */
const HEAD_BYTES = 64 * 1024;

/** Lays `input` out in `scratch` (created if missing) and finds its project; throws `SourceError`. The caller removes `scratch`, whatever the outcome. */
export async function layOutSource(input: SourceInput, scratch: string): Promise<KicadProject> {
  const root = path.resolve(scratch);
  await mkdir(root, { recursive: true });
  // When the site runs as root, kicad-cli runs as `nobody` in `folder`, which may lie below
  // `scratch`: nobody must be able to pass through it (search only, no listing), and a scratch
  // folder made by mkdtemp lets only its owner in.
  await chmod(root, 0o711);
  const files = 'zip' in input ? await layOutZip(input.zip, root) : await layOutFiles(input.files, root);
  return findProject(new Set(files), root);
}

/** Whether a file may not be written: `kicad-cli` gets its own empty HOME there, and a source never supplies its settings. */
function isKicadHome(name: string): boolean {
  return name.split('/').includes(KICAD_HOME);
}

/** A design file past its own cap is refused before it is written, let alone parsed. */
function refuseOversizedDesignFile(name: string, size: number): void {
  const cap = name.endsWith('.kicad_pcb') ? MAX_BOARD_BYTES : name.endsWith('.kicad_sch') || name.endsWith('.sch') ? MAX_SCHEMATIC_BYTES : Infinity;
  if (size > cap) throw new SourceError('archive_too_large', undefined, `${name}: ${size} bytes`);
}

/** Writes `chunks` to a new file at `name` (a normalised relative path) under `root`; a name already taken is refused. */
async function writeInside(root: string, name: string, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<void> {
  const target = path.resolve(root, name);
  if (!target.startsWith(root + path.sep)) throw new SourceError('unsafe_archive', undefined, name);
  try {
    await mkdir(path.dirname(target), { recursive: true });
    // `wx` fails on anything already there, a link included: two entries of one name, or a file
    // where a folder is wanted, never overwrite one another.
    const handle = await open(target, 'wx');
    try {
      for await (const chunk of chunks) await handle.write(chunk);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'ENAMETOOLONG' || code === 'ELOOP') {
      throw new SourceError('unsafe_archive', undefined, `${name}: ${code}`);
    }
    throw error;
  }
}

async function layOutZip(zip: Uint8Array, root: string): Promise<string[]> {
  const written: string[] = [];
  try {
    for await (const entry of readArchiveEntries(zip, SOURCE_ARCHIVE_LIMITS)) {
      const name = path.posix.normalize(entry.name);
      if (name === '.' || name.startsWith('../')) throw new SourceError('unsafe_archive', undefined, entry.name);
      if (isKicadHome(name)) continue;
      refuseOversizedDesignFile(name, entry.size);
      await writeInside(root, name, entry.chunks());
      written.push(name);
    }
  } catch (error) {
    if (error instanceof ArchiveError) throw new SourceError(error.key, undefined, [error.file, error.detail].filter(Boolean).join(': '));
    throw error;
  }
  return written;
}

/** Loose files land side by side under their base names; every cap is checked before the first is written. */
async function layOutFiles(files: Array<{ name: string; bytes: Uint8Array }>, root: string): Promise<string[]> {
  if (files.length > MAX_SOURCE_FILES) throw new SourceError('archive_too_large', undefined, `${files.length} files`);
  const named = files.map((file) => ({ name: file.name.split(/[\\/]/).pop() ?? '', bytes: file.bytes, given: file.name }));
  const seen = new Set<string>();
  let total = 0;
  for (const file of named) {
    if (file.name === '' || file.name === '.' || file.name === '..' || file.name.includes('\0')) throw new SourceError('unsafe_archive', undefined, file.given);
    if (seen.has(file.name)) throw new SourceError('unsafe_archive', undefined, `${file.name}: given twice`);
    seen.add(file.name);
    if (file.bytes.byteLength > MAX_SOURCE_FILE_BYTES) throw new SourceError('archive_too_large', undefined, file.name);
    refuseOversizedDesignFile(file.name, file.bytes.byteLength);
    total += file.bytes.byteLength;
  }
  if (total > MAX_SOURCE_BYTES) throw new SourceError('archive_too_large', undefined, `${total} bytes`);
  const kept = named.filter((file) => !isKicadHome(file.name));
  for (const file of kept) await writeInside(root, file.name, [file.bytes]);
  return kept.map((file) => file.name);
}

/** Nearest the zip's root first (fewest folders), then by name: the order project files are chosen in. */
function byDepthThenName(a: string, b: string): number {
  return a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0);
}

function stem(file: string, extension: string): string {
  return path.posix.basename(file, extension);
}

async function findProject(files: Set<string>, root: string): Promise<KicadProject> {
  const sources = schematicReader(files, root);
  const schematics: string[] = [];
  for (const file of files) {
    if (file.endsWith('.kicad_sch') || (file.endsWith('.sch') && LEGACY_SCHEMATIC.test(await readHeadText(path.join(root, file))))) schematics.push(file);
  }
  const listed = (extension: string) => [...files].filter((file) => file.endsWith(extension)).sort(byDepthThenName);

  let found: { dir: string; name: string; pcb: string | null; sch: string | null } | undefined;
  // A .kicad_pro counts when a board or a schematic lies beside it: a stray one does not hide the design.
  for (const project of listed('.kicad_pro')) {
    const dir = path.posix.dirname(project);
    const name = stem(project, '.kicad_pro');
    const pcb = files.has(path.posix.join(dir, `${name}.kicad_pcb`)) ? `${name}.kicad_pcb` : null;
    const sch = await rootSchematic(sources, schematics, dir, name);
    if (pcb || sch) {
      found = { dir, name, pcb, sch };
      break;
    }
  }
  const board = listed('.kicad_pcb')[0];
  if (!found && board) {
    const dir = path.posix.dirname(board);
    const name = stem(board, '.kicad_pcb');
    found = { dir, name, pcb: path.posix.basename(board), sch: await rootSchematic(sources, schematics, dir, name) };
  }
  const sheet = [...schematics].sort(byDepthThenName)[0];
  if (!found && sheet) {
    const dir = path.posix.dirname(sheet);
    const sch = (await rootSchematic(sources, schematics, dir, null))!;
    found = { dir, name: stem(sch, path.posix.extname(sch)), pcb: null, sch };
  }
  if (!found) throw new SourceError('no_project');

  const majors: number[] = [];
  if (found.pcb) {
    const major = savedBy(readHead(await readHeadText(path.join(root, found.dir, found.pcb)), 'kicad_pcb'), BOARD_FORMATS, found.pcb);
    if (major !== null) majors.push(major);
  }
  if (found.sch) majors.push(...(await walkSheets(sources, path.posix.join(found.dir, found.sch), found.dir)));
  return {
    name: found.name,
    folder: path.join(root, found.dir),
    pcb: found.pcb,
    sch: found.sch,
    kicadVersion: majors.length ? String(Math.max(...majors)) : null,
  };
}

/**
 * The root schematic in `dir` (a name relative to it): `<name>.kicad_sch`, else a KiCad 5
 * `<name>.sch`, else the one schematic there, else the first by name of those no other sheet
 * there includes.
 */
async function rootSchematic(sources: SchematicReader, schematics: string[], dir: string, name: string | null): Promise<string | null> {
  const here = schematics.filter((file) => path.posix.dirname(file) === dir).sort();
  for (const candidate of name === null ? [] : [`${name}.kicad_sch`, `${name}.sch`]) {
    if (here.includes(path.posix.join(dir, candidate))) return candidate;
  }
  if (here.length <= 1) return here[0] === undefined ? null : path.posix.basename(here[0]);
  const included = new Set<string>();
  for (const file of here) {
    for (const child of (await sources(file))?.sheets ?? []) {
      const resolved = resolveSheet(file, child, dir);
      if (resolved) included.add(resolved);
    }
  }
  return path.posix.basename(here.find((file) => !included.has(file)) ?? here[0]!);
}

/**
 * Where a sheet named `child` in `parent` lies: KiCad resolves it against the parent sheet's own
 * folder. Null when it leaves `folder` (absolute, a drive, `..` past the top); KiCad on Windows
 * may have written either separator.
 */
function resolveSheet(parent: string, child: string, folder: string): string | null {
  const name = child.replaceAll('\\', '/');
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return null;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(parent), name));
  const inside = path.posix.relative(folder, resolved);
  return inside === '..' || inside.startsWith('../') ? null : resolved;
}

/**
 * Walks the hierarchy from the root schematic and gives the KiCad major that saved each sheet
 * found (a missing sheet is kicad-cli's to report). A sheet outside the project folder is
 * `path_outside`; a sheet met again while inside itself is `sheet_loop` — kicad-cli 9 would skip
 * it silently and leave the author to wonder where the sheets went.
 */
async function walkSheets(sources: SchematicReader, root: string, folder: string): Promise<number[]> {
  const majors: number[] = [];
  const inside = new Set<string>();
  const done = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    inside.add(file);
    const schematic = await sources(file);
    if (schematic) {
      const major = savedBy(schematic.head, SCHEMATIC_FORMATS, file);
      if (major !== null) majors.push(major);
      for (const child of schematic.sheets) {
        const resolved = resolveSheet(file, child, folder);
        if (!resolved) throw new SourceError('path_outside', undefined, `${file}: ${child}`);
        if (inside.has(resolved)) throw new SourceError('sheet_loop', undefined, `${file}: ${child}`);
        if (!done.has(resolved)) await visit(resolved);
      }
    }
    inside.delete(file);
    done.add(file);
  };
  await visit(root);
  return majors;
}

/** What a file's head says about the KiCad that saved it. */
interface Head {
  /** `(version N)`, or 5 for a KiCad 5 schematic; null when absent or not a number. */
  version: number | null;
  /** The major of `(generator_version "X.Y")` (KiCad 8 on), null when absent. */
  generatorMajor: number | null;
  legacy: boolean;
}

/** The KiCad major that saved a file; throws `too_new` past what `KICAD_READS_UP_TO` reads. */
function savedBy(head: Head, formats: ReadonlyArray<readonly [number, number]>, file: string): number | null {
  if (head.legacy) return 5;
  if (head.version === null) return null;
  const major = formats.find(([, newest]) => head.version! <= newest)?.[0];
  if (major !== undefined) return major;
  const newer = head.generatorMajor !== null && head.generatorMajor > KICAD_READS_UP_TO ? head.generatorMajor : KICAD_READS_UP_TO + 1;
  throw new SourceError('too_new', String(newer), `${file}: version ${head.version}`);
}

/** The first `HEAD_BYTES` of a file, as text, without reading the rest. */
async function readHeadText(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

type Token = { kind: 'open' } | { kind: 'close' } | { kind: 'atom'; text: string };
const OPEN: Token = { kind: 'open' };
const CLOSE: Token = { kind: 'close' };
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t' };

/**
 * The tokens of KiCad's s-expressions: parentheses, bare atoms and quoted strings, whose `\"`,
 * `\\` and other escapes are undone (a quote or a parenthesis inside a string is text). A string
 * cut off by the end of the text ends there.
 */
function* tokenize(text: string): Generator<Token> {
  const length = text.length;
  let at = 0;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (code === 0x28) {
      at += 1;
      yield OPEN;
    } else if (code === 0x29) {
      at += 1;
      yield CLOSE;
    } else if (code <= 0x20 || code === 0xfeff) {
      at += 1;
    } else if (code === 0x22) {
      let value = '';
      let start = (at += 1);
      while (at < length && text.charCodeAt(at) !== 0x22) {
        if (text.charCodeAt(at) === 0x5c && at + 1 < length) {
          const escaped = text[at + 1]!;
          value += text.slice(start, at) + (ESCAPES[escaped] ?? escaped);
          at += 2;
          start = at;
        } else {
          at += 1;
        }
      }
      value += text.slice(start, Math.min(at, length));
      at += 1;
      yield { kind: 'atom', text: value };
    } else {
      const start = at;
      while (at < length) {
        const next = text.charCodeAt(at);
        if (next <= 0x20 || next === 0x28 || next === 0x29 || next === 0x22) break;
        at += 1;
      }
      yield { kind: 'atom', text: text.slice(start, at) };
    }
  }
}

/**
 * The version and generator of an s-expression file whose outer list is `rootName`, read from
 * the lists that open it (`(version N) (generator …) (generator_version "X.Y")`) and no further.
 */
function readHead(text: string, rootName: string): Head {
  const head: Head = { version: null, generatorMajor: null, legacy: false };
  let depth = 0;
  let list: string | null = null;
  let expectName = false;
  for (const token of tokenize(text)) {
    if (token.kind === 'open') {
      depth += 1;
      expectName = true;
      if (depth > 2) break;
    } else if (token.kind === 'close') {
      depth -= 1;
      list = null;
      if (depth <= 0) break;
    } else if (expectName) {
      expectName = false;
      if (depth === 1 && token.text !== rootName) break;
      if (depth === 2) {
        list = token.text;
        if (!['version', 'generator', 'generator_version', 'host'].includes(list)) break;
      }
    } else if (depth === 2 && list === 'version' && head.version === null) {
      const version = Number(token.text);
      head.version = Number.isInteger(version) ? version : null;
    } else if (depth === 2 && list === 'generator_version' && head.generatorMajor === null) {
      const major = /^(\d+)(?:\.|$)/.exec(token.text)?.[1];
      head.generatorMajor = major === undefined ? null : Number(major);
    } else if (depth === 1) {
      // a bare atom among the header's lists: not a header KiCad writes
      break;
    }
  }
  return head;
}

/** The file names of a schematic's sheets: `(sheet … (property "Sheetfile" "x.kicad_sch" …))` directly under the root (KiCad 6 named it "Sheet file"). */
function sexprSheetFiles(text: string): string[] {
  const files: string[] = [];
  // the name of the open list at depths 1 to 3 (kicad_sch → sheet → property); deeper ones do not matter
  const names: string[] = [];
  let depth = 0;
  let expectName = false;
  let property: string[] | null = null;
  for (const token of tokenize(text)) {
    if (token.kind === 'open') {
      depth += 1;
      expectName = true;
      // a list with no name must not pass for the last one named at its depth
      if (depth <= 3) names[depth - 1] = '';
    } else if (token.kind === 'close') {
      if (depth === 3 && property) {
        const [key, value] = property;
        if ((key === 'Sheetfile' || key === 'Sheet file') && value !== undefined) files.push(value);
        property = null;
      }
      depth -= 1;
      expectName = false;
    } else if (expectName) {
      expectName = false;
      if (depth <= 3) names[depth - 1] = token.text;
      if (depth === 1 && token.text !== 'kicad_sch') break;
      if (depth === 3 && names[1] === 'sheet' && token.text === 'property') property = [];
    } else if (depth === 3 && property && property.length < 2) {
      property.push(token.text);
    }
  }
  return files;
}

/** The file names of a KiCad 5 schematic's sheets (`F1 "x.sch" 60` inside `$Sheet … $EndSheet`), with the `.sch` its loader puts on every sheet file. */
function legacySheetFiles(text: string): string[] {
  const files: string[] = [];
  let inSheet = false;
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('$Sheet')) inSheet = true;
    else if (line.startsWith('$EndSheet')) inSheet = false;
    else if (inSheet) {
      const name = /^F1\s+"((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
      if (name !== undefined) files.push(name.replace(/\\(.)/g, '$1').replace(/(\.[^./\\]*)?$/, '.sch'));
    }
  }
  return files;
}

interface Schematic {
  head: Head;
  /** Its sheets' file names, as written. */
  sheets: string[];
}
type SchematicReader = (file: string) => Promise<Schematic | null>;

/**
 * Reads the layout's schematics, each once (the root search and the walk both ask): its head and
 * sheet file names, or null when the layout holds no such file.
 */
function schematicReader(files: Set<string>, root: string): SchematicReader {
  const read = new Map<string, Schematic | null>();
  return async (file) => {
    if (read.has(file)) return read.get(file)!;
    let schematic: Schematic | null = null;
    if (files.has(file)) {
      const absolute = path.join(root, file);
      // a sheet may name any file, not only those capped as schematics when they were written
      const { size } = await lstat(absolute);
      if (size > MAX_SCHEMATIC_BYTES) throw new SourceError('archive_too_large', undefined, `${file}: ${size} bytes`);
      const text = await readFile(absolute, 'utf8');
      schematic = LEGACY_SCHEMATIC.test(text.slice(0, 64))
        ? { head: { version: null, generatorMajor: null, legacy: true }, sheets: legacySheetFiles(text) }
        : { head: readHead(text, 'kicad_sch'), sheets: sexprSheetFiles(text) };
    }
    read.set(file, schematic);
    return schematic;
  };
}
