import { defineEndpoint } from '../../server/http/endpoint.ts';
import { hitRateLimit } from '../../server/services/rate-limit.ts';
import { readUploadForm, storeUpload } from '../../server/services/uploads.ts';

/** Multipart `file` + `purpose` → `{ id, url, name, mime, size }`; content sniffed, size-limited. */
export const { POST, ALL } = defineEndpoint({
  auth: true,
  rawBody: true,
  handler: async ({ user, context }) => {
    await hitRateLimit('upload:user', user.id);
    const { purpose, file } = await readUploadForm(context.request);
    return storeUpload(user.id, purpose, file);
  },
});
