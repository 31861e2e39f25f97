import { avatarSrc } from '../../lib/avatar.ts';

/** A round avatar: the member's picture, or their initial on the copper tint (decorative: the name is beside it). */
export function Avatar({ src, name, size = 32 }: { src: string | null | undefined; name: string; size?: number }) {
  return <img className="avatar" src={avatarSrc(src, name)} width={size} height={size} alt="" loading="lazy" decoding="async" />;
}
