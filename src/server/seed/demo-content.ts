/**
 * The demo content as data files under `seed/demo/` (see its README): YAML for members, the tag
 * tree, comments, banners, collections, donations, build logs, makes and members' collections, and
 * one Markdown file with YAML front matter per project. Read and checked here; `demo.ts` turns it into rows. Every file is checked
 * against a schema and every reference (owner, tag, project, member) is resolved, so a mistake
 * stops the seed with the file and field at fault instead of half-seeding.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { forbidsDerivatives, LICENCE_IDS } from '../../lib/licences.ts';
import { LOG_BODY_MAX, LOG_TITLE_MAX } from '../../lib/logs.ts';
import { tagNameProblem, tagSlugOf } from '../../lib/tag-names.ts';
import { MAKE_IMAGES_MAX, MAKE_NOTE_MAX_CHARACTERS } from '../services/community/index.ts';
import { MASK_COLORS } from './images.ts';

/** Where the demo content lives, from the source tree (the server runs its sources directly). */
export const DEMO_CONTENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../seed/demo');

const slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lower-case letters, digits and single hyphens');
const colour = z.string().regex(/^#[0-9a-f]{6}$/i, 'a colour like #0f5a2a');
const gradient = z.tuple([colour, colour]);

const tagSchema = z.strictObject({ slug, nameEn: z.string().min(1), nameZh: z.string().min(1) });
const tagTreeSchema = z.array(tagSchema.extend({ children: z.array(tagSchema) }));

const userSchema = z.strictObject({
  url: slug,
  nickname: z.string().min(1),
  /** ASCII letters drawn on the generated avatar. */
  initials: z.string().regex(/^[A-Za-z]{1,2}$/),
  bio: z.string(),
  location: z.string(),
  website: z.union([z.url(), z.literal('')]),
});

const commentPoolSchema = z.strictObject({
  comments: z.array(z.strictObject({ body: z.string().min(1), answer: z.string().min(1) })).min(1),
  followUps: z.array(z.string().min(1)).min(1),
});
const commentsSchema = z.strictObject({ en: commentPoolSchema, zh: commentPoolSchema });

const bannerSchema = z.strictObject({ titleEn: z.string().min(1), titleZh: z.string().min(1), link: z.string().startsWith('/'), colours: gradient });

const collectionSchema = z.strictObject({
  name: slug,
  titleEn: z.string().min(1),
  titleZh: z.string().min(1),
  descriptionEn: z.string(),
  descriptionZh: z.string(),
  colours: gradient,
  /** Project file names, in order. */
  projects: z.array(slug).min(1),
});

const donationSchema = z.strictObject({
  donor: z.string().min(1),
  /** A demo member's url when the donor gave while signed in. */
  user: slug.optional(),
  /** In the smallest unit of the currency. */
  amount: z.number().int().positive(),
  currency: z.enum(['USD', 'CNY']),
  message: z.string(),
  /** The file name of the project the donation supports. */
  project: slug.optional(),
});

/** A project's build logs, numbered 1..n in this order; written by its owner. */
const projectLogsSchema = z.strictObject({
  project: slug,
  logs: z
    .array(z.strictObject({ title: z.string().trim().min(1).max(LOG_TITLE_MAX), body: z.string().trim().min(1).max(LOG_BODY_MAX) }))
    .min(1),
});

const makeSchema = z.strictObject({
  project: slug,
  /** A member's url: not the project's owner. */
  maker: slug,
  /** How many generated photos of the built board. */
  photos: z.number().int().min(1).max(MAKE_IMAGES_MAX),
  /** The mask colour of the board they built. */
  mask: z.enum(MASK_COLORS),
  note: z.string().trim().max(MAKE_NOTE_MAX_CHARACTERS),
  link: z.url({ protocol: /^https?$/ }).optional(),
});

const memberCollectionSchema = z.strictObject({
  owner: slug,
  title: z.string().trim().min(1).max(80),
  description: z.string().max(500),
  /** False: seen by its owner only. */
  public: z.boolean(),
  projects: z.array(slug).min(1),
});

const projectFrontSchema = z.strictObject({
  title: z.string().min(1),
  summary: z.string().min(1),
  /** The url of the demo member who owns it. */
  owner: slug,
  /** The language of the project, which also decides the language of most of its comments. */
  lang: z.enum(['en', 'zh']),
  licence: z.enum(LICENCE_IDS),
  tags: z.array(slug).min(1),
  /**
   * Tags the owner typed when publishing that are not in the staff tree: made as publishing makes
   * them (outside the tree, named as typed, by the first owner in file order who used the name).
   */
  memberTags: z.array(z.string().min(1)).optional(),
  /** Curated position on `/recommend`. */
  recommend: z.number().int().positive().optional(),
  /** The file name of the project this one is a remix of (its licence must allow derivatives). */
  remixOf: slug.optional(),
  /**
   * The generated PCB artwork: its silkscreen label, the part number on its main chip and the mask
   * colour. A project with real design files may go without: its board render is its picture.
   */
  cover: z
    .strictObject({
      label: z.string().regex(/^[\x20-\x7e]+$/, 'printable ASCII (drawn on the artwork)'),
      chip: z.string().regex(/^[\x20-\x7e]+$/, 'printable ASCII (drawn on the artwork)'),
      mask: z.enum(MASK_COLORS),
    })
    .optional(),
  /** Real design files from `seed/demo/eda/`, attached as a member would upload them. */
  design: z
    .strictObject({
      /** A folder of Gerber and drill files: attached as one zip, or one by one with `gerbersAsFiles`. */
      gerbers: z.string().regex(/^[a-z0-9-]+$/).optional(),
      /** A folder holding a KiCad project (its design source): attached as a zip of the folder, as a member would. */
      kicad: z.string().regex(/^[a-z0-9-]+$/).optional(),
      gerbersAsFiles: z.boolean().optional(),
      /** A BOM file (path under `seed/demo/eda/`). */
      bom: z.string().regex(/^[a-z0-9-]+\/[\w.-]+$/i).optional(),
      /** A pick-and-place file (path under `seed/demo/eda/`). */
      placements: z.string().regex(/^[a-z0-9-]+\/[\w.-]+$/i).optional(),
    })
    .optional(),
});

export type TagSeed = z.infer<typeof tagSchema>;
export type TagParentSeed = z.infer<typeof tagTreeSchema>[number];
export type UserSeed = z.infer<typeof userSchema>;
export type CommentPool = z.infer<typeof commentPoolSchema>;
export type BannerSeed = z.infer<typeof bannerSchema>;
export type CollectionSeed = z.infer<typeof collectionSchema>;
export type DonationSeed = z.infer<typeof donationSchema>;
export type ProjectLogsSeed = z.infer<typeof projectLogsSchema>;
export type MakeSeed = z.infer<typeof makeSchema>;
export type MemberCollectionSeed = z.infer<typeof memberCollectionSchema>;
export type ProjectSeed = z.infer<typeof projectFrontSchema> & {
  /** The file name without `.md`: how collections and donations name the project. */
  slug: string;
  /** The Markdown description (the file's body). */
  description: string;
};

export interface DemoContent {
  users: UserSeed[];
  tags: TagParentSeed[];
  /** In file-name order. */
  projects: ProjectSeed[];
  comments: { en: CommentPool; zh: CommentPool };
  banners: BannerSeed[];
  collections: CollectionSeed[];
  donations: DonationSeed[];
  /** Build logs, per project. */
  logs: ProjectLogsSeed[];
  /** Makes, oldest first. */
  makes: MakeSeed[];
  memberCollections: MemberCollectionSeed[];
  /** Where the projects' design files are (`seed/demo/eda/`). */
  edaDir: string;
}

/** A problem in the demo content files. */
export class DemoContentError extends Error {
  override name = 'DemoContentError';
}

function check<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new DemoContentError(`${file}: ${z.prettifyError(result.error)}`);
  return result.data;
}

function readYaml<T>(dir: string, name: string, schema: z.ZodType<T>): T {
  const file = path.join(dir, name);
  return check(schema, parseYaml(readFileSync(file, 'utf8')), file);
}

/** `---` YAML front matter `---`, then the Markdown body. */
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/;

function readProject(file: string): ProjectSeed {
  const match = FRONT_MATTER.exec(readFileSync(file, 'utf8'));
  if (!match) throw new DemoContentError(`${file}: must start with YAML front matter between two --- lines`);
  const front = check(projectFrontSchema, parseYaml(match[1]!), file);
  const description = match[2]!;
  if (!description.trim()) throw new DemoContentError(`${file}: the Markdown description after the front matter is empty`);
  return { ...front, slug: path.basename(file, '.md'), description };
}

function unique(values: string[], what: string, file: string): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw new DemoContentError(`${file}: ${what} "${value}" appears twice`);
    seen.add(value);
  }
}

function known(set: Set<string>, value: string | undefined, what: string, file: string): void {
  if (value !== undefined && !set.has(value)) throw new DemoContentError(`${file}: unknown ${what} "${value}"`);
}

/** Reads and checks the demo content in `dir` (default `seed/demo/`). Throws DemoContentError on any mistake. */
export function loadDemoContent(dir: string = DEMO_CONTENT_DIR): DemoContent {
  // at least three members: a reply thread needs someone besides the owner and the last writer
  const users = readYaml(dir, 'users.yaml', z.array(userSchema).min(3));
  const tags = readYaml(dir, 'tags.yaml', tagTreeSchema);
  const comments = readYaml(dir, 'comments.yaml', commentsSchema);
  const banners = readYaml(dir, 'banners.yaml', z.array(bannerSchema));
  const collections = readYaml(dir, 'collections.yaml', z.array(collectionSchema));
  const donations = readYaml(dir, 'donations.yaml', z.array(donationSchema));
  const logs = readYaml(dir, 'logs.yaml', z.array(projectLogsSchema));
  const makes = readYaml(dir, 'makes.yaml', z.array(makeSchema));
  const memberCollections = readYaml(dir, 'member-collections.yaml', z.array(memberCollectionSchema));
  const projectDir = path.join(dir, 'projects');
  const projects = readdirSync(projectDir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => readProject(path.join(projectDir, name)));
  if (projects.length === 0) throw new DemoContentError(`${projectDir}: no project files (*.md)`);

  const at = (name: string) => path.join(dir, name);
  unique(users.map((user) => user.url), 'member url', at('users.yaml'));
  const tagSlugs = tags.flatMap((parent) => [parent.slug, ...parent.children.map((child) => child.slug)]);
  unique(tagSlugs, 'tag slug', at('tags.yaml'));
  unique(collections.map((collection) => collection.name), 'collection name', at('collections.yaml'));

  const userUrls = new Set(users.map((user) => user.url));
  const tagSet = new Set(tagSlugs);
  const projectSlugs = new Set(projects.map((project) => project.slug));
  for (const project of projects) {
    const file = path.join(projectDir, `${project.slug}.md`);
    known(userUrls, project.owner, 'owner', file);
    for (const tag of project.tags) known(tagSet, tag, 'tag', file);
    for (const name of project.memberTags ?? []) {
      const problem = tagNameProblem(name);
      if (problem) throw new DemoContentError(`${file}: member tag "${name}" cannot be a tag (${problem})`);
      if (tagSet.has(tagSlugOf(name))) throw new DemoContentError(`${file}: member tag "${name}" is the staff tag "${tagSlugOf(name)}": list it under tags`);
    }
    const design = project.design;
    if (design) {
      const edaDir = path.join(dir, 'eda');
      for (const rel of [design.gerbers, design.bom, design.placements]) {
        if (rel && !existsSync(path.join(edaDir, rel))) throw new DemoContentError(`${file}: design file or folder "${rel}" is not in ${edaDir}`);
      }
    }
  }
  for (const collection of collections) {
    for (const project of collection.projects) known(projectSlugs, project, `project in collection ${collection.name}`, at('collections.yaml'));
  }
  for (const donation of donations) {
    known(userUrls, donation.user, 'member', at('donations.yaml'));
    known(projectSlugs, donation.project, 'project', at('donations.yaml'));
  }
  const projectBySlug = new Map(projects.map((project) => [project.slug, project]));
  for (const project of projects) {
    const file = path.join(projectDir, `${project.slug}.md`);
    if (project.remixOf === undefined) continue;
    known(projectSlugs, project.remixOf, 'project in remixOf', file);
    if (project.remixOf === project.slug) throw new DemoContentError(`${file}: a project cannot be a remix of itself`);
    const original = projectBySlug.get(project.remixOf)!;
    if (forbidsDerivatives(original.licence)) throw new DemoContentError(`${file}: remixOf "${project.remixOf}" has a licence without derivatives (${original.licence})`);
  }
  unique(logs.map((entry) => entry.project), 'project', at('logs.yaml'));
  for (const entry of logs) known(projectSlugs, entry.project, 'project', at('logs.yaml'));
  for (const make of makes) {
    known(projectSlugs, make.project, 'project', at('makes.yaml'));
    known(userUrls, make.maker, 'maker', at('makes.yaml'));
    if (projectBySlug.get(make.project)!.owner === make.maker) throw new DemoContentError(`${at('makes.yaml')}: ${make.maker} makes their own project "${make.project}"`);
  }
  for (const collection of memberCollections) {
    known(userUrls, collection.owner, 'owner', at('member-collections.yaml'));
    unique(collection.projects, `project in "${collection.title}"`, at('member-collections.yaml'));
    for (const project of collection.projects) known(projectSlugs, project, `project in "${collection.title}"`, at('member-collections.yaml'));
  }
  return { users, tags, projects, comments, banners, collections, donations, logs, makes, memberCollections, edaDir: path.join(dir, 'eda') };
}
