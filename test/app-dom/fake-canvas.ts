/**
 * A canvas for Chart.js in Node (test/app-dom/lab-plot.test.ts): Chart.js lays a chart out (its scales,
 * ticks and legend) with no DOM when its canvas answers `getContext('2d')`; this context draws
 * nothing and measures text at `charPx` a character, about the app's 12 px font.
 */
export function fakeCanvas(width: number, height: number, charPx = 7): HTMLCanvasElement {
  const state: Record<string | symbol, unknown> = {};
  const canvas = { width, height, style: {}, getContext: () => context } as unknown as HTMLCanvasElement;
  const context: unknown = new Proxy(state, {
    get(target, key) {
      if (key in target) return target[key];
      if (key === 'canvas') return canvas;
      if (key === 'measureText') return (text: unknown) => ({ width: String(text ?? '').length * charPx, actualBoundingBoxAscent: 9, actualBoundingBoxDescent: 3 });
      return () => undefined;
    },
    set(target, key, value) {
      target[key] = value;
      return true;
    },
  });
  return canvas;
}
