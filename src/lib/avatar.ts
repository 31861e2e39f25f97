/**
 * The picture shown for a member without an avatar: their initial on the site's soft copper
 * background, as an SVG data URL (no request). Used by the server component and the islands.
 */
export function avatarFallback(name: string): string {
  const initial = (name.trim()[0] ?? '?').toUpperCase().replace(/[<&>"']/g, '');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" fill="#fbeee6"/><text x="20" y="26" font-family="sans-serif" font-size="18" font-weight="700" text-anchor="middle" fill="#8a3d12">${initial}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The avatar to show: the member's picture, or the initial fallback. */
export function avatarSrc(avatar: string | null | undefined, name: string): string {
  return avatar || avatarFallback(name);
}
