import { useTranslation } from 'react-i18next';
import { layerColour } from '../../stores/eda-viewer.ts';
import type { BoardLayer } from '../../lib/contract/schemas/eda.ts';

export interface LayerPanelProps {
  layers: BoardLayer[];
  /** Indices of the layers of the side shown. */
  shown: number[];
  hidden: number[];
  onToggle: (index: number) => void;
}

/** A checkbox with a colour swatch per layer of the side shown. */
export function LayerPanel({ layers, shown, hidden, onToggle }: LayerPanelProps) {
  const { t } = useTranslation();
  // A documentation layer by what it is for (courtyard, fab…) when its file says it.
  const labelOf = (layer: BoardLayer) =>
    t('eda.layerLabel', { type: layer.purpose ? t(`eda.layerPurposes.${layer.purpose}`) : t(`eda.layerTypes.${layer.type}`), side: t(`eda.layerSides.${layer.side}`) });
  const labels = shown.map((index) => labelOf(layers[index]!));
  // Two layers of one kind (plated and unplated drills, say) are told apart by their file names.
  const twice = new Set(labels.filter((label, position) => labels.indexOf(label) !== position));
  return (
    <fieldset className="layer-panel">
      <legend>{t('eda.viewer.layerList')}</legend>
      <ul>
        {[...shown].reverse().map((index) => {
          const layer = layers[index]!;
          const label = labelOf(layer);
          const file = layer.filename.split('/').pop();
          return (
            <li key={index}>
              <label title={layer.filename}>
                <input type="checkbox" checked={!hidden.includes(index)} onChange={() => onToggle(index)} />
                <span className="layer-swatch" style={{ backgroundColor: layerColour(layers, index) }} aria-hidden="true" />
                {label}
                {twice.has(label) && <span className="layer-file">{file}</span>}
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
