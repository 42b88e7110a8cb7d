import { describe, expect, it } from 'vitest';
import { LAND_LOCAL_FILE, landStamp, writtenStamp } from './clip-land.mjs';

describe('the offline land file', () => {
  it('is current: its stamp is the one the build would make (the package, the extent, the cutting code)', () => {
    // Fails after a change to the network's extent or to the cutting code until `node scripts/data/clip-land.mjs`
    // (or a build) remakes it.
    expect(writtenStamp(LAND_LOCAL_FILE)).toBe(landStamp());
  });

  it('changes its stamp with the extent or the source', () => {
    const base = landStamp('@geo-maps/countries-coastline-1m@0.6.0', [-74, 40.6, -73.7, 40.9]);
    expect(landStamp('@geo-maps/countries-coastline-1m@0.6.0', [-74, 40.6, -73.7, 41])).not.toBe(base);
    expect(landStamp('@geo-maps/countries-coastline-1m@0.7.0', [-74, 40.6, -73.7, 40.9])).not.toBe(base);
  });
});
