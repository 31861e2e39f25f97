import type { Placement } from '../../lib/contract/schemas/eda.ts';
import { isLit } from '../../stores/eda-selection.ts';

export interface PartMarkersProps {
  widthMm: number;
  heightMm: number;
  /** The placements on the side shown. */
  placements: Placement[];
  /** Upper-cased designator → its BOM line. */
  lineIndex: Record<string, number>;
  /** The BOM line whose parts stand out (hovered or selected). */
  highlight: number | null;
  /** The one part picked (here, in the schematic or by the address), marked even when the BOM does not list it. */
  picked?: string | null;
  label: string;
}

/**
 * The parts of a pick-and-place file over the board, in millimetres from its top left as seen
 * from the top: a faint dot each, and a ring with a tick pointing along its rotation for the
 * parts of the highlighted BOM line and the part picked. Clicking one is handled by the viewer (it tells a click from a drag).
 */
export function PartMarkers({ widthMm, heightMm, placements, lineIndex, highlight, picked = null, label }: PartMarkersProps) {
  const radius = Math.max(0.5, Math.min(widthMm, heightMm) / 45);
  const pickedRef = picked?.toUpperCase();
  return (
    <svg className="part-markers" viewBox={`0 0 ${widthMm} ${heightMm}`} preserveAspectRatio="none" role="group" aria-label={label}>
      {placements.map((part) => {
        const lineNo = lineIndex[part.designator.toUpperCase()];
        const isPicked = pickedRef === part.designator.toUpperCase();
        const lit = isLit(part.designator, lineIndex, highlight, picked);
        // Rotation is counter-clockwise seen from the top, and y grows downwards here.
        const angle = (part.rotation * Math.PI) / 180;
        const tick = radius * 2.4;
        return (
          <g
            key={`${part.side}:${part.designator}`}
            className={`part${lit ? ' is-lit' : ''}${isPicked ? ' is-picked' : ''}`}
            data-designator={part.designator}
            data-line={lineNo}
            transform={`translate(${part.xMm} ${part.yMm})`}
          >
            <title>{part.designator}</title>
            <circle r={lit ? radius * 1.6 : radius * 0.6} />
            {lit && <line x1={0} y1={0} x2={tick * Math.cos(angle)} y2={-tick * Math.sin(angle)} />}
          </g>
        );
      })}
    </svg>
  );
}
