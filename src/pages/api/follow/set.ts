import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { setFollow } from '../../../server/services/community/index.ts';
import { hitMemberRateLimitById } from '../../../server/services/core/index.ts';
import { FOLLOW_TARGET_KINDS, followStateSchema } from '../../../lib/contract/schemas/follows.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ kind: z.enum(FOLLOW_TARGET_KINDS), target: z.string().trim().min(1).max(64), value: z.boolean() }),
  result: followStateSchema,
  docs: {
    summary: 'Follow or unfollow a member, a project or a tag',
    description:
      '`target` is a member’s custom URL, a project’s id or a tag’s slug. Strict: following what you already follow (`already_following`), unfollowing what you do not (`not_following`) or following yourself (`follow_self`) is refused and changes nothing. Answers the new state and the target’s follower count.',
    tag: 'follows',
    errors: ['user_not_found', 'project_not_found', 'tag_not_found', 'follow_self', 'already_following', 'not_following', 'rate_limited'],
    example: { kind: 'project', target: EXAMPLE_IDS.project, value: true },
  },
  handler: async ({ input, user }) => {
    await hitMemberRateLimitById('follow:user', user.id);
    return setFollow(user.id, input);
  },
});
