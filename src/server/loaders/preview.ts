import type { AstroGlobal } from 'astro';
import { getPreview } from '../services/releases.ts';
import { loadPage } from './page.ts';

export type PreviewPageResult =
  | { kind: 'page'; project: Awaited<ReturnType<typeof getPreview>>; shared: boolean }
  | { kind: 'signIn' }
  | { kind: 'notFound' };

/**
 * `/preview?id=&token=` (both variants): the preview for its author or a holder of the link
 * token. A guest without a token is asked to sign in; anyone else gets a 404.
 */
export async function resolvePreviewPage(astro: AstroGlobal): Promise<PreviewPageResult> {
  const id = astro.url.searchParams.get('id')?.trim() ?? '';
  const token = astro.url.searchParams.get('token')?.trim() || null;
  const { user, locale } = astro.locals;
  if (!id || id.length > 64) {
    astro.response.status = 404;
    return { kind: 'notFound' };
  }
  if (!user && !token) return { kind: 'signIn' };
  const project = await loadPage(astro, () => getPreview(id, user?.id ?? null, token, locale));
  if (!project) return { kind: 'notFound' };
  return { kind: 'page', project, shared: !project.viewer.isOwner };
}
