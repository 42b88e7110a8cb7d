import { describe, expect, it } from 'vitest';
import type { CircleLayerSpecification, ExpressionSpecification, LayerSpecification } from 'maplibre-gl';
import { OVERLAY_MIN_ZOOM } from '../bus-drawing';
import { BUS_LAYER_ID, BUS_LAYERS, BUS_CLUSTER_LAYER_ID, busLayersFor } from './bus-layer';
import { BUS_RADIUS_STOPS, interpolateStops, sizeByZoom } from './bus-style';

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

  it('gives the bus overlay the same sizes as the layers at every zoom', () => {
    expect(interpolateStops(BUS_RADIUS_STOPS, 5)).toBe(3.5);
    expect(interpolateStops(BUS_RADIUS_STOPS, 11)).toBe(4.5);
    expect(interpolateStops(BUS_RADIUS_STOPS, 14.5)).toBe(6.5);
    expect(interpolateStops(BUS_RADIUS_STOPS, 20)).toBe(7.5);
  });
});

describe('bus layer scale', () => {
  it('is the desk size at scale 1, so the dispatcher draws what it drew before', () => {
    expect(busLayersFor('dark', 1)).toEqual(BUS_LAYERS.dark);
    expect(stopValues(layer<CircleLayerSpecification>(BUS_LAYERS.light, BUS_LAYER_ID).paint!['circle-radius'])).toEqual([3.5, 5.5, 7.5]);
    expect(layer<CircleLayerSpecification>(BUS_LAYERS.light, BUS_CLUSTER_LAYER_ID).paint!['circle-radius']).toEqual(['step', ['get', 'point_count'], 12, 10, 15, 50, 19, 200, 23]);
  });

  it('scales circles and clusters alike', () => {
    const base = BUS_LAYERS.light;
    const big = busLayersFor('light', 2);
    const radius = (ls: LayerSpecification[]) => stopValues(layer<CircleLayerSpecification>(ls, BUS_LAYER_ID).paint!['circle-radius']);
    expect(radius(big)).toEqual(radius(base).map((r) => r * 2));
    expect(layer<CircleLayerSpecification>(big, BUS_CLUSTER_LAYER_ID).paint!['circle-radius']).toEqual(['step', ['get', 'point_count'], 24, 10, 30, 50, 38, 200, 46]);
  });

  it('steps aside at street zoom, where the bus overlay draws every bus', () => {
    for (const l of BUS_LAYERS.light) expect(l.maxzoom, l.id).toBe(OVERLAY_MIN_ZOOM);
  });

  it('keeps the layer ids, so clicks and tests find the same layers', () => {
    expect(busLayersFor('dark', 1.8).map((l) => l.id)).toEqual(BUS_LAYERS.dark.map((l) => l.id));
  });
});
