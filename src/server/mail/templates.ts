/**
 * The account emails, in the recipient's language: plain text with the links on lines of their
 * own, and the same words as simple HTML. Words come from the locale files (`mail.*`), so every
 * email exists in both languages.
 */
import { getT, isLocale, DEFAULT_LOCALE, type Locale } from '../../lib/i18n.ts';
import type { MessageKind } from '../db/schema/index.ts';
import { escapeXml } from '../../lib/xml.ts';

export interface MailMessage {
  subject: string;
  text: string;
  html: string;
  /** Every link the message carries, in order (logged when the site cannot send email). */
  links: string[];
}

/** A paragraph, or a link with its label. */
type Block = string | { label: string; href: string };

function compose(subject: string, greeting: string, blocks: Block[], footer: string): MailMessage {
  const links = blocks.flatMap((block) => (typeof block === 'string' ? [] : [block.href]));
  const text = [greeting, ...blocks.map((block) => (typeof block === 'string' ? block : `${block.label}:\n${block.href}`)), footer].join('\n\n');
  const html = [
    `<p>${escapeXml(greeting)}</p>`,
    ...blocks.map((block) =>
      typeof block === 'string' ? `<p>${escapeXml(block)}</p>` : `<p><a href="${escapeXml(block.href)}">${escapeXml(block.label)}</a></p>`,
    ),
    `<p style="color:#666">${escapeXml(footer)}</p>`,
  ].join('\n');
  return { subject, text, html: `<!doctype html><html><body style="font-family:sans-serif">${html}</body></html>`, links };
}

const tOf = (locale: string) => getT(isLocale(locale) ? (locale as Locale) : DEFAULT_LOCALE);

/** Confirms the address given at sign-up. */
export function verifyEmailMail(locale: string, input: { nickname: string; link: string; hours: number }): MailMessage {
  const t = tOf(locale);
  return compose(t('mail.verify.subject'), t('mail.greeting', { name: input.nickname }), [t('mail.verify.body'), { label: t('mail.verify.action'), href: input.link }, t('mail.expires', { count: input.hours })], t('mail.verify.ignore'));
}

/** Sets a new password ("forgot password"). */
export function resetPasswordMail(locale: string, input: { nickname: string; link: string; hours: number }): MailMessage {
  const t = tOf(locale);
  return compose(t('mail.reset.subject'), t('mail.greeting', { name: input.nickname }), [t('mail.reset.body'), { label: t('mail.reset.action'), href: input.link }, t('mail.expires', { count: input.hours })], t('mail.reset.ignore'));
}

/** Confirms a new address, sent to that address. */
export function changeEmailMail(locale: string, input: { nickname: string; link: string; hours: number; email: string }): MailMessage {
  const t = tOf(locale);
  return compose(t('mail.changeEmail.subject'), t('mail.greeting', { name: input.nickname }), [t('mail.changeEmail.body', { email: input.email }), { label: t('mail.changeEmail.action'), href: input.link }, t('mail.expires', { count: input.hours })], t('mail.changeEmail.ignore'));
}

/** One line of a digest: who did what on which project. */
export interface DigestLine {
  kind: MessageKind;
  actor: string;
  project: string;
}

/** The daily digest of unread notifications, with links to the messages and to the settings. */
export function digestMail(locale: string, input: { nickname: string; lines: DigestLine[]; messagesLink: string; settingsLink: string }): MailMessage {
  const t = tOf(locale);
  const lines = input.lines.map((line) => `• ${t(`mail.digest.line.${line.kind}`, { actor: line.actor, project: line.project })}`);
  return compose(
    t('mail.digest.subject', { count: input.lines.length }),
    t('mail.greeting', { name: input.nickname }),
    [t('mail.digest.body', { count: input.lines.length }), lines.join('\n'), { label: t('mail.digest.action'), href: input.messagesLink }, { label: t('mail.digest.settings'), href: input.settingsLink }],
    t('mail.digest.footer'),
  );
}
