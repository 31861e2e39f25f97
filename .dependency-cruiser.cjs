/**
 * The layering of `src/`, as rules `npm test` checks (`npm run lint:deps`): a new import that
 * breaks one fails the run. Why each rule exists is in docs/architecture.md.
 */
/**
 * The service folders from the ground up: each may use the ones before it, never one after it, so
 * the folders can be read (and tested) in this order. docs/architecture.md says what each holds.
 */
const SERVICE_LAYERS = ['core', 'notifications', 'media', 'accounts', 'eda', 'projects', 'community', 'site', 'staff'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...SERVICE_LAYERS.slice(0, -1).map((name, index) => ({
      name: `services-${name}-below`,
      severity: 'error',
      comment: `services/${name}/ stands below ${SERVICE_LAYERS.slice(index + 1).join(', ')}: it never imports them.`,
      from: { path: `^src/server/services/${name}/` },
      to: { path: `^src/server/services/(${SERVICE_LAYERS.slice(index + 1).join('|')})/` },
    })),
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle anywhere, type-only imports included: a circle is two modules that can only be understood together.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'client-not-server',
      severity: 'error',
      comment: 'Islands, stores and the helpers both sides share run in the browser: they never import server code.',
      from: { path: '^src/(islands|stores|lib|scripts)/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'db-knows-no-use-case',
      severity: 'error',
      comment:
        'db/ holds the client, the schema, migrations and backups: it imports no service, loader, job kind or seed (a restore starts the queue itself, jobs/queue.ts, to make its tables).',
      from: { path: '^src/server/db/' },
      to: { path: '^src/server/(services|loaders|jobs|seed|http|routing)/', pathNot: '^src/server/jobs/queue\\.ts$' },
    },
    {
      name: 'pages-call-loaders',
      severity: 'error',
      comment: 'A page reads locals, calls one loader and renders: it never reaches a service itself (API endpoints, .ts files, call services).',
      from: { path: '^src/pages/.+\\.astro' },
      to: { path: '^src/server/(services|db)/' },
    },
    {
      name: 'only-services-query',
      severity: 'error',
      comment: 'Only services (and the seeds, db/ itself and the process entries) touch the database: loaders, endpoints, views, components and http/ call services.',
      from: { path: '^src/(server/loaders|server/http|server/jobs|server/routing|pages|views|components|layouts|middleware)' },
      to: { path: '^src/server/db/(client|notices|backup)\\.ts$' },
    },
    {
      name: 'services-below-the-web',
      severity: 'error',
      comment: 'Services are use cases: they import no loader, page, view, component, layout, island or job handler.',
      from: { path: '^src/server/services/' },
      to: { path: '^src/(server/loaders|server/routing|server/seed|pages|views|components|layouts|islands|stores)/' },
    },
    {
      name: 'services-send-jobs-only',
      severity: 'error',
      comment: 'A service sends a job through jobs/queue.ts; the job kinds (which call services) are the workers\' business.',
      from: { path: '^src/server/services/' },
      to: { path: '^src/server/jobs/', pathNot: '^src/server/jobs/queue\\.ts$' },
    },
    {
      name: 'services-below-http',
      severity: 'error',
      comment: 'Services throw AppError and validate with zod (http/errors.ts, http/validation.ts); reading requests and building responses is http/\'s and the endpoints\' business.',
      from: { path: '^src/server/services/' },
      to: { path: '^src/server/http/', pathNot: '^src/server/http/(errors|validation)\\.ts$' },
    },
    {
      name: 'folders-through-index',
      severity: 'error',
      comment: 'A service folder reaches another only through its index.ts, which names that folder\'s public functions.',
      from: { path: '^src/server/services/([^/]+)/' },
      to: { path: '^src/server/services/[^/]+/', pathNot: ['^src/server/services/$1/', '^src/server/services/[^/]+/index\\.ts$'] },
    },
    {
      name: 'outside-through-index',
      severity: 'error',
      comment: 'Loaders, endpoints, jobs, the seed and components reach a service folder only through its index.ts.',
      from: { path: '^src/', pathNot: '^src/server/services/' },
      to: { path: '^src/server/services/[^/]+/', pathNot: '^src/server/services/[^/]+/index\\.ts$' },
    },
    {
      name: 'server-lib-is-pure',
      severity: 'error',
      comment: 'server/lib holds helpers without I/O: no database, storage, queue or service.',
      from: { path: '^src/server/lib/' },
      to: { path: '^src/server/(services|db|storage|jobs|loaders|seed)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a circle of types is still a circle a reader must untangle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    extraExtensionsToScan: ['.astro'],
  },
};
