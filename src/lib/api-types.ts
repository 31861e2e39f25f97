import type { ErrorEnvelope } from './contract/errors.ts';

/** The envelope every API answer uses: `retCode` 0 with the result, or the error envelope. */
export type ApiEnvelope<T> = { retCode: 0; result: T } | ErrorEnvelope;

/** A member's profile as every user endpoint answers it. */
export interface UserProfile {
  id: number;
  url: string;
  nickname: string;
  avatar: string | null;
  bio: string;
  location: string;
  website: string;
  createdAt: string;
}

/** The signed-in user as `user/getUserInfo` answers it. */
export interface UserInfo extends UserProfile {
  unreadMessages: number;
}

/** A row of the draft box (`user/getUserProjectList` with `status: draft`). */
export interface DraftItem {
  id: string;
  status: 'draft';
  title: string;
  summary: string;
  cover: string | null;
  projectId: string | null;
  projectTitle: string | null;
  updatedAt: string;
}
