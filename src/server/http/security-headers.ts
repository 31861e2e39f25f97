import type { APIContext } from 'astro';
import { DIGIKEY_ORIGIN } from '../../lib/eda-order.ts';

/**
 * The site's security headers, in one place.
 *
 * Pages get their Content-Security-Policy from Astro (`security.csp` in `astro.config.mjs`, built
 * from `pageCspDirectives` below): Astro hashes every inline script it renders (island hydration,
 * client directives, bundled `<script>`s small enough to inline) and writes `script-src 'self'`
 * plus those hashes, so no other inline script and no `on*=` attribute runs. Everything else the
 * server answers (API JSON, `/healthz`, built assets, redirects) keeps the strict fallback of
 * `SECURITY_HEADERS`, which the node server sets first on every response; a page's own policy
 * replaces it, and stored files (`/files/…`) replace it with theirs.
 */

/**
 * Browser features no page of the site uses: an injected or embedded script cannot ask for them.
 * `fullscreen` stays allowed for the video player.
 */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'serial=()',
  'usb=()',
].join(', ');

/** A directive as Astro's CSP support takes it (its name is checked against the ones Astro knows). */
export type CspDirective = Parameters<NonNullable<APIContext['csp']>['insertDirective']>[0];

/** A policy for answers that are not pages: they load nothing and nobody frames them. */
export const FALLBACK_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Set on every response before it is routed; a page or a stored file overrides the policy. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': FALLBACK_CSP,
  'x-content-type-options': 'nosniff',
  // `frame-ancestors 'none'` says the same to browsers that read CSP; this is for the others.
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': PERMISSIONS_POLICY,
};

/** Adds `SECURITY_HEADERS` to a node response that has not been written yet. */
export function applySecurityHeaders(res: { setHeader(name: string, value: string): unknown }): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined; // a path on this site: 'self' already covers it
  }
}

/**
 * The page policy's directives besides `script-src` and `style-src` (Astro writes those), fixed at
 * build time like `PUBLIC_API_BASE`, the islands' API origin.
 * - `connect-src`: `blob:` for the 3D viewer, which reads a model's embedded face pictures
 *   through blob addresses (three.js's GLTFLoader).
 * - `img-src`: stored files, avatars drawn as `data:` SVG, the cropper's `blob:` previews and the
 *   `http(s)` images a project description may embed.
 * - `media-src`: videos from stored files; `blob:` for a video chosen for upload.
 * - `frame-ancestors 'none'`: no site may frame a page (clickjacking); it only works in a header,
 *   which is where Astro puts the policy of a server-rendered page.
 */
export function pageCspDirectives(env: Record<string, string | undefined> = process.env): CspDirective[] {
  const apiOrigin = originOf(env.PUBLIC_API_BASE);
  return [
    "default-src 'self'",
    `connect-src 'self' blob:${apiOrigin ? ` ${apiOrigin}` : ''}`,
    "img-src 'self' data: blob: https: http:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    // Digi-Key's fast-add form: the BOM's "add all to cart" posts the parts there (`lib/eda-order.ts`).
    `form-action 'self' ${DIGIKEY_ORIGIN}`,
    "frame-ancestors 'none'",
  ];
}

/**
 * What a page adds to its policy at run time from the runtime configuration: the analytics
 * script's origin (to load it and let it report), the origins a sign-in form may hand over to
 * (the SSO answers a posted form with a redirect to the return address, which `form-action` covers)
 * and the bucket's origin, where a video's signed address redirects when files are in S3.
 */
export function runtimeCspAdditions(config: { analyticsSrc?: string | undefined; siteUrl?: string | undefined; ssoAllowedOrigins: string[]; storageOrigin?: string | undefined }): {
  scriptResources: string[];
  directives: CspDirective[];
} {
  const analytics = originOf(config.analyticsSrc);
  const formTargets = [originOf(config.siteUrl), ...config.ssoAllowedOrigins.map(originOf)].filter((origin): origin is string => Boolean(origin));
  const directives: CspDirective[] = [];
  if (analytics) directives.push(`connect-src 'self' blob: ${analytics}`);
  if (formTargets.length > 0) directives.push(`form-action 'self' ${[...new Set([DIGIKEY_ORIGIN, ...formTargets])].join(' ')}`);
  const storage = originOf(config.storageOrigin);
  if (storage) directives.push(`media-src 'self' blob: ${storage}`);
  return { scriptResources: analytics ? [analytics] : [], directives };
}
