/**
 * `robots.txt`: what crawlers leave alone, and where the sitemap index is. The `/m` mirrors stay
 * open: each names its desktop page as canonical (and the desktop page names it as its phone
 * version), which a crawler can only learn by reading it; closing them would leave the pair
 * unconfirmed. Closed: the API, the SSO, previews (private share links), the admin area, the
 * creation and sign-out pages, the owner-only member tabs, signed video addresses and the
 * fabrication downloads (large files with nothing to index).
 */
const PRIVATE_PATHS = [
  '/api/',
  '/sso/',
  '/preview',
  '/m/preview',
  '/admin',
  '/m/admin',
  '/create/',
  '/m/create/',
  '/logout',
  '/m/logout',
  '/user/*/message',
  '/m/user/*/message',
  '/user/*/draftbox',
  '/m/user/*/draftbox',
  '/video/stream/',
  '/eda/*/fabrication.zip',
  '/eda/*/bom.csv',
  '/eda/*/cpl.csv',
  '/eda/*/board-*-gerbers.zip',
];

/** The text of `/robots.txt` for a site at `origin`. */
export function buildRobotsTxt(origin: string): string {
  return ['User-agent: *', ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`), '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}
