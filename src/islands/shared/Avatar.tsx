/** A round avatar; without a picture, the first letter of the name on the copper tint (as Avatar.astro). */
export function Avatar({ src, name, size = 32 }: { src: string | null | undefined; name: string; size?: number }) {
  const initial = (name.trim()[0] ?? '?').toUpperCase().replace(/[<&>"]/g, '');
  const fallback = `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" fill="#fbeee6"/><text x="20" y="26" font-family="sans-serif" font-size="18" font-weight="700" text-anchor="middle" fill="#8a3d12">${initial}</text></svg>`,
  )}`;
  return <img className="avatar" src={src || fallback} width={size} height={size} alt="" loading="lazy" decoding="async" />;
}
