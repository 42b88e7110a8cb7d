import { describe, expect, it } from 'vitest';
import type { CircleLayerSpecification, ExpressionSpecification, LayerSpecification, SymbolLayerSpecification } from 'maplibre-gl';
import { BUS_LABEL_LAYER_ID, BUS_LAYER_ID, BUS_LAYERS, BUS_CLUSTER_LAYER_ID, BUS_HEADING_LAYER_ID, busLayersFor } from './bus-layer';
import { sizeByZoom } from './bus-style';
import { SELECTED_BUS_LAYERS, SELECTED_BUS_LAYER_ID, selectedLayersFor } from './selected-bus-layer';

function layer<T extends LayerSpecification>(layers: LayerSpecification[], id: string): T {
  const found = layers.find((l) => l.id === id);
  if (!found) throw new Error(`no layer ${id}`);
  return found as T;
}

/** The outputs of an ['interpolate', ..., zoom, value, ...] expression. */
function stopValues(expr: unknown): number[] {
  const e = expr as unknown[];
  return e.slice(3).filter((_, i) => i % 2 === 1) as number[];
}

describe('sizeByZoom', () => {
  it('multiplies every size and keeps the zooms', () => {
    const expr: ExpressionSpecification = sizeByZoom([[9, 4], [16, 8]], 1.5);
    expect(expr).toEqual(['interpolate', ['linear'], ['zoom'], 9, 6, 16, 12]);
  });
});

describe('bus layer scale', () => {
  it('is the desk size at scale 1, so the dispatcher draws what it drew before', () => {
    expect(busLayersFor('dark', 1)).toEqual(BUS_LAYERS.dark);
    expect(selectedLayersFor('light')).toEqual(SELECTED_BUS_LAYERS.light);
    expect(stopValues(layer<CircleLayerSpecification>(BUS_LAYERS.light, BUS_LAYER_ID).paint!['circle-radius'])).toEqual([3.5, 5.5, 7.5]);
    expect(layer<SymbolLayerSpecification>(BUS_LAYERS.light, BUS_LABEL_LAYER_ID).layout!['text-size']).toBe(11);
    expect(layer<CircleLayerSpecification>(BUS_LAYERS.light, BUS_CLUSTER_LAYER_ID).paint!['circle-radius']).toEqual(['step', ['get', 'point_count'], 12, 10, 15, 50, 19, 200, 23]);
  });

  it('scales circles, arrows, labels and clusters alike', () => {
    const base = BUS_LAYERS.light;
    const big = busLayersFor('light', 2);
    const radius = (ls: LayerSpecification[]) => stopValues(layer<CircleLayerSpecification>(ls, BUS_LAYER_ID).paint!['circle-radius']);
    expect(radius(big)).toEqual(radius(base).map((r) => r * 2));
    const arrow = (ls: LayerSpecification[]) => stopValues(layer<SymbolLayerSpecification>(ls, BUS_HEADING_LAYER_ID).layout!['icon-size']);
    expect(arrow(big)).toEqual(arrow(base).map((s) => s * 2));
    expect(layer<SymbolLayerSpecification>(big, BUS_LABEL_LAYER_ID).layout!['text-size']).toBe(22);
    expect(layer<CircleLayerSpecification>(big, BUS_CLUSTER_LAYER_ID).paint!['circle-radius']).toEqual(['step', ['get', 'point_count'], 24, 10, 30, 50, 38, 200, 46]);
    expect(stopValues(layer<CircleLayerSpecification>(selectedLayersFor('dark', 2), SELECTED_BUS_LAYER_ID).paint!['circle-radius'])).toEqual(radius(big));
  });

  it('keeps the layer ids, so clicks and tests find the same layers', () => {
    expect(busLayersFor('dark', 1.8).map((l) => l.id)).toEqual(BUS_LAYERS.dark.map((l) => l.id));
  });
});
