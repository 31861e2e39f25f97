/** The envelope every API answer uses (PRODUCT.md §6). */
export type ApiEnvelope<T> =
  | { retCode: 0; result: T }
  | { retCode: number; message: string; errorKey: string; fields?: Record<string, string> };

/** The signed-in user as `user/getUserInfo` answers it. */
export interface UserInfo {
  id: number;
  url: string;
  nickname: string;
  avatar: string | null;
  bio: string;
  location: string;
  website: string;
  createdAt: string;
  unreadMessages: number;
}
