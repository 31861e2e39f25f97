import { useStore } from '@nanostores/react';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AmbientLight, Box3, DirectionalLight, HemisphereLight, PerspectiveCamera, Scene, SRGBColorSpace, Vector3, WebGLRenderer } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { canDrawWebgl, createModelView, MODEL_PRESETS, presetPose, type ModelBounds, type ModelPreset } from '../../stores/eda-model.ts';
import { useIslandStore } from '../use-island-store.ts';

export interface ModelViewerProps {
  /** The board's GLB (`boards[].model.url`). */
  url: string;
  name: string;
  /** The 2D renders shown where WebGL is missing. */
  top: string | null;
  bottom: string | null;
}

/** How much one press of + or − moves the camera towards or away from the board. */
const KEY_ZOOM = 0.8;

/**
 * A board in 3D with three.js: orbited by dragging (one finger on a touch screen), zoomed by the
 * wheel or a pinch, panned by right-drag or two fingers; on the keyboard, arrows pan, Shift+arrows
 * orbit, + and − zoom. Presets look at the top, the bottom or from an angle; Reset goes back to
 * the first view. This module and three.js are fetched only when the 3D tab is opened.
 */
export default function ModelViewer({ url, name, top, bottom }: ModelViewerProps) {
  const { t } = useTranslation();
  const view = useIslandStore(() => createModelView());
  const state = useStore(view.$state);
  const host = useRef<HTMLDivElement>(null);
  const apply = useRef<(preset: ModelPreset) => void>(() => undefined);
  const zoom = useRef<(factor: number) => void>(() => undefined);

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
        view.loaded();
        apply.current('angled');
      },
      undefined,
      () => {
        if (!disposed) view.failed('load');
      },
    );
    return () => {
      disposed = true;
      observer.disconnect();
      controls.dispose();
      renderer.dispose();
      renderer.domElement.remove();
    };
  }, [url]);

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
      <div className="model-stage" ref={host} onKeyDown={onKeyDown} data-state={state.status} data-preset={preset ?? ''}>
        {state.status === 'loading' && <p className="muted model-loading">{t('schematic.model.loading')}</p>}
      </div>
      <p className="muted model-hint">{t('schematic.model.hint')}</p>
    </div>
  );
}
