/**
 * `astro dev` does not run our server entry, so this starts the same database (embedded under
 * DATA_DIR/pg unless DATABASE_URL is set), migrates and seeds before the dev server answers.
 * @returns {import('astro').AstroIntegration}
 */
export function devDatabase() {
  return {
    name: 'copperhub:dev-database',
    hooks: {
      'astro:server:setup': async ({ server, logger }) => {
        const { startDatabase } = await server.ssrLoadModule('/src/server/db/client.ts');
        const { seedDemoIfEmpty } = await server.ssrLoadModule('/src/server/seed/demo.ts');
        const { readConfig } = await server.ssrLoadModule('/src/server/config.ts');
        const config = readConfig();
        const database = await startDatabase({ dataDir: config.dataDir });
        if (config.seedDemo && (await seedDemoIfEmpty())) logger.info('demo content created');
        logger.info(`database ready (${database.embedded ? 'embedded' : 'DATABASE_URL'})`);
        server.httpServer?.once('close', () => void database.stop());
      },
    },
  };
}
