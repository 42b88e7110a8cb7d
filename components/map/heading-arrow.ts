// The heading arrow is a signed distance field, so one image serves every delay colour (icon-color) and
// stays crisp when scaled. Built from arithmetic rather than a canvas: it needs no DOM and is testable.

/** Image side in pixels; added with pixelRatio 2, so 24 CSS pixels on screen. */
export const HEADING_ICON_SIZE = 48;
export const HEADING_ICON_PIXEL_RATIO = 2;

// MapLibre's SDF convention (as tiny-sdf writes it): alpha 0.75 on the edge, falling by 1/8 per pixel outward.
const SDF_RADIUS_PX = 8;
const SDF_CUTOFF = 0.25;

type Pt = readonly [number, number];

function distanceToSegment(p: Pt, a: Pt, b: Pt): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

function insideTriangle(p: Pt, [a, b, c]: readonly [Pt, Pt, Pt]): boolean {
  const side = (u: Pt, v: Pt) => (v[0] - u[0]) * (p[1] - u[1]) - (v[1] - u[1]) * (p[0] - u[0]);
  const s1 = side(a, b);
  const s2 = side(b, c);
  const s3 = side(c, a);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

/**
 * A triangle pointing up (north before rotation) whose base hides under the bus circle, so only its tip
 * shows beyond the circle, on the side the bus is heading.
 */
export function headingArrowTriangle(size = HEADING_ICON_SIZE): [Pt, Pt, Pt] {
  const c = size / 2;
  const u = size / 48;
  return [
    [c, c - 22 * u],
    [c + 9 * u, c - 8 * u],
    [c - 9 * u, c - 8 * u],
  ];
}

export function headingArrowImage(size = HEADING_ICON_SIZE): { width: number; height: number; data: Uint8Array } {
  const tri = headingArrowTriangle(size);
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const p: Pt = [x + 0.5, y + 0.5];
      const d = Math.min(distanceToSegment(p, tri[0], tri[1]), distanceToSegment(p, tri[1], tri[2]), distanceToSegment(p, tri[2], tri[0]));
      const signed = insideTriangle(p, tri) ? -d : d;
      const alpha = Math.round(255 * Math.max(0, Math.min(1, 1 - (signed / SDF_RADIUS_PX + SDF_CUTOFF))));
      const i = (y * size + x) * 4;
      data[i] = 255;
      data[i + 1] = 255;
      data[i + 2] = 255;
      data[i + 3] = alpha;
    }
  }
  return { width: size, height: size, data };
}
