// A module (it imports), so this augments Astro's types instead of replacing them.
import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /**
     * Hydrate when the visitor starts to use the island (`./directive.ts`); `{ now: true }`
     * hydrates at once (the page came back to finish something).
     */
    'client:interaction'?: boolean | { now: boolean };
  }
}
