/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    locale: import('./lib/i18n.ts').Locale;
    t: import('./lib/i18n.ts').Translate;
    /** `mobile` under `/m`, `desktop` elsewhere. */
    variant: 'desktop' | 'mobile';
    user: import('./server/services/sessions.ts').SessionUser | null;
    /** The raw session token of this request (bearer header or cookie), when valid. */
    sessionToken: string | null;
  }
}

interface ImportMetaEnv {
  readonly PUBLIC_API_BASE?: string;
  readonly PUBLIC_BUILD_ID?: string;
}
