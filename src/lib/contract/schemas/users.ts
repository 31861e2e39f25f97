import { count, isoDateTime, serialId, z } from './common.ts';

export const userProfileSchema = z
  .object({
    id: serialId,
    url: z.string(),
    nickname: z.string(),
    avatar: z.string().nullable(),
    bio: z.string(),
    location: z.string(),
    website: z.string(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'UserProfile', description: 'A member’s profile as every user endpoint answers it.' });

export const userInfoSchema = userProfileSchema
  .extend({ unreadMessages: count })
  .meta({ id: 'UserInfo', description: 'The signed-in member (`user/getUserInfo`, `user/edit`).' });

export const publicUserSchema = userProfileSchema
  .extend({
    counts: z.object({
      projects: count,
      stars: count,
      videos: count,
      followers: count.meta({ description: 'Members following them.' }),
      following: count.meta({ description: 'Members, projects and tags they follow.' }),
    }),
    followedByViewer: z.boolean().meta({ description: 'Whether the signed-in caller follows them (false for a guest).' }),
  })
  .meta({ id: 'PublicUser', description: 'A member as everyone may see them.' });

export const projectStatusCountSchema = z.object({ published: count, draft: count });
