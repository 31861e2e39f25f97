import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { deleteMake } from '../../../server/services/community/index.ts';
import { makeDeletedSchema } from '../../../lib/contract/schemas/makes.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
  result: makeDeletedSchema,
  docs: { summary: 'Delete a make', description: 'Its maker may delete it, and so may the owner of the project it was made from; answers the project’s new make count.', tag: 'makes', errors: ['make_not_found'], example: { id: EXAMPLE_IDS.make } },
  handler: ({ input, user }) => deleteMake(user.id, input.id),
});
