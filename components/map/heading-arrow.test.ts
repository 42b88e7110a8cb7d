import { describe, expect, it } from 'vitest';
import { headingArrowImage, headingArrowTriangle, HEADING_ICON_SIZE } from './heading-arrow';

const alphaAt = (img: ReturnType<typeof headingArrowImage>, x: number, y: number) => img.data[(y * img.width + x) * 4 + 3]!;

describe('headingArrowImage', () => {
  const img = headingArrowImage();

  it('is a square RGBA image of the declared size', () => {
    expect(img.width).toBe(HEADING_ICON_SIZE);
    expect(img.data.length).toBe(HEADING_ICON_SIZE * HEADING_ICON_SIZE * 4);
  });

  it('encodes inside above the SDF edge value and far outside as zero', () => {
    const [tip, right] = headingArrowTriangle();
    const insideX = Math.floor((tip[0] + right[0]) / 2) - 2;
    const insideY = Math.floor((tip[1] + right[1]) / 2) + 1;
    expect(alphaAt(img, insideX, insideY)).toBeGreaterThan(191);
    expect(alphaAt(img, 1, HEADING_ICON_SIZE - 2)).toBe(0);
  });

  it('points north: the top half holds the arrow, the bottom half nothing', () => {
    let top = 0;
    let bottom = 0;
    for (let y = 0; y < HEADING_ICON_SIZE; y++)
      for (let x = 0; x < HEADING_ICON_SIZE; x++) {
        if (alphaAt(img, x, y) < 192) continue;
        if (y < HEADING_ICON_SIZE / 2) top++;
        else bottom++;
      }
    expect(top).toBeGreaterThan(50);
    expect(bottom).toBe(0);
  });
});
