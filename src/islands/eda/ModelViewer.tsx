import { useStore } from '@nanostores/react';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AmbientLight,
  Box3,
  CircleGeometry,
  DirectionalLight,
  FrontSide,
  Group,
  HemisphereLight,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  RingGeometry,
  Scene,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
  type BufferGeometry,
} from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import type { BomLine } from '../../lib/contract/schemas/eda.ts';
import {
  canDrawWebgl,
  createModelMarks,
  createModelView,
  markerRadius,
  MODEL_PRESETS,
  partPlace,
  presetPose,
  type ModelBounds,
  type ModelMarks,
  type ModelPart,
  type ModelPreset,
} from '../../stores/eda-model.ts';
import { useIslandStore } from '../use-island-store.ts';

export interface ModelViewerProps {
  /** The board's GLB (`boards[].model.url`). */
  url: string;
  name: string;
  /** The 2D renders shown where WebGL is missing. */
  top: string | null;
  bottom: string | null;
  /** The parts placed on this board, marked when their BOM line or they themselves are picked on the page. */
  parts: ModelPart[];
  /** The BOM lines (the page's own, shared with the tabs: nothing more to send). */
  lines: BomLine[];
}

/** How much one press of + or − moves the camera towards or away from the board. */
const KEY_ZOOM = 0.8;

/**
 * The markers' colours: amber for a line's parts, magenta for the part picked. Both stand out on
 * green and on black solder mask; a dark halo under each keeps them readable on white silkscreen.
 */
const LINE_COLOUR = 0xffc21a;
const PICKED_COLOUR = 0xff3dd8;
/** How far (m) a marker stands off the board's face: drawn over it anyway, but never inside it when the view is turned. */
const MARKER_LIFT = 0.0001;

/**
 * A marker's pieces, drawn after the board and over it (no depth test), so no copper or silkscreen
 * hides them; one-sided, so a marker on the bottom is not seen through the board from the top.
 */
function markerMaterial(colour: number, opacity = 1): MeshBasicMaterial {
  // All transparent, even the opaque ones: three.js draws opaque meshes before transparent ones
  // whatever their render order, which would lay the halo over the ring instead of under it.
  return new MeshBasicMaterial({ color: colour, side: FrontSide, depthTest: false, depthWrite: false, transparent: true, opacity });
}

/**
 * A board in 3D with three.js: orbited by dragging (one finger on a touch screen), zoomed by the
 * wheel or a pinch, panned by right-drag or two fingers; on the keyboard, arrows pan, Shift+arrows
 * orbit, + and − zoom. Presets look at the top, the bottom or from an angle; Reset goes back to
 * the first view. This module and three.js are fetched only when the 3D tab is opened.
 */
export default function ModelViewer({ url, name, top, bottom, parts, lines }: ModelViewerProps) {
  const { t } = useTranslation();
  const view = useIslandStore(() => createModelView());
  const state = useStore(view.$state);
  const host = useRef<HTMLDivElement>(null);
  const apply = useRef<(preset: ModelPreset) => void>(() => undefined);
  const zoom = useRef<(factor: number) => void>(() => undefined);
  const marks = useStore(useIslandStore(() => createModelMarks(parts, lines)));
  // The latest marks, for the scene to draw once the model has loaded; `showMarks` redraws them live.
  const latestMarks = useRef<ModelMarks>(marks);
  const showMarks = useRef<(marks: ModelMarks) => void>(() => undefined);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    if (!canDrawWebgl()) {
      view.failed('webgl');
      return;
    }
    let renderer: WebGLRenderer;
    try {
      renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    } catch {
      view.failed('webgl');
      return;
    }
    let disposed = false;
    renderer.outputColorSpace = SRGBColorSpace;
    renderer.setClearColor(0x20242a);
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.domElement.className = 'model-canvas';
    renderer.domElement.tabIndex = 0;
    renderer.domElement.setAttribute('role', 'img');
    renderer.domElement.setAttribute('aria-label', t('schematic.model.label', { name }));
    element.appendChild(renderer.domElement);
    const scene = new Scene();
    scene.add(new HemisphereLight(0xffffff, 0x444444, 1.6), new AmbientLight(0xffffff, 0.4));
    const sun = new DirectionalLight(0xffffff, 1.8);
    sun.position.set(0.3, 1, 0.6);
    const under = new DirectionalLight(0xffffff, 1.0);
    under.position.set(-0.3, -1, -0.4);
    scene.add(sun, under);
    const camera = new PerspectiveCamera(40, 1, 0.0005, 10);
    const controls = new OrbitControls(camera, renderer.domElement);
    controls.listenToKeyEvents(renderer.domElement as unknown as HTMLElement);
    controls.enableDamping = false;
    const draw = () => renderer.render(scene, camera);
    const resize = () => {
      const width = element.clientWidth || 640;
      // A board-shaped stage that still leaves the toolbar and the hint on screen.
      const height = Math.max(240, Math.round(Math.min(width * 0.62, window.innerHeight * 0.7)));
      renderer.setSize(width, height);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      draw();
    };
    let bounds: ModelBounds | null = null;
    let applying = false;

    const markers = new Group();
    markers.name = 'part-markers';
    scene.add(markers);
    const materials = {
      halo: markerMaterial(0x000000, 0.55),
      line: markerMaterial(LINE_COLOUR),
      picked: markerMaterial(PICKED_COLOUR),
    };
    let shapes: { halo: BufferGeometry; ring: BufferGeometry; dot: BufferGeometry } | null = null;
    // Markers are rebuilt on each change (a line has a few parts, a board a few hundred at most); the camera stays where it is.
    showMarks.current = (next) => {
      markers.clear();
      if (!bounds || !shapes || next.status !== 'marked') {
        draw();
        return;
      }
      for (const part of next.parts) {
        const { position, facing } = partPlace(part, bounds);
        const marker = new Group();
        const colour = part.picked ? materials.picked : materials.line;
        const pieces = [new Mesh(shapes.halo, materials.halo), new Mesh(shapes.ring, colour), new Mesh(shapes.dot, colour)];
        // The picked part above its line's, and each marker's ring above its halo.
        pieces.forEach((piece, index) => (piece.renderOrder = (part.picked ? 20 : 10) + index));
        marker.add(...pieces);
        // The shapes lie in x–y facing +z: turned to face up from the top, or down from the bottom, a hair off the surface.
        marker.rotation.x = -facing * (Math.PI / 2);
        marker.scale.setScalar(part.picked ? 1.5 : 1);
        marker.position.set(position[0], position[1] + facing * MARKER_LIFT, position[2]);
        markers.add(marker);
      }
      draw();
    };
    apply.current = (preset) => {
      if (!bounds) return;
      const pose = presetPose(preset, bounds, camera.fov);
      applying = true;
      camera.position.set(...pose.position);
      controls.target.set(...pose.target);
      controls.update();
      applying = false;
      view.showPreset(preset);
      draw();
    };
    zoom.current = (factor) => {
      camera.position.sub(controls.target).multiplyScalar(factor).add(controls.target);
      controls.update();
    };
    controls.addEventListener('change', () => {
      if (!applying) view.showPreset(null);
      draw();
    });
    const observer = new ResizeObserver(resize);
    observer.observe(element);
    resize();

    const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
    loader.load(
      url,
      (gltf) => {
        if (disposed) return;
        scene.add(gltf.scene);
        const box = new Box3().setFromObject(gltf.scene);
        const size = box.getSize(new Vector3()).length();
        camera.near = size / 1000;
        camera.far = size * 20;
        camera.updateProjectionMatrix();
        bounds = { min: box.min.toArray(), max: box.max.toArray() };
        const radius = markerRadius(bounds);
        shapes = {
          halo: new RingGeometry(radius * 0.55, radius * 1.55, 48),
          ring: new RingGeometry(radius * 0.8, radius * 1.3, 48),
          dot: new CircleGeometry(radius * 0.3, 24),
        };
        view.loaded();
        apply.current('angled');
        showMarks.current(latestMarks.current);
      },
      undefined,
      () => {
        if (!disposed) view.failed('load');
      },
    );
    return () => {
      disposed = true;
      showMarks.current = () => undefined;
      observer.disconnect();
      for (const shape of Object.values(shapes ?? {})) shape.dispose();
      for (const material of Object.values(materials)) material.dispose();
      controls.dispose();
      renderer.dispose();
      renderer.domElement.remove();
    };
  }, [url]);

  useEffect(() => {
    latestMarks.current = marks;
    showMarks.current(marks);
  }, [marks]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === '+' || event.key === '=') zoom.current(KEY_ZOOM);
    else if (event.key === '-' || event.key === '−') zoom.current(1 / KEY_ZOOM);
    else if (event.key === '0') apply.current('angled');
    else return;
    event.preventDefault();
  };

  if (state.status === 'failed') {
    return (
      <div className="model-viewer is-failed">
        <p className="notice" role="status">
          {t(state.reason === 'webgl' ? 'schematic.model.noWebgl' : 'schematic.model.loadFailed')}
        </p>
        <div className="model-fallback">
          {top && <img src={top} alt={t('schematic.model.topAlt', { name })} loading="lazy" />}
          {bottom && <img src={bottom} alt={t('schematic.model.bottomAlt', { name })} loading="lazy" />}
        </div>
      </div>
    );
  }
  const preset = state.status === 'ready' ? state.preset : null;
  const marked = marks.status === 'marked' ? marks.parts : [];
  // Which part is the pink one, and which are on the bottom (not seen from the top) — said in words as well.
  const partName = (part: (typeof marked)[number]) =>
    part.picked || part.side === 'bottom' ? t(`schematic.model.part.${part.picked ? 'picked' : 'plain'}${part.side === 'bottom' ? 'Bottom' : ''}`, { ref: part.designator }) : part.designator;
  const marksText =
    marks.status === 'marked'
      ? t('schematic.model.marked', { count: marked.length, designators: marked.map(partName).join(', ') })
      : marks.status === 'unplaced'
        ? marks.ref
          ? t('schematic.model.notPlaced', { ref: marks.ref })
          : t('schematic.model.lineNotPlaced', { designators: marks.designators.join(', ') })
        : '';
  return (
    <div className="model-viewer">
      <div className="model-toolbar" role="toolbar" aria-label={t('schematic.model.views')}>
        {MODEL_PRESETS.map((value) => (
          <button key={value} type="button" className="btn" aria-pressed={preset === value} disabled={state.status !== 'ready'} onClick={() => apply.current(value)}>
            {t(`schematic.model.preset.${value}`)}
          </button>
        ))}
        <button type="button" className="btn" disabled={state.status !== 'ready'} onClick={() => apply.current('angled')}>
          {t('schematic.model.reset')}
        </button>
      </div>
      {/* Always in the page, so that a screen reader hears each change of the marks. */}
      <p className="model-marks" role="status" data-status={marks.status}>
        {state.status === 'ready' ? marksText : ''}
      </p>
      <div className="model-stage" ref={host} onKeyDown={onKeyDown} data-state={state.status} data-preset={preset ?? ''} data-marked={marked.length}>
        {state.status === 'loading' && <p className="muted model-loading">{t('schematic.model.loading')}</p>}
      </div>
      <p className="muted model-hint">{t('schematic.model.hint')}</p>
    </div>
  );
}
