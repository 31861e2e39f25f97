import { isoDateTime, z } from './common.ts';

export const signInResultSchema = z.object({
  location: z.string().meta({ description: 'The return address with a one-time `code`; opening it sets the session cookie.' }),
});

export const webviewCodeSchema = z.object({ code: z.string(), expiresAt: isoDateTime });

export const loggedOutSchema = z.object({ loggedOut: z.literal(true) });
