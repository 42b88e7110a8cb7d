import 'server-only';
import { resolve } from 'node:path';
import { z } from 'zod';
import { PMTILES_STYLE_URL } from '@/lib/model/basemap';

// The map's settings: which basemap the pages hand the map (a hosted style, the app's own PMTiles archive, or the
// offline style), and which archive /api/basemap/region.pmtiles serves. Read by the pages per request, validated
// at start-up with every other room's settings (lib/server/config-check.ts).

type Env = Record<string, string | undefined>;

export interface MapStyleConfig {
  /**
   * What the map loads for the light theme (and the dark one when styleUrlDark is null): a hosted style
   * (MAP_STYLE_URL), the app's own PMTiles archive as a `pmtiles://` URL (MAP_PMTILES), or null for the offline style.
   */
  styleUrl: string | null;
  styleUrlDark: string | null;
  /** The PMTiles archive the app serves at /api/basemap/region.pmtiles (MAP_PMTILES, absolute); null for none. */
  pmtiles: string | null;
}

export type MapStyleConfigResult = { ok: true; config: MapStyleConfig } | { ok: false; problems: string[] };

const blankAsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

function styleUrlVar(name: string) {
  return z.preprocess(
    blankAsUnset,
    z
      .string()
      .refine((s) => {
        try {
          const u = new URL(s);
          return u.protocol === 'http:' || u.protocol === 'https:';
        } catch {
          return false;
        }
      }, `${name} must be an http(s) URL`)
      .optional(),
  ).transform((v) => v ?? null);
}

/** A file path; relative paths are taken from the directory the server starts in. */
const pmtilesVar = z.preprocess(blankAsUnset, z.string().optional()).transform((v) => (v === undefined ? null : resolve(v.trim())));

const mapStyleSchema = z
  .object({
    MAP_STYLE_URL: styleUrlVar('MAP_STYLE_URL'),
    MAP_STYLE_URL_DARK: styleUrlVar('MAP_STYLE_URL_DARK'),
    MAP_PMTILES: pmtilesVar,
  })
  .refine((v) => v.MAP_PMTILES === null || (v.MAP_STYLE_URL === null && v.MAP_STYLE_URL_DARK === null), {
    message: 'MAP_PMTILES and MAP_STYLE_URL(_DARK) are both set: MAP_PMTILES draws the Protomaps basemap from that file, MAP_STYLE_URL loads a hosted style; set one of them',
  });

export function readMapStyleConfig(env: Env = process.env): MapStyleConfigResult {
  const parsed = mapStyleSchema.safeParse(env);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => i.message) };
  const v = parsed.data;
  return {
    ok: true,
    config: { styleUrl: v.MAP_STYLE_URL ?? (v.MAP_PMTILES === null ? null : PMTILES_STYLE_URL), styleUrlDark: v.MAP_STYLE_URL_DARK, pmtiles: v.MAP_PMTILES },
  };
}

/** The map's settings, or the offline style when they are invalid (start-up validation refused them already). */
export function mapStyleConfig(env: Env = process.env): MapStyleConfig {
  const r = readMapStyleConfig(env);
  return r.ok ? r.config : { styleUrl: null, styleUrlDark: null, pmtiles: null };
}
