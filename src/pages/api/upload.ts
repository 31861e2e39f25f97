import { defineEndpoint } from '../../server/http/endpoint.ts';
import { hitMemberRateLimitById } from '../../server/services/core/index.ts';
import { storeUpload, uploadFormSchema } from '../../server/services/media/index.ts';
import { readUploadForm } from '../../server/http/upload-form.ts';
import { uploadResultSchema } from '../../lib/contract/schemas/projects.ts';

/** Multipart `file` + `purpose` → `{ id, url, name, mime, size }`; content sniffed, size-limited. */
export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  rawBody: true,
  result: uploadResultSchema,
  docs: { summary: 'Upload a file', description: 'Multipart `purpose` + `file`. Content is sniffed (never trusted by name or declared type); images are downscaled to 2000 px, avatars cropped square.', tag: 'uploads', errors: ['too_large', 'unsupported_type', 'bad_request', 'rate_limited'], body: { contentType: 'multipart/form-data', schema: uploadFormSchema } },
  handler: async ({ user, context }) => {
    await hitMemberRateLimitById('upload:user', user.id);
    const { purpose, file } = await readUploadForm(context.request);
    return storeUpload(user.id, purpose, file);
  },
});
