import { map } from 'nanostores';
import { ApiError, apiCall } from '../lib/api-client.ts';
import type { UserInfo } from '../lib/api-types.ts';
import { avatarSrc } from '../lib/avatar.ts';
import { fail, invalid, say, warn, type Notice } from '../lib/notice.ts';
import { userPath, variantPath, type Variant } from '../lib/paths.ts';
import { BIO_MAX, customUrlProblem, isWebsiteAllowed, LOCATION_MAX, nicknameProblem, WEBSITE_MAX } from '../lib/profile-rules.ts';
import { setUserInfo } from './auth.ts';
import { PICTURE_MAX_BYTES, PICTURE_TYPES } from '../lib/pictures.ts';
import { createImagePick } from './image-pick.ts';

/** Accepted avatar files; the server checks the content again. */
export const AVATAR_TYPES = PICTURE_TYPES;
export const AVATAR_MAX_BYTES = PICTURE_MAX_BYTES;

export interface ProfileFields {
  nickname: string;
  url: string;
  bio: string;
  location: string;
  website: string;
}

export type ProfileField = keyof ProfileFields;

/** Field → validation key (`too_big`, `url_reserved`, …). */
export type ProfileErrors = Partial<Record<ProfileField, string>>;

export interface ProfileState {
  fields: ProfileFields;
  errors: ProfileErrors;
  /** Why the whole form was not saved. */
  formError: Notice | null;
  saving: boolean;
  /** The picture being cropped (the cropper dialog is open while set). */
  cropSource: Blob | null;
  avatarBusy: boolean;
  avatarError: Notice | null;
  /** Announced when the avatar changed. */
  avatarStatus: Notice | null;
}

/** The profile's problems by the same rules the server applies; empty when it can be sent. */
export function validateProfile(fields: ProfileFields): ProfileErrors {
  const errors: ProfileErrors = {};
  const nickname = nicknameProblem(fields.nickname);
  if (nickname) errors.nickname = nickname;
  const urlProblem = customUrlProblem(fields.url.trim().toLowerCase());
  if (urlProblem) errors.url = urlProblem;
  if (fields.bio.trim().length > BIO_MAX) errors.bio = 'too_big';
  if (fields.location.trim().length > LOCATION_MAX) errors.location = 'too_big';
  if (fields.website.trim().length > WEBSITE_MAX) errors.website = 'too_big';
  else if (!isWebsiteAllowed(fields.website.trim())) errors.website = 'website_protocol';
  return errors;
}

/** Why an avatar change failed: the upload's field error when there is one, else the call's. */
export function avatarFailure(error: unknown): Notice {
  const field = error instanceof ApiError ? (error.fields?.avatar ?? error.fields?.file) : undefined;
  return field ? invalid(field) : fail(error);
}

/** Updates server-rendered copies of the avatar on the page (the profile banner). */
function showAvatarOnPage(src: string): void {
  for (const image of document.querySelectorAll<HTMLImageElement>('[data-profile-avatar]')) image.src = src;
}

/**
 * The owner's profile editor: avatar (upload of the cropped picture, removal) and the profile
 * fields, checked inline by the server's rules and saved with `user/edit`; `$auth` gets the
 * changed user at once, so the header shows the new avatar.
 */
export function createProfile(user: UserInfo, variant: Variant) {
  const $profile = map<ProfileState>({
    fields: { nickname: user.nickname, url: user.url, bio: user.bio, location: user.location, website: user.website },
    errors: {},
    formError: null,
    saving: false,
    cropSource: null,
    avatarBusy: false,
    avatarError: null,
    avatarStatus: null,
  });
  // Picking, refusing a too large file, cropping and uploading are the shared image-pick steps; the editor shows their state.
  const avatar = createImagePick({ purpose: 'avatar', failure: avatarFailure });
  avatar.$pick.listen(({ cropSource, error }) => $profile.set({ ...$profile.get(), cropSource, avatarError: error }));

  function setField(name: ProfileField, value: string): void {
    const { fields, errors } = $profile.get();
    $profile.set({ ...$profile.get(), fields: { ...fields, [name]: value }, errors: errors[name] ? { ...errors, [name]: undefined } : errors });
  }

  /** A picture was chosen: too large ones are refused here, the rest go to the cropper. */
  function pickAvatar(file: File | undefined): void {
    $profile.setKey('avatarStatus', null);
    avatar.clearError();
    avatar.pick(file);
  }

  function closeCropper(): void {
    avatar.cancel();
  }

  /** The cropper could not open the picture (it says so itself; the field says it too). */
  function cropperFailed(): void {
    avatar.cropFailed();
  }

  async function saveAvatar(avatar: string | null): Promise<void> {
    const updated = await apiCall<UserInfo>('user/edit', { avatar });
    setUserInfo(updated);
    showAvatarOnPage(avatarSrc(updated.avatar, updated.nickname));
  }

  /** Uploads the cropped picture and makes it the avatar. */
  async function uploadAvatar(blob: Blob): Promise<void> {
    $profile.set({ ...$profile.get(), avatarBusy: true, avatarStatus: say('profile.uploading') });
    const upload = await avatar.upload(blob);
    if (!upload) {
      $profile.set({ ...$profile.get(), avatarBusy: false, avatarStatus: null });
      return;
    }
    try {
      await saveAvatar(upload.id);
      $profile.set({ ...$profile.get(), avatarBusy: false, avatarStatus: say('profile.avatarSaved') });
    } catch (error) {
      $profile.set({ ...$profile.get(), avatarBusy: false, avatarStatus: null, avatarError: avatarFailure(error) });
    }
  }

  async function removeAvatar(): Promise<void> {
    $profile.set({ ...$profile.get(), avatarBusy: true, avatarError: null });
    try {
      await saveAvatar(null);
      $profile.set({ ...$profile.get(), avatarBusy: false, avatarStatus: say('profile.avatarRemoved') });
    } catch (error) {
      $profile.set({ ...$profile.get(), avatarBusy: false, avatarError: avatarFailure(error) });
    }
  }

  /**
   * Checks and saves the fields, then reloads the profile at its (maybe new) address, since the
   * server renders the banner, tabs and title. Returns the first field to fix, if any.
   */
  async function save(): Promise<string | null> {
    const state = $profile.get();
    if (state.saving) return null;
    const found = validateProfile(state.fields);
    const first = Object.keys(found)[0];
    if (first) {
      $profile.set({ ...state, errors: found, formError: warn('profile.fixErrors') });
      return first;
    }
    $profile.set({ ...state, errors: {}, formError: null, saving: true });
    const { fields } = state;
    try {
      const updated = await apiCall<UserInfo>('user/edit', {
        nickname: fields.nickname.trim(),
        url: fields.url.trim().toLowerCase(),
        bio: fields.bio.trim(),
        location: fields.location.trim(),
        website: fields.website.trim(),
      });
      setUserInfo(updated);
      window.location.assign(`${variantPath(variant, userPath(updated.url, 'profile'))}?saved=1`);
      return null;
    } catch (error) {
      const fieldErrors = (error instanceof ApiError ? error.fields : undefined) ?? {};
      $profile.set({ ...$profile.get(), saving: false, errors: { ...$profile.get().errors, ...fieldErrors }, formError: fail(error) });
      return Object.keys(fieldErrors)[0] ?? null;
    }
  }

  return { $profile, setField, pickAvatar, closeCropper, cropperFailed, uploadAvatar, removeAvatar, save };
}

export type ProfileStore = ReturnType<typeof createProfile>;
