import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/api-client.ts';
import { AVATAR_MAX_BYTES, avatarFailure, createProfile, validateProfile } from '../../src/stores/profile.ts';

const user = { id: 1, url: 'ada', nickname: 'Ada', avatar: null, bio: '', location: '', website: '', createdAt: '2026-01-01T00:00:00.000Z', unreadMessages: 0 };
const fields = { nickname: 'Ada', url: 'ada', bio: '', location: '', website: '' };

describe('the profile store', () => {
  it('checks the fields by the server’s rules', () => {
    expect(validateProfile(fields)).toEqual({});
    expect(validateProfile({ ...fields, url: 'Admin', website: 'ftp://example.com', bio: 'x'.repeat(501) })).toEqual({ url: 'url_reserved', website: 'website_protocol', bio: 'too_big' });
  });

  it('does not send an invalid profile: says so and names the first field to fix; typing clears its error', async () => {
    const profile = createProfile(user, 'desktop');
    profile.setField('url', 'x');
    expect(await profile.save()).toBe('url');
    expect(profile.$profile.get()).toMatchObject({ saving: false, errors: { url: 'url_length' }, formError: { key: 'profile.fixErrors', alert: true } });
    profile.setField('url', 'ada-lovelace');
    expect(profile.$profile.get().errors.url).toBeUndefined();
  });

  it('refuses an avatar over 10 MB before cropping', () => {
    const profile = createProfile(user, 'desktop');
    profile.pickAvatar(new File([new Uint8Array(AVATAR_MAX_BYTES + 1)], 'huge.jpg'));
    expect(profile.$profile.get()).toMatchObject({ cropSource: null, avatarError: { error: { errorKey: 'too_large' } } });
    const small = new File(['jpg'], 'me.jpg');
    profile.pickAvatar(small);
    expect(profile.$profile.get()).toMatchObject({ cropSource: small, avatarError: null });
  });

  it('says why an avatar was refused by the upload’s field error when there is one', () => {
    expect(avatarFailure(new ApiError(400, 'validation', 'x', { file: 'upload_invalid' }))).toEqual({ field: 'upload_invalid' });
    const refused = new ApiError(415, 'unsupported_type', 'x');
    expect(avatarFailure(refused)).toEqual({ error: refused });
  });
});
