import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { noticeText } from '../lib/notice.ts';
import { createRemix } from '../stores/remix.ts';
import { I18nProvider } from './i18n.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface RemixButtonProps {
  projectId: string;
  /** The creation form's address without the draft (`/create/project` or its `/m` mirror). */
  formHref: string;
  locale: string;
  messages: IslandMessages;
}

function Remix({ projectId, formHref }: Omit<RemixButtonProps, 'locale' | 'messages'>) {
  const { t } = useTranslation();
  const remix = useIslandStore(() => createRemix(projectId));
  const { busy, error } = useStore(remix.$remix);
  const start = async () => {
    const draft = await remix.remix();
    if (draft) window.location.assign(`${formHref}?draft=${encodeURIComponent(draft)}`);
  };
  return (
    <div className="remix-box">
      <button type="button" className="btn" onClick={() => void start()} disabled={busy} title={t('remix.hint')} data-testid="remix">
        {busy ? t('remix.working') : t('remix.button')}
      </button>
      {error && (
        <p className="status-message error" role="alert">
          {noticeText(error, t)}
        </p>
      )}
    </div>
  );
}

/** "Remix" on a project page for signed-in members: makes a draft from the project and opens it in the form. */
export default function RemixButton({ locale, messages, ...props }: RemixButtonProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Remix {...props} />
    </I18nProvider>
  );
}
