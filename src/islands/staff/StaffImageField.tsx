import { lazy, Suspense, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { noticeText } from '../../lib/notice.ts';
import { PICTURE_TYPES } from '../../lib/pictures.ts';
import type { StaffImageFormState, StaffPictureSteps } from '../../stores/staff-image-form.ts';
import { FieldError } from './StaffStatus.tsx';

// cropperjs only runs in the browser: the cropper is loaded when a picture is chosen.
const ImageCropper = lazy(() => import('../ImageCropper.tsx'));

export interface StaffImageFieldProps {
  /** The form's picture steps, and their state as the form shows it. */
  editor: StaffPictureSteps;
  state: Omit<StaffImageFormState<unknown>, 'form'>;
  /** The form's field (`image`, `cover`) and where its errors go (`${id}-${name}-error`). */
  name: string;
  id: string;
  fields: Record<string, string>;
  label: string;
  /** The picture chosen so far, as the form shows it. */
  preview: ReactNode;
  /** The button's words (choose, change, or the upload's progress). */
  button: string;
  hint?: string;
  /** Width / height the picture is cropped to. */
  aspectRatio: number;
  /** The test id of the hidden file input. */
  fileTestId?: string;
}

/**
 * The picture of a staff form (a banner's image, a collection's cover): a button opens the file
 * picker, the picture chosen opens the cropper, and the cropped picture uploads with progress;
 * why a picture was refused is said under it.
 */
export function StaffImageField({ editor, state, name, id, fields, label, preview, button, hint, aspectRatio, fileTestId }: StaffImageFieldProps) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <div className="field">
      <span className="field-label">{label}</span>
      {preview}
      <input
        ref={fileInput}
        type="file"
        accept={PICTURE_TYPES}
        className="visually-hidden"
        tabIndex={-1}
        data-testid={fileTestId}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) editor.pickImage(file);
        }}
      />
      <button type="button" className="btn" onClick={() => fileInput.current?.click()} disabled={state.uploading !== null}>
        {button}
      </button>
      {hint && <span className="field-hint">{hint}</span>}
      {state.imageError && (
        <span className="field-error" role="alert">
          {noticeText(state.imageError, t)}
        </span>
      )}
      <FieldError id={`${id}-${name}-error`} fields={fields} name={name} />
      {state.cropSource && (
        <Suspense fallback={null}>
          <ImageCropper
            src={state.cropSource}
            aspectRatio={aspectRatio}
            outputType="jpeg"
            outputQuality={0.9}
            onError={editor.cropperFailed}
            onCrop={(blob) => void editor.uploadImage(blob)}
            onCancel={editor.closeCropper}
          />
        </Suspense>
      )}
    </div>
  );
}
