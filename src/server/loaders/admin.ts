import type { UserRole } from '../db/schema/index.ts';
import { hasRole } from '../services/accounts/index.ts';
import { listStaffBanners, listStaffCollections, listPinnedProjects, listStaffTags } from '../services/staff/index.ts';
import { notFound, ok, signIn, type PageContext, type PageLoader, type PageOutcome } from './page.ts';

type StaffRole = Exclude<UserRole, 'member'>;

/** The staff area's sections, each with the role it needs (`/admin` lists those the viewer may open). */
export const ADMIN_SECTIONS = [
  { key: 'reports', path: '/admin/reports', role: 'moderator' },
  { key: 'banners', path: '/admin/banners', role: 'admin' },
  { key: 'collections', path: '/admin/collections', role: 'admin' },
  { key: 'recommendations', path: '/admin/recommendations', role: 'admin' },
  { key: 'tags', path: '/admin/tags', role: 'admin' },
  { key: 'audit', path: '/admin/audit', role: 'admin' },
] as const satisfies readonly { key: string; path: string; role: StaffRole }[];

export type AdminSection = (typeof ADMIN_SECTIONS)[number];
export type AdminSectionKey = AdminSection['key'];

/** The sections `role` may open. */
export function sectionsFor(role: UserRole): AdminSection[] {
  return ADMIN_SECTIONS.filter((section) => hasRole(role, section.role));
}

/**
 * The guard of every staff page, before its loader reads anything: guests are asked to sign in;
 * a member whose role falls short sees "not found", so the staff area is not advertised. Null
 * when the viewer may go on. The API behind the pages checks the role again on every call.
 */
export function staffOnly(context: PageContext, role: StaffRole): PageOutcome<never> | null {
  const user = context.locals.user;
  if (!user) return signIn('admin.signIn');
  return hasRole(user.role, role) ? null : notFound();
}

/** `/admin`: the sections this member of staff may open. */
export const loadAdminHome = (async (context) => {
  const denied = staffOnly(context, 'moderator');
  if (denied) return denied;
  return ok({ sections: sectionsFor(context.locals.user!.role) });
}) satisfies PageLoader<unknown>;

/** `/admin/banners`: every banner, live ones first. */
export const loadAdminBanners = (async (context) => {
  const denied = staffOnly(context, 'admin');
  if (denied) return denied;
  return ok({ banners: await listStaffBanners() });
}) satisfies PageLoader<unknown>;

/** `/admin/collections`: every collection with its projects in order. */
export const loadAdminCollections = (async (context) => {
  const denied = staffOnly(context, 'admin');
  if (denied) return denied;
  return ok({ collections: await listStaffCollections() });
}) satisfies PageLoader<unknown>;

/** `/admin/recommendations`: the pinned projects in order. */
export const loadAdminRecommendations = (async (context) => {
  const denied = staffOnly(context, 'admin');
  if (denied) return denied;
  return ok({ pinned: await listPinnedProjects() });
}) satisfies PageLoader<unknown>;

/** `/admin/tags`: the tag tree with counts and former slugs. */
export const loadAdminTags = (async (context) => {
  const denied = staffOnly(context, 'admin');
  if (denied) return denied;
  return ok({ tags: await listStaffTags() });
}) satisfies PageLoader<unknown>;
