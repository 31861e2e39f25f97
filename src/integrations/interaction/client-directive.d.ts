// A module (it imports), so this augments Astro's types instead of replacing them.
import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /**
     * Hydrate when the visitor starts to use the island (`./directive.ts`); `{ now: true }`
     * hydrates at once (the page came back to finish something); `{ on: selector }` also when
     * they start to use a control matching it elsewhere on the page, which the island serves.
     */
    'client:interaction'?: boolean | { now?: boolean; on?: string };
  }
}
