import { useStore } from '@nanostores/react';
import { lazy, Suspense, useRef } from 'react';
import type { UserInfo } from '../lib/api-types.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import type { Variant } from '../lib/paths.ts';
import { createProfile } from '../stores/profile.ts';
import { I18nProvider } from './i18n.tsx';
import { AvatarEditor } from './profile/AvatarEditor.tsx';
import { ProfileForm } from './profile/ProfileForm.tsx';
import { useAuth } from './use-auth.ts';
import { useIslandStore } from './use-island-store.ts';

// cropperjs only runs in the browser: the cropper is loaded when a picture is chosen.
const ImageCropper = lazy(() => import('./ImageCropper.tsx'));

export interface ProfileEditorProps {
  locale: string;
  messages: IslandMessages;
  /** The signed-in owner of the profile, as the page rendered it. */
  user: UserInfo;
  variant?: Variant;
  /** The site origin shown before the custom URL. */
  origin: string;
}

/**
 * The owner's profile editor: avatar (upload + square crop), nickname, custom URL, bio, location
 * and website, with inline translated errors from the same rules the server applies.
 */
export default function ProfileEditor({ messages, ...props }: ProfileEditorProps) {
  return (
    <I18nProvider locale={props.locale} messages={messages}>
      <Editor {...props} />
    </I18nProvider>
  );
}

function Editor({ user: initialUser, variant = 'desktop', origin }: Omit<ProfileEditorProps, 'messages'>) {
  const { userInfo } = useAuth({ signedIn: true, userInfo: initialUser });
  const profile = useIslandStore(() => createProfile(initialUser, variant));
  const { cropSource } = useStore(profile.$profile);
  const changeButton = useRef<HTMLButtonElement>(null);
  // Focus goes back to "Change avatar" once the cropper dialog has closed (not while it is modal).
  const refocus = () => requestAnimationFrame(() => changeButton.current?.focus());

  return (
    <div className="profile-editor">
      <AvatarEditor profile={profile} user={userInfo ?? initialUser} changeButton={changeButton} />
      <ProfileForm profile={profile} origin={origin} />
      {cropSource && (
        <Suspense fallback={null}>
          <ImageCropper
            src={cropSource}
            aspectRatio={1}
            outputType="jpeg"
            outputQuality={0.92}
            onError={profile.cropperFailed}
            onCrop={(blob) => void profile.uploadAvatar(blob).then(refocus)}
            onCancel={() => {
              profile.closeCropper();
              refocus();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
