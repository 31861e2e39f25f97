import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CropperCanvas, CropperImage, CropperSelection } from 'cropperjs';
import {
  cropOutputSize,
  downscaleSize,
  initialCropBox,
  isCropChangeAllowed,
  normalizeCropOptions,
  type Box,
  type CropOptions,
  type CropOutputType,
  type Size,
} from '../lib/crop-settings.ts';
import { I18nProvider } from './i18n.tsx';

/**
 * The props contract of the cropper (shared with the project cover field — keep it stable).
 * Sizes are in view (CSS) pixels of the crop area.
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
  locale: string;
}

type Status = 'loading' | 'ready' | 'error' | 'cropping';

/** Keyboard steps of the crop box, in view pixels (Shift: fine steps). */
const MOVE_STEP = 10;
const FINE_STEP = 1;
const ZOOM_STEP = 0.1;

/**
 * An image cropper in a modal dialog, on cropperjs 2 (its web components are loaded only in the
 * browser, so the island can also be server-rendered). Loading → ready; rotate in quarter turns,
 * zoom, draw / move / resize the crop box (the ratio kept when fixed, never smaller than the
 * minimum, kept on the image); large images are downscaled to 2000 px first; a load error is
 * shown and reported. Fully usable by keyboard.
 */
export default function ImageCropper(props: ImageCropperProps) {
  return (
    <I18nProvider locale={props.locale}>
      <CropperDialog {...props} />
    </I18nProvider>
  );
}

interface Prepared {
  url: string;
  revoke: string[];
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function needsCors(url: string): boolean {
  if (!/^https?:/i.test(url)) return false;
  try {
    return new URL(url, window.location.href).origin !== window.location.origin;
  } catch {
    return false;
  }
}

/** Loads the image (refusing empty or undecodable ones) and downscales it past 2000 px. */
async function prepareImage(src: string | Blob): Promise<Prepared> {
  const revoke: string[] = [];
  try {
    let url: string;
    if (typeof src === 'string') {
      if (!src.trim()) throw new Error('The image is empty');
      url = src;
    } else {
      if (src.size === 0) throw new Error('The image is empty');
      url = URL.createObjectURL(src);
      revoke.push(url);
    }
    const image = new Image();
    if (needsCors(url)) image.crossOrigin = 'anonymous';
    image.src = url;
    try {
      await image.decode();
    } catch {
      throw new Error('The image could not be loaded');
    }
    if (!image.naturalWidth || !image.naturalHeight) throw new Error('The image is empty');
    const target = downscaleSize(image.naturalWidth, image.naturalHeight);
    if (target.scaled) {
      const canvas = document.createElement('canvas');
      canvas.width = target.width;
      canvas.height = target.height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('The image could not be prepared');
      context.imageSmoothingQuality = 'high';
      context.drawImage(image, 0, 0, target.width, target.height);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (!blob) throw new Error('The image could not be prepared');
      url = URL.createObjectURL(blob);
      revoke.push(url);
    }
    return { url, revoke };
  } catch (error) {
    for (const url of revoke) URL.revokeObjectURL(url);
    throw error;
  }
}

function template(url: string, alt: string, aspectRatio: number | null): string {
  const handles = ['n', 'e', 's', 'w', 'ne', 'nw', 'se', 'sw'].map((side) => `<cropper-handle action="${side}-resize"></cropper-handle>`).join('');
  const cors = needsCors(url) ? ' crossorigin="anonymous"' : '';
  return (
    '<cropper-canvas background scale-step="0.1">' +
    `<cropper-image src="${escapeAttr(url)}" alt="${escapeAttr(alt)}"${cors} rotatable scalable translatable initial-fit="contain"></cropper-image>` +
    '<cropper-shade hidden></cropper-shade>' +
    '<cropper-handle action="select" plain></cropper-handle>' +
    `<cropper-selection movable resizable zoomable outlined${aspectRatio ? ` aspect-ratio="${aspectRatio}"` : ''}>` +
    '<cropper-grid bordered covered></cropper-grid>' +
    '<cropper-crosshair centered></cropper-crosshair>' +
    '<cropper-handle action="move" theme-color="rgba(255, 255, 255, 0.35)"></cropper-handle>' +
    handles +
    '</cropper-selection>' +
    '</cropper-canvas>'
  );
}

interface Parts {
  canvas: CropperCanvas;
  image: CropperImage;
  selection: CropperSelection;
}

function CropperDialog(props: ImageCropperProps) {
  const { t } = useTranslation();
  const { src, onCrop, onError, onReady, onCancel } = props;
  const options: CropOptions = normalizeCropOptions(props);
  const optionsKey = JSON.stringify(options);
  const dialog = useRef<HTMLDialogElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const mount = useRef<HTMLDivElement>(null);
  const parts = useRef<Parts | null>(null);
  const callbacks = useRef({ onCrop, onError, onReady, onCancel });
  callbacks.current = { onCrop, onError, onReady, onCancel };
  const [status, setStatus] = useState<Status>('loading');
  const [errorText, setErrorText] = useState('');
  const titleId = useId();
  const helpId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => {
      if (element?.open) element.close();
    };
  }, []);

  /** The part of the image that is in view, in the crop area's coordinates. */
  const imageBounds = (): Box => {
    const current = parts.current;
    if (!current) return { x: 0, y: 0, width: 0, height: 0 };
    const area = current.canvas.getBoundingClientRect();
    const rect = current.image.getBoundingClientRect();
    const x = Math.max(rect.left, area.left);
    const y = Math.max(rect.top, area.top);
    const right = Math.min(rect.right, area.right);
    const bottom = Math.min(rect.bottom, area.bottom);
    return { x: x - area.left, y: y - area.top, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
  };

  const placeSelection = () => {
    const current = parts.current;
    if (!current) return;
    const box = initialCropBox(imageBounds(), options);
    current.selection.$change(box.x, box.y, box.width, box.height, options.aspectRatio ?? Number.NaN, true);
  };

  useEffect(() => {
    let cancelled = false;
    let prepared: Prepared | null = null;
    const host = mount.current;
    setStatus('loading');
    setErrorText('');

    const fail = (error: unknown) => {
      if (cancelled) return;
      const failure = error instanceof Error ? error : new Error(String(error));
      setStatus('error');
      setErrorText(t('cropper.loadError'));
      callbacks.current.onError?.(failure);
    };

    const limitChanges = (event: Event) => {
      const current = parts.current;
      if (!current) return;
      const next = (event as CustomEvent<Box>).detail;
      const { selection } = current;
      const previous = selection.width > 0 ? { x: selection.x, y: selection.y, width: selection.width, height: selection.height } : null;
      if (!isCropChangeAllowed(previous, next, imageBounds(), options.minCropSize)) event.preventDefault();
    };

    (async () => {
      prepared = await prepareImage(src);
      await import('cropperjs'); // defines the cropper-* elements
      if (cancelled || !host) return;
      host.innerHTML = template(prepared.url, t('cropper.imageAlt'), options.aspectRatio);
      const canvas = host.querySelector<CropperCanvas>('cropper-canvas');
      const image = host.querySelector<CropperImage>('cropper-image');
      const selection = host.querySelector<CropperSelection>('cropper-selection');
      if (!canvas || !image || !selection) throw new Error('The cropper could not start');
      parts.current = { canvas, image, selection };
      selection.addEventListener('change', limitChanges);
      await image.$ready();
      await new Promise((resolve) => requestAnimationFrame(resolve));
      if (cancelled) return;
      placeSelection();
      setStatus('ready');
      callbacks.current.onReady?.();
      stage.current?.focus();
    })().catch(fail);

    return () => {
      cancelled = true;
      parts.current?.selection.removeEventListener('change', limitChanges);
      parts.current = null;
      if (host) host.innerHTML = '';
      for (const url of prepared?.revoke ?? []) URL.revokeObjectURL(url);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src, optionsKey]);

  const ready = status === 'ready';

  const rotate = (degrees: number) => {
    const current = parts.current;
    if (!current || !ready) return;
    current.image.$rotate(`${degrees}deg`);
    current.image.$center('contain');
    placeSelection();
  };
  const zoom = (step: number) => {
    if (ready) parts.current?.image.$zoom(step);
  };
  const move = (x: number, y: number) => {
    if (ready) parts.current?.selection.$move(x, y);
  };
  const reset = () => {
    const current = parts.current;
    if (!current || !ready) return;
    current.image.$resetTransform();
    current.image.$center('contain');
    placeSelection();
  };

  const crop = async () => {
    const current = parts.current;
    if (!current || !ready) return;
    setStatus('cropping');
    try {
      const [a = 1, b = 0] = current.image.$getTransform();
      const size: Size = cropOutputSize({ width: current.selection.width, height: current.selection.height }, Math.hypot(a, b));
      const canvas = await current.selection.$toCanvas({
        width: size.width,
        height: size.height,
        beforeDraw: (context, target) => {
          context.imageSmoothingQuality = 'high';
          // JPEG has no transparency: what lies outside the image becomes white, not black.
          if (options.mime === 'image/jpeg') {
            context.fillStyle = '#fff';
            context.fillRect(0, 0, target.width, target.height);
          }
        },
      });
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, options.mime, options.outputQuality));
      if (!blob) throw new Error('The image could not be cropped');
      setStatus('ready');
      callbacks.current.onCrop(blob);
    } catch (error) {
      setStatus('ready');
      setErrorText(t('cropper.cropError'));
      callbacks.current.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const onStageKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!ready) return;
    const step = event.shiftKey ? FINE_STEP : MOVE_STEP;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => move(-step, 0),
      ArrowRight: () => move(step, 0),
      ArrowUp: () => move(0, -step),
      ArrowDown: () => move(0, step),
      '+': () => zoom(ZOOM_STEP),
      '=': () => zoom(ZOOM_STEP),
      '-': () => zoom(-ZOOM_STEP),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  const cancel = () => callbacks.current.onCancel?.();

  const tool = (label: string, onClick: () => void, icon: ReactNode) => (
    <button type="button" className="btn" onClick={onClick} disabled={!ready} aria-label={label} title={label}>
      <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        {icon}
      </svg>
    </button>
  );

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
        <div className="cropper-tools" role="toolbar" aria-label={t('cropper.tools')}>
          {tool(t('cropper.rotateLeft'), () => rotate(-90), <><path d="M3 7v5h5" /><path d="M3.5 12A8.5 8.5 0 1 0 6 6" /></>)}
          {tool(t('cropper.rotateRight'), () => rotate(90), <><path d="M21 7v5h-5" /><path d="M20.5 12A8.5 8.5 0 1 1 18 6" /></>)}
          {tool(t('cropper.zoomIn'), () => zoom(ZOOM_STEP), <><circle cx="11" cy="11" r="7" /><path d="M11 8v6M8 11h6M20 20l-4-4" /></>)}
          {tool(t('cropper.zoomOut'), () => zoom(-ZOOM_STEP), <><circle cx="11" cy="11" r="7" /><path d="M8 11h6M20 20l-4-4" /></>)}
          {tool(t('cropper.moveLeft'), () => move(-MOVE_STEP, 0), <path d="M15 6l-6 6 6 6" />)}
          {tool(t('cropper.moveRight'), () => move(MOVE_STEP, 0), <path d="M9 6l6 6-6 6" />)}
          {tool(t('cropper.moveUp'), () => move(0, -MOVE_STEP), <path d="M6 15l6-6 6 6" />)}
          {tool(t('cropper.moveDown'), () => move(0, MOVE_STEP), <path d="M6 9l6 6 6-6" />)}
          <button type="button" className="btn" onClick={reset} disabled={!ready}>
            {t('cropper.reset')}
          </button>
        </div>
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
