import { isoDateTime, z } from './common.ts';

export const signInResultSchema = z.object({
  location: z.string().meta({ description: 'The return address with a one-time `code`; opening it sets the session cookie.' }),
});

export const webviewCodeSchema = z.object({ code: z.string(), expiresAt: isoDateTime });

export const loggedOutSchema = z.object({ loggedOut: z.literal(true) });

export const mailRequestedSchema = z.object({
  sent: z.boolean().meta({ description: 'For "forgot password" always `true`, whether or not the email has an account.' }),
});

export const emailConfirmedSchema = z.object({
  purpose: z.enum(['verify', 'change_email']).meta({ description: '`verify`: the sign-up address is confirmed; `change_email`: the account moved to `email`.' }),
  email: z.string(),
});

export const emailChangeRequestedSchema = z.object({ sent: z.literal(true), email: z.string() });

const digestFrequency = z.enum(['daily', 'never']);
export const emailSettingsSchema = z.object({
  email: z.string().meta({ description: 'The address the member signs in with and receives email at.' }),
  emailVerified: z.boolean(),
  mailEnabled: z.boolean().meta({ description: 'Whether the site sends email at all (`SMTP_URL` set).' }),
  comments: digestFrequency,
  replies: digestFrequency,
  stars: digestFrequency,
});

/** What the profile's email section shows and edits. */
export type AccountEmailInfo = z.infer<typeof emailSettingsSchema>;
export type DigestKindName = 'comments' | 'replies' | 'stars';
export type DigestFrequencyName = z.infer<typeof digestFrequency>;
