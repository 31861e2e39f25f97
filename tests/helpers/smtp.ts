import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the test's SMTP server received, decoded enough to read its words and links. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The text part, transfer encoding undone. */
  text: string;
  /** Every http(s) link of the text part. */
  links: string[];
}

function decodePart(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function decodeSubject(raw: string): string {
  const line = /^subject:\s*((?:.*)(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
  return line.replace(/\r?\n[ \t]/g, ' ').replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodePart('content-transfer-encoding: quoted-printable', text.replace(/_/g, ' ')),
  );
}

/** The text/plain part of a raw message (the whole body when it is not multipart). */
function textOf(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head)?.[1];
  if (!boundary) return decodePart(head, body);
  for (const part of body.split(`--${boundary}`)) {
    const at = part.indexOf('\r\n\r\n');
    if (at < 0) continue;
    const partHead = part.slice(0, at);
    if (/content-type:\s*text\/plain/i.test(partHead)) return decodePart(partHead, part.slice(at + 4).replace(/\r\n$/, ''));
  }
  return '';
}

/**
 * A real SMTP server on a free port of 127.0.0.1 that keeps every message it is given, for
 * tests that follow the links of the site's emails.
 */
export async function startSmtpServer(): Promise<{ url: string; mails: ReceivedMail[]; waitForMail: (to: string, match?: RegExp, timeoutMs?: number) => Promise<ReceivedMail>; stop: () => Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const text = textOf(raw);
        mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: decodeSubject(raw),
          text,
          links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  /** The first message to `to` (whose subject or text matches `match`), waiting for it to arrive. */
  async function waitForMail(to: string, match?: RegExp, timeoutMs = 15_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = mails.find((mail) => mail.to.includes(to.toLowerCase()) && (!match || match.test(mail.subject) || match.test(mail.text)));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms (received: ${JSON.stringify(mails.map((mail) => [mail.to, mail.subject]))})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  return { url: `smtp://127.0.0.1:${port}`, mails, waitForMail, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
