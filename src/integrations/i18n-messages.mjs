/**
 * Registers `/_i18n/{locale}/messages.json`: folders starting with `_` in `src/pages` are not
 * routed, so the route is injected from here.
 * @returns {import('astro').AstroIntegration}
 */
export function i18nMessages() {
  return {
    name: 'copperhub:i18n-messages',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        injectRoute({ pattern: '/_i18n/[locale]/messages.json', entrypoint: './src/server/routing/i18n-messages.ts' });
      },
    },
  };
}
