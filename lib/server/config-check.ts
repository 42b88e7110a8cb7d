import 'server-only';
import { readAuthConfig } from '@/lib/auth/config';
import { configError, readAppConfig, readHistoryConfig, readOpsConfig, readRegularityConfig } from '@/lib/config';
import { readExceptionsConfig } from '@/lib/exceptions/config';
import { readGtfsRtConfig } from '@/lib/gtfs-rt/config';
import { readMapStyleConfig } from '@/lib/map-style/config';
import { pmtilesFileProblem } from '@/lib/map-style/pmtiles-file';
import { readPartnerConfig } from '@/lib/partner';

type Env = Record<string, string | undefined>;

// Every room validates its own settings (lib/config.ts the app's own, lib/partner the upstream's, lib/auth sign-in's,
// lib/map-style the basemap's, lib/exceptions, lib/gtfs-rt theirs); server start asks them all here, once, so that one start reports every
// problem, one line each. A room with settings of its own adds its reader below.

/** Checks the app's and the upstream's settings together so that one start reports every problem. */
export function validateConfigAtStartup(env: Env = process.env): void {
  const problems: string[] = [];
  const app = readAppConfig(env);
  if (!app.ok) problems.push(...app.problems);
  const map = readMapStyleConfig(env);
  if (!map.ok) problems.push(...map.problems);
  // The file is checked once here, not on every read of the configuration (pages read it per request).
  const pmtilesProblem = map.ok && map.config.pmtiles ? pmtilesFileProblem(map.config.pmtiles) : null;
  if (pmtilesProblem) problems.push(pmtilesProblem);
  const history = readHistoryConfig(env);
  if (!history.ok) problems.push(...history.problems);
  const regularity = readRegularityConfig(env);
  if (!regularity.ok) problems.push(...regularity.problems);
  const ops = readOpsConfig(env);
  if (!ops.ok) problems.push(...ops.problems);
  const partner = readPartnerConfig(env);
  if (!partner.ok) problems.push(...partner.problems);
  const auth = readAuthConfig(env);
  if (!auth.ok) problems.push(...auth.problems);
  const exceptions = readExceptionsConfig(env);
  if (!exceptions.ok) problems.push(...exceptions.problems);
  const gtfsRt = readGtfsRtConfig(env);
  if (!gtfsRt.ok) problems.push(...gtfsRt.problems);
  if (problems.length > 0) throw configError(problems);
}
