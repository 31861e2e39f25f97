import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import { $edaHighlight, $edaSelection, isLit, sideOfLit } from '../../stores/eda-selection.ts';
import { PartMarkers } from './PartMarkers.tsx';
import type { Placement } from '../../lib/contract/schemas/eda.ts';

/** The board the BOM's parts are placed on: its renders and its size. */
export interface BomBoardPicture {
  top: string | null;
  bottom: string | null;
  widthMm: number;
  heightMm: number;
}

export interface BomBoardProps {
  board: BomBoardPicture;
  /** The parts placed on it. */
  parts: Placement[];
  /** Upper-cased designator → its BOM line. */
  lineIndex: Record<string, number>;
}

/**
 * The board beside the BOM list (above it on a narrow screen), kept in view by CSS while the list
 * scrolls: the parts of the line under the pointer or picked are marked on the side holding most
 * of them. It repeats, for the eye, what the board view above and the table's selected row say, so
 * it is hidden from assistive technology and takes no input.
 */
export function BomBoard({ board, parts, lineIndex }: BomBoardProps) {
  const { t } = useTranslation();
  const highlight = useStore($edaHighlight);
  const picked = useStore($edaSelection).ref;
  const lit = parts.filter((part) => isLit(part.designator, lineIndex, highlight, picked));
  const wanted = sideOfLit(lit);
  // A board rendered on one side only shows that side.
  const side = (wanted === 'top' ? board.top : board.bottom) ? wanted : wanted === 'top' ? 'bottom' : 'top';
  const render = side === 'top' ? board.top : board.bottom;
  const shown = lit.filter((part) => part.side === side).map((part) => part.designator);
  const elsewhere = lit.length - shown.length;
  const caption =
    lit.length === 0
      ? t(highlight === null ? 'eda.bomBoard.hint' : 'eda.bomBoard.notPlaced')
      : [shown.length > 0 ? t('eda.bomBoard.shown', { side: t(`eda.viewer.${side}`), refs: shown.join(', ') }) : '', elsewhere > 0 ? t('eda.bomBoard.otherSide', { count: elsewhere }) : '']
          .filter(Boolean)
          .join(' · ');
  return (
    <figure className="bom-board" aria-hidden="true" data-side={side}>
      <div className="bom-board-picture" style={{ aspectRatio: `${board.widthMm} / ${board.heightMm}` }}>
        {render && <img src={render} alt="" draggable={false} />}
        {/* Drawn as seen from the top, like the board view's markers: mirrored for the bottom. */}
        <div className={side === 'bottom' ? 'board-frame is-mirrored' : 'board-frame'}>
          <PartMarkers widthMm={board.widthMm} heightMm={board.heightMm} placements={parts.filter((part) => part.side === side)} lineIndex={lineIndex} highlight={highlight} picked={picked} label={t('eda.viewer.parts')} />
        </div>
      </div>
      <figcaption>{caption}</figcaption>
    </figure>
  );
}
