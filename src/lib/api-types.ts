import type { ErrorEnvelope } from './contract/errors.ts';
import type { z } from 'zod';
import type { userInfoSchema, userProfileSchema } from './contract/schemas/users.ts';
import type { draftItemSchema } from './contract/schemas/projects.ts';

/** The envelope every API answer uses: `retCode` 0 with the result, or the error envelope. */
export type ApiEnvelope<T> = { retCode: 0; result: T } | ErrorEnvelope;

/** A member's profile as every user endpoint answers it. */
export type UserProfile = z.infer<typeof userProfileSchema>;

/** The signed-in user as `user/getUserInfo` answers it. */
export type UserInfo = z.infer<typeof userInfoSchema>;

/** A row of the draft box (`user/getUserProjectList` with `status: draft`). */
export type DraftItem = z.infer<typeof draftItemSchema>;
