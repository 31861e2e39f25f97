import { fileURLToPath } from 'node:url';

/**
 * `client:interaction`: an island whose server-rendered HTML is complete for a reader and needs
 * its code only when the visitor acts on it (stars, comments). Its JavaScript — React, i18next,
 * the island — is fetched when a pointer comes over it, a finger touches it, or focus enters it,
 * so a visitor who only reads the page downloads none of it. See `directive.ts` for how an early
 * click is kept.
 * @returns {import('astro').AstroIntegration}
 */
export function interactionDirective() {
  return {
    name: 'copperhub:client-interaction',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'interaction', entrypoint: fileURLToPath(new URL('./directive.ts', import.meta.url)) });
      },
    },
  };
}
