export interface CheckMarkerProps {
  /** The frame the place is in (a board's or a sheet's size, in mm). */
  widthMm: number;
  heightMm: number;
  place: { xMm: number; yMm: number };
  /** The ring's radius in mm (a board's parts are smaller than a sheet's frame suggests; a sheet's text is small). */
  radiusMm?: number;
  label: string;
}

/** A design check's place: a red ring with cross hairs over the board or the sheet, its lines as thick at any zoom. */
export function CheckMarker({ widthMm, heightMm, place, radiusMm, label }: CheckMarkerProps) {
  const radius = radiusMm ?? Math.max(1, Math.min(widthMm, heightMm) / 40);
  return (
    <svg className="check-marker" viewBox={`0 0 ${widthMm} ${heightMm}`} preserveAspectRatio="none" role="img" aria-label={label}>
      <g transform={`translate(${place.xMm} ${place.yMm})`}>
        <circle r={radius} />
        <line x1={-radius * 1.8} x2={-radius * 0.6} y1={0} y2={0} />
        <line x1={radius * 0.6} x2={radius * 1.8} y1={0} y2={0} />
        <line y1={-radius * 1.8} y2={-radius * 0.6} x1={0} x2={0} />
        <line y1={radius * 0.6} y2={radius * 1.8} x1={0} x2={0} />
      </g>
    </svg>
  );
}
