import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { expect } from 'vitest';

/**
 * Parses `text` as XML with a real parser (fast-xml-parser, strict validation first: unclosed
 * or mismatched tags, unescaped `&` or `<`, duplicate attributes fail) and answers the tree, with
 * attributes as `@name` and every element as an array so counts are plain.
 */
export function parseXml(text: string): Record<string, unknown> {
  const valid = XMLValidator.validate(text);
  expect(valid, typeof valid === 'object' ? JSON.stringify(valid.err) : '').toBe(true);
  // XML 1.0 forbids these characters even escaped; the validator does not look for them.
  expect(text).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  return PARSER.parse(text) as Record<string, unknown>;
}

/** Every element an array (`isArray` for all but attributes), values as written, entities decoded here so values compare as a reader sees them. */
const PARSER = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  tagValueProcessor: (_name, value) => decodeEntities(value),
  attributeValueProcessor: (_name, value) => decodeEntities(value),
});

function decodeEntities(value: string): string {
  return value.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (_, entity: string) => {
    if (entity[0] === '#') return String.fromCodePoint(entity[1]!.toLowerCase() === 'x' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
    return ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[entity.toLowerCase()]!;
  });
}

type Node = Record<string, unknown[]>;

/** The first element named `name` under `node` (arrays from `arrayMode`). */
export const child = (node: unknown, name: string): Node => ((node as Node)[name] as Node[] | undefined)?.[0] as Node;
/** Every element named `name` under `node`. */
export const children = (node: unknown, name: string): Node[] => ((node as Node)[name] as Node[] | undefined) ?? [];
/** The text of the element `name` under `node` ('' when absent). */
export const text = (node: unknown, name: string): string => {
  const raw = (node as Record<string, unknown>)[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return '';
  if (typeof value === 'object' && value !== null) return String((value as Record<string, unknown>)['#text'] ?? '');
  return String(value);
};

/** A W3C datetime as sitemaps and Atom take it: a full date and time with a zone. */
export const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
