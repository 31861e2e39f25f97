import { describe, expect, it } from 'vitest';
import * as limits from '../../src/lib/contract/project-limits.ts';
import * as content from '../../src/server/services/project-content.ts';
import * as uploads from '../../src/server/services/uploads.ts';
import * as versions from '../../src/server/services/versions.ts';

describe('the project form limits of the contract', () => {
  // The form checks these before sending: a limit lower or higher than the server's would let a
  // member write what the server refuses, or refuse what it takes.
  it('are the ones the server holds to', () => {
    expect({ ...limits }).toEqual({
      TITLE_MAX: content.TITLE_MAX,
      SUMMARY_MAX: content.SUMMARY_MAX,
      DESCRIPTION_MAX: content.DESCRIPTION_MAX,
      TAGS_MAX: content.TAGS_MAX,
      ATTACHMENTS_MAX: content.ATTACHMENTS_MAX,
      ATTACHMENT_MAX_BYTES: uploads.ATTACHMENT_MAX_BYTES,
      FIRST_VERSION_NAME: versions.FIRST_VERSION_NAME,
    });
  });
});
