import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MOVE_STEP, ZOOM_STEP, type Cropper } from '../../stores/cropper.ts';

/** The cropper's toolbar: rotate, zoom, move the crop box, reset; usable only once the image is ready. */
export function CropperTools({ cropper, ready }: { cropper: Cropper; ready: boolean }) {
  const { t } = useTranslation();
  const tool = (label: string, onClick: () => void, icon: ReactNode) => (
    <button type="button" className="btn" onClick={onClick} disabled={!ready} aria-label={label} title={label}>
      <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        {icon}
      </svg>
    </button>
  );
  return (
    <div className="cropper-tools" role="toolbar" aria-label={t('cropper.tools')}>
      {tool(t('cropper.rotateLeft'), () => cropper.rotate(-90), <><path d="M3 7v5h5" /><path d="M3.5 12A8.5 8.5 0 1 0 6 6" /></>)}
      {tool(t('cropper.rotateRight'), () => cropper.rotate(90), <><path d="M21 7v5h-5" /><path d="M20.5 12A8.5 8.5 0 1 1 18 6" /></>)}
      {tool(t('cropper.zoomIn'), () => cropper.zoom(ZOOM_STEP), <><circle cx="11" cy="11" r="7" /><path d="M11 8v6M8 11h6M20 20l-4-4" /></>)}
      {tool(t('cropper.zoomOut'), () => cropper.zoom(-ZOOM_STEP), <><circle cx="11" cy="11" r="7" /><path d="M8 11h6M20 20l-4-4" /></>)}
      {tool(t('cropper.moveLeft'), () => cropper.move(-MOVE_STEP, 0), <path d="M15 6l-6 6 6 6" />)}
      {tool(t('cropper.moveRight'), () => cropper.move(MOVE_STEP, 0), <path d="M9 6l6 6-6 6" />)}
      {tool(t('cropper.moveUp'), () => cropper.move(0, -MOVE_STEP), <path d="M6 15l6-6 6 6" />)}
      {tool(t('cropper.moveDown'), () => cropper.move(0, MOVE_STEP), <path d="M6 9l6 6 6-6" />)}
      <button type="button" className="btn" onClick={cropper.reset} disabled={!ready}>
        {t('cropper.reset')}
      </button>
    </div>
  );
}
