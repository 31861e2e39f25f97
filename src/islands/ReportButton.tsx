import type { IslandMessages } from '../lib/island-messages.ts';
import { createReport, type ReportKind } from '../stores/report.ts';
import { I18nProvider } from './i18n.tsx';
import { ReportTrigger } from './report/ReportDialog.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface ReportButtonProps {
  kind: ReportKind;
  /** The id `report/submit` names the target by (a member: their custom URL). */
  id: string;
  locale: string;
  messages: IslandMessages;
}

function Button({ kind, id }: { kind: ReportKind; id: string }) {
  const report = useIslandStore(() => createReport(kind, id));
  return <ReportTrigger report={report} />;
}

/**
 * "Report" on a project, video or profile page, for signed-in members other than the author.
 * Hydrated with `client:interaction`: a reader who never reports loads none of its code; an
 * early press is held and opens the dialog once the code is here.
 */
export default function ReportButton({ locale, messages, ...props }: ReportButtonProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Button {...props} />
    </I18nProvider>
  );
}
