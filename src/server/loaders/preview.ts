import { getPreview } from '../services/projects/index.ts';
import { notFound, ok, signIn, type LoaderData, type PageLoader } from './page.ts';

/**
 * `/preview?id=&token=`: the preview for its author or a holder of the link token. A guest
 * without a token is asked to sign in; anyone else gets a 404. Never stored by a cache: it is
 * private, and the link may be revoked.
 */
export const loadPreviewPage = (async ({ url, locals: { user, locale } }) => {
  const id = url.searchParams.get('id')?.trim() ?? '';
  const token = url.searchParams.get('token')?.trim() || null;
  if (!id || id.length > 64) return notFound();
  if (!user && !token) return signIn('preview.title');
  const project = await getPreview(id, user?.id ?? null, token, locale);
  return ok({ project, shared: !project.viewer.isOwner }, { headers: { 'cache-control': 'private, no-store' } });
}) satisfies PageLoader<unknown>;

export type PreviewPageData = LoaderData<typeof loadPreviewPage>;
