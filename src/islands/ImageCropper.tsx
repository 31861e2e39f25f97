import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeCropOptions, type CropOutputType } from '../lib/crop-settings.ts';
import { noticeText } from '../lib/notice.ts';
import { createCropper, FINE_STEP, MOVE_STEP, ZOOM_STEP } from '../stores/cropper.ts';
import { CropperTools } from './cropper/CropperTools.tsx';
import { useIslandStore } from './use-island-store.ts';

/**
 * The props contract of the cropper (shared with the project cover field — keep it stable).
 * Sizes are in view (CSS) pixels of the crop area. The options are read when the dialog opens.
 */
export interface ImageCropperProps {
  /** The image: a URL, or a File/Blob the user picked. */
  src: string | Blob;
  /** Output format; default `jpeg`. */
  outputType?: CropOutputType;
  /** 0–1; default 1. */
  outputQuality?: number;
  /** Fixed width / height; default 1 (square); `null` lets the crop box take any shape. */
  aspectRatio?: number | null;
  /** The first crop box; default: 80 % of the image in view. */
  autoCropSize?: { width: number; height: number };
  /** The smallest crop box, one number for both sides or a pair; ≥ 0, default 10. */
  minCropSize?: number | { width: number; height: number };
  /** The cropped image, at the image's own resolution (at most 2000 px on the longest side). */
  onCrop: (blob: Blob) => void;
  /** The image could not be loaded (an empty or broken file included) or cropped. */
  onError?: (error: Error) => void;
  /** The image is loaded and the crop box placed. */
  onReady?: () => void;
  /** The user closed the dialog without cropping (Cancel, the close button or Escape). */
  onCancel?: () => void;
}

/**
 * An image cropper in a modal dialog, on cropperjs 2 (loaded only in the browser, inside the
 * island that opens it and with its translations). Loading → ready; rotate in quarter turns,
 * zoom, draw / move / resize the crop box (the ratio kept when fixed, never smaller than the
 * minimum, kept on the image); large images are downscaled to 2000 px first; a load error is
 * shown and reported. Fully usable by keyboard.
 */
export default function ImageCropper(props: ImageCropperProps) {
  const { t } = useTranslation();
  const cropper = useIslandStore(() => createCropper(normalizeCropOptions(props)));
  const { status, error } = useStore(cropper.$cropper);
  const dialog = useRef<HTMLDialogElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const mount = useRef<HTMLDivElement>(null);
  const callbacks = useRef(props);
  callbacks.current = props;
  const titleId = useId();
  const helpId = useId();
  const ready = status === 'ready';

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => {
      if (element?.open) element.close();
    };
  }, []);

  useEffect(() => {
    if (!mount.current) return;
    return cropper.open(mount.current, props.src, t('cropper.imageAlt'), {
      onReady: () => {
        callbacks.current.onReady?.();
        stage.current?.focus();
      },
      onError: (failure) => callbacks.current.onError?.(failure),
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new picture opens anew
  }, [props.src]);

  const crop = async () => {
    try {
      const blob = await cropper.crop();
      if (blob) callbacks.current.onCrop(blob);
    } catch (failure) {
      callbacks.current.onError?.(failure as Error);
    }
  };

  const onStageKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!ready) return;
    const step = event.shiftKey ? FINE_STEP : MOVE_STEP;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => cropper.move(-step, 0),
      ArrowRight: () => cropper.move(step, 0),
      ArrowUp: () => cropper.move(0, -step),
      ArrowDown: () => cropper.move(0, step),
      '+': () => cropper.zoom(ZOOM_STEP),
      '=': () => cropper.zoom(ZOOM_STEP),
      '-': () => cropper.zoom(-ZOOM_STEP),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  const cancel = () => callbacks.current.onCancel?.();
  const errorText = error ? noticeText(error, t) : '';

  return (
    <dialog
      ref={dialog}
      className="cropper-dialog"
      aria-labelledby={titleId}
      aria-describedby={helpId}
      onCancel={(event) => {
        event.preventDefault();
        cancel();
      }}
    >
      <div className="cropper-head">
        <h2 id={titleId}>{t('cropper.title')}</h2>
        <button type="button" className="btn" onClick={cancel} aria-label={t('common.close')}>
          ×
        </button>
      </div>
      <div className="cropper-body">
        <p id={helpId} className="field-hint">
          {t('cropper.instructions')}
        </p>
        <div
          ref={stage}
          className="cropper-stage"
          role="group"
          aria-label={t('cropper.area')}
          aria-describedby={helpId}
          aria-busy={status === 'loading' || status === 'cropping'}
          tabIndex={ready ? 0 : -1}
          onKeyDown={onStageKey}
          data-status={status}
          data-testid="cropper-stage"
        >
          <div ref={mount} style={{ width: '100%', height: '100%' }} />
          {status === 'loading' && (
            <div className="cropper-state" role="status">
              {t('cropper.loading')}
            </div>
          )}
          {status === 'error' && (
            <div className="cropper-state" role="alert">
              {errorText}
            </div>
          )}
        </div>
        {status !== 'error' && errorText && (
          <p className="field-error" role="alert">
            {errorText}
          </p>
        )}
        <CropperTools cropper={cropper} ready={ready} />
      </div>
      <div className="cropper-foot">
        <button type="button" className="btn" onClick={cancel}>
          {t('cropper.cancel')}
        </button>
        <button type="button" className={`btn btn-primary${status === 'cropping' ? ' is-busy' : ''}`} onClick={() => void crop()} disabled={!ready}>
          {status === 'cropping' ? t('cropper.cropping') : t('cropper.apply')}
        </button>
      </div>
    </dialog>
  );
}
