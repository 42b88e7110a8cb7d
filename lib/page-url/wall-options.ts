// The wall's URL options. A wall is set up once by whoever types its URL, and nobody is there to read an error
// page: bad values are reported in a small note on screen and the default is used instead.
import { isTheme, type Theme } from '@/lib/theme/theme';
import { parseRouteTokens } from './ladder-url';

export interface WallOptions {
  /** Route codes or ids (`?routes=M15,M101`); empty means the whole network. */
  routes: string[];
  /** Seconds per route when cycling through routes (`?rotate=30`); null means no rotation. */
  rotateS: number | null;
  /** Routes drawn as ladders in place of the map (`?ladder=M15,M101`); empty: the map. */
  ladder: string[];
  theme: Theme;
  /** One sentence per ignored option. */
  problems: string[];
}

export const ROTATE_MIN_S = 5;
export const ROTATE_MAX_S = 3600;

type Params = Record<string, string | string[] | undefined>;

function single(params: Params, name: string): string | undefined {
  const v = params[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

export function parseWallOptions(params: Params): WallOptions {
  const problems: string[] = [];
  const rawRoutes = params.routes;
  const routes = [
    ...new Set(
      (Array.isArray(rawRoutes) ? rawRoutes : rawRoutes ? [rawRoutes] : [])
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const bad = routes.filter((r) => !/^[\p{L}\p{N}._ -]{1,40}$/u.test(r));
  if (bad.length) problems.push(`Ignored route${bad.length > 1 ? 's' : ''} ${bad.map((b) => JSON.stringify(b.slice(0, 40))).join(', ')}: not a route code or id.`);

  let rotateS: number | null = null;
  const rotate = single(params, 'rotate');
  if (rotate !== undefined && rotate.trim() !== '' && rotate.trim() !== '0') {
    const n = Number(rotate);
    if (/^\d+$/.test(rotate.trim()) && n >= ROTATE_MIN_S && n <= ROTATE_MAX_S) rotateS = n;
    else problems.push(`Ignored rotate=${JSON.stringify(rotate.slice(0, 20))}: give whole seconds from ${ROTATE_MIN_S} to ${ROTATE_MAX_S}.`);
  }

  let theme: Theme = 'dark';
  const t = single(params, 'theme');
  if (isTheme(t)) theme = t;
  else if (t !== undefined) problems.push(`Ignored theme=${JSON.stringify(t.slice(0, 20))}: use light or dark.`);

  const ladderAsked = parseRouteTokens(single(params, 'ladder'));
  const ladderBad = ladderAsked.filter((r) => !/^[\p{L}\p{N}._ -]{1,32}$/u.test(r));
  if (ladderBad.length) problems.push(`Ignored ladder route${ladderBad.length > 1 ? 's' : ''} ${ladderBad.map((b) => JSON.stringify(b)).join(', ')}: not a route code or id.`);
  const ladder = ladderAsked.filter((r) => !ladderBad.includes(r));

  return { routes: routes.filter((r) => !bad.includes(r)), rotateS, ladder, theme, problems };
}

/** Which route the rotation shows at `now`: a pure function of the clock, so every wall with the same URL agrees. */
export function rotationIndex(now: number, rotateS: number, count: number): number {
  if (count <= 0) return -1;
  return Math.floor(now / (rotateS * 1000)) % count;
}
