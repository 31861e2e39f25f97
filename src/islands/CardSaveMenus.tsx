import { useStore } from '@nanostores/react';
import type { IslandMessages } from '../lib/island-messages.ts';
import { createCardSaveMenus } from '../stores/save-to-collection.ts';
import { I18nProvider } from './i18n.tsx';
import { SaveMenuDialog } from './SaveToCollection.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface CardSaveMenusProps {
  /** The signed-in member's custom URL: whose collections the menus list. */
  viewerUrl: string;
  locale: string;
  messages: IslandMessages;
}

function Menus({ viewerUrl }: { viewerUrl: string }) {
  const menus = useIslandStore(() => createCardSaveMenus({ viewerUrl }));
  const active = useStore(menus.$active);
  return active ? <SaveMenuDialog key={active.projectId} menu={active.menu} /> : null;
}

/**
 * The "Save to collection" menus of a page's project cards, once per page: each card has a plain
 * button (`CardSave.astro`, no island of its own), and a press on one opens its project's menu
 * here. Its code loads when a member starts to use one of those buttons (`client:interaction`
 * with `on`), and a press made before it arrived opens the menu once it has.
 */
export default function CardSaveMenus({ locale, messages, viewerUrl }: CardSaveMenusProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Menus viewerUrl={viewerUrl} />
    </I18nProvider>
  );
}
