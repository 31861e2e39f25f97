import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { getDb, getGenericDb, type Database } from './client.ts';

/**
 * Statements that run on every page request, built once: Drizzle otherwise builds the same SQL
 * text again for each request (about 6 % of a member's project page, see docs/performance.md),
 * and PostgreSQL parses and plans it again. `build` returns `….prepare(name)` with
 * `sql.placeholder(…)` for what changes per request; the query is built on first use, against the
 * process's database, and again only when that database is replaced (`closeDb` in tests).
 * node-postgres prepares a named statement once on each pooled connection; Drizzle passes the
 * name. A name is the statement's on the connection, so each must be unique (checked here).
 *
 * Only for queries on the pool itself, never inside a transaction (`tx`), which is another
 * connection's business. `plan: 'generic'`: run where PostgreSQL plans it once (`getGenericDb`),
 * for a statement whose best plan is the same whatever its values.
 */
export function prepared<T>(name: string, build: (db: Database, name: string) => T, options: { plan?: 'generic' } = {}): () => T {
  claim(name);
  let built: { db: Database; query: T } | undefined;
  return () => {
    const db = options.plan === 'generic' ? getGenericDb() : getDb();
    if (built?.db !== db) built = { db, query: build(db, name) };
    return built.query;
  };
}

/**
 * A statement whose SQL has a few shapes (a guest's and a member's, newest or oldest first): one
 * prepared statement per shape, named `name:shape`.
 */
export function preparedShapes<Shape extends string, T>(name: string, shapes: readonly Shape[], build: (db: Database, shape: Shape, name: string) => T): (shape: Shape) => T {
  const byShape = new Map(shapes.map((shape) => [shape, prepared(`${name}:${shape}`, (db, full) => build(db, shape, full))]));
  return (shape) => {
    const query = byShape.get(shape);
    if (!query) throw new Error(`prepared statement ${name} has no shape ${shape}`);
    return query();
  };
}

/**
 * Statements whose shape the caller names when it runs them: `statement(shape, ...inputs)` builds
 * `name:shape` from the first call's `inputs` and reuses it for every later call with that shape,
 * so the caller promises that one shape always comes with the same `inputs` (a list's condition
 * and order).
 */
export function preparedOnDemand<Inputs extends unknown[], T>(
  name: string,
  build: (db: Database, name: string, ...inputs: Inputs) => T,
  options: { plan?: 'generic' } = {},
): (shape: string, ...inputs: Inputs) => T {
  const byShape = new Map<string, () => T>();
  return (shape, ...inputs) => {
    let query = byShape.get(shape);
    if (!query) {
      query = prepared(`${name}:${shape}`, (db, full) => build(db, full, ...inputs), options);
      byShape.set(shape, query);
    }
    return query();
  };
}

const dialect = new PgDialect();

/** A statement written as SQL (what `db.execute(sql\`…\`)` runs) prepared as `name`, for `prepared`'s `build`. */
export function prepareSql<Row extends Record<string, unknown>>(db: Database, name: string, query: SQL): { execute(values?: Record<string, unknown>): Promise<{ rows: Row[] }> } {
  return db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false) as unknown as { execute(values?: Record<string, unknown>): Promise<{ rows: Row[] }> };
}

// Per process, not per module copy (the built site bundles its own copy of this module): a name
// claimed twice by the same module is fine, by two different statements is not, but both copies
// hold the same statements, so names are checked within one copy only.
const names = new Set<string>();

function claim(name: string): void {
  if (names.has(name)) throw new Error(`prepared statement name ${name} is used twice`);
  names.add(name);
}
