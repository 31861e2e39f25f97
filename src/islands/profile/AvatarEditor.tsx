import { useStore } from '@nanostores/react';
import { useId, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../lib/api-types.ts';
import { avatarSrc } from '../../lib/avatar.ts';
import { noticeText } from '../../lib/notice.ts';
import { AVATAR_TYPES, type ProfileStore } from '../../stores/profile.ts';
import { useHydrated } from '../use-hydrated.ts';

interface AvatarEditorProps {
  profile: ProfileStore;
  /** The user as `$auth` has them now (the avatar changes at once). */
  user: UserInfo;
  /** "Change avatar", where focus returns after the cropper. */
  changeButton: RefObject<HTMLButtonElement | null>;
}

/** The avatar: the current picture, change (opens the cropper) and remove, with its messages. */
export function AvatarEditor({ profile, user, changeButton }: AvatarEditorProps) {
  const { t } = useTranslation();
  const { avatarBusy, avatarError, avatarStatus } = useStore(profile.$profile);
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();
  // Until the code has come, a chosen file would go nowhere: the controls wait for it.
  const hydrated = useHydrated();
  return (
    <section className="avatar-editor" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="field-label" style={{ margin: 0 }}>
        {t('profile.avatar')}
      </h3>
      <img className="avatar" src={avatarSrc(user.avatar, user.nickname)} width={144} height={144} alt={t('user.avatarOf', { name: user.nickname })} data-testid="profile-avatar" />
      <input
        ref={fileInput}
        id={`${id}-file`}
        type="file"
        accept={AVATAR_TYPES}
        className="visually-hidden"
        tabIndex={-1}
        disabled={!hydrated}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = ''; // choosing the same file again still opens the cropper
          profile.pickAvatar(file);
        }}
        data-testid="avatar-file"
        aria-describedby={`${id}-hint`}
      />
      <button ref={changeButton} type="button" className="btn" onClick={() => fileInput.current?.click()} disabled={!hydrated || avatarBusy}>
        {avatarBusy ? t('profile.uploading') : t('profile.changeAvatar')}
      </button>
      {user.avatar && (
        <button type="button" className="btn" onClick={() => void profile.removeAvatar()} disabled={avatarBusy}>
          {t('profile.removeAvatar')}
        </button>
      )}
      <p className="field-hint" id={`${id}-hint`}>
        {t('profile.avatarHint')}
      </p>
      <p className="field-error" role="alert" hidden={!avatarError}>
        {avatarError ? noticeText(avatarError, t) : ''}
      </p>
      <p className={avatarStatus && !avatarBusy ? 'form-status' : 'visually-hidden'} role="status">
        {avatarStatus ? noticeText(avatarStatus, t) : ''}
      </p>
    </section>
  );
}
