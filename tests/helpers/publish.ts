import { parseInput } from '../../src/server/http/validation.ts';
import { storeUpload } from '../../src/server/services/media/index.ts';
import { saveProject, saveProjectSchema } from '../../src/server/services/projects/index.ts';

/**
 * Publishes a project of `userId` with `files` uploaded as its attachments, as the form does
 * (the tag `power` must exist); answers its public id.
 */
export async function publishWithFiles(userId: number, files: { name: string; bytes: Uint8Array }[], title = 'Stepper controller'): Promise<string> {
  const uploaded = [];
  for (const file of files) uploaded.push(await storeUpload(userId, 'attachment', file));
  const result = await saveProject(
    userId,
    parseInput(saveProjectSchema, {
      title,
      summary: 'Drives three steppers',
      description: 'A board.',
      tags: ['power'],
      licence: 'CERN-OHL-S-2.0',
      attachments: uploaded.map((file) => file.id),
      publish: true,
    }),
  );
  return result.id;
}
