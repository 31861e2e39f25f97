/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    locale: import('./lib/i18n.ts').Locale;
    t: import('./lib/i18n.ts').Translate;
    /** `mobile` under `/m`, `desktop` elsewhere. */
    variant: 'desktop' | 'mobile';
    /**
     * The address the visitor asked for: `/m/x` on mobile, while `Astro.url` is `/x`, the desktop
     * route that serves both. Links back to "this page" (sign-in, pagination) use this one.
     */
    url: URL;
    user: import('./server/services/accounts/index.ts').SessionUser | null;
    /** The raw session token of this request (bearer header or cookie), when valid. */
    sessionToken: string | null;
    /** A write from another site reached a form page that shows the refusal itself (`src/server/http/csrf.ts`). */
    crossSiteWrite?: boolean;
    /** The signed-in member as the header shows them; set by the page runner (`loadPage`). */
    viewer?: import('./lib/api-types.ts').UserInfo | null;
    /**
     * Set by the error page when what failed is a service out of reach for a moment (the database,
     * the bucket): the middleware answers 503 with `Retry-After` instead of Astro's fixed 500.
     */
    unavailable?: { retryAfterSeconds: number };
    /** What a page writes once however many components ask (the card save menus: `CardSave.astro`). */
    writtenOnce?: Set<string>;
    /**
     * A guest render for the page cache of a `fillable` route: each `MemberPlace` marks itself so
     * that a member's page can be filled in from this one (`src/server/page-cache/places.ts`).
     */
    markPlaces?: boolean;
    /**
     * Set by the server (never by a request) when it renders the places of a guest page for a
     * member: the page they asked for and the places to render (`src/pages/places-fill.astro`).
     */
    fill?: {
      path: string;
      places: import('./server/page-cache/places.ts').PlaceCall[];
      /** The member's session, as the page cache read it for this request (`findMemberPageState`): not read again. */
      session?: import('./server/services/accounts/index.ts').FoundSession;
    };
  }
}

interface ImportMetaEnv {
  readonly PUBLIC_API_BASE?: string;
  readonly PUBLIC_BUILD_ID?: string;
}
