/**
 * Sending account email: one nodemailer transport from `SMTP_URL`, the sender from `MAIL_FROM`.
 * Without `SMTP_URL` the message is written to the server log as one line (recipient, subject,
 * links), so a developer can copy a link and go on. Only the mail jobs call `sendMail`: a
 * request never waits on an SMTP server.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import { getConfig } from '../../config.ts';
import type { MailMessage } from '../../mail/templates.ts';

interface MailState {
  transport?: Transporter;
  url?: string;
}
// The built site and the server entry each load this module: one transport per process.
const state: MailState = ((globalThis as { [key: symbol]: MailState })[Symbol.for('copperhub.mail')] ??= {});

/** Whether the site can send email (`SMTP_URL` set): then sign-up asks new members to confirm their address. */
export function canSendMail(): boolean {
  return Boolean(getConfig().smtpUrl);
}

function transportFor(url: string): Transporter {
  if (state.transport && state.url === url) return state.transport;
  state.transport?.close();
  state.transport = nodemailer.createTransport(url);
  state.url = url;
  return state.transport;
}

/** The one log line of a message that was not sent (no `SMTP_URL`). */
export function mailLogLine(to: string, message: MailMessage): string {
  return `[mail] not sent (SMTP_URL unset) to=${to} subject=${JSON.stringify(message.subject)} links=${message.links.join(' ')}`;
}

/** Sends `message` to `to`, or logs it when the site has no SMTP server. Throws what the server refuses (the job retries). */
export async function sendMail(to: string, message: MailMessage): Promise<{ sent: boolean }> {
  const { smtpUrl, mailFrom } = getConfig();
  if (!smtpUrl) {
    console.log(mailLogLine(to, message));
    return { sent: false };
  }
  await transportFor(smtpUrl).sendMail({ from: mailFrom, to, subject: message.subject, text: message.text, html: message.html });
  return { sent: true };
}
