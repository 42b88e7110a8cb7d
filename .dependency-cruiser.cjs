// The import rules `npm test` checks (scripts/test/test.mjs runs `depcruise`), described in docs/architecture.md:
// no import circle, no production import of a test double, and no import that runs upward between the rooms.
// Tests (*.test.ts[x]) are left out of the upward rules: an integration test may drive the app from the top.

const TEST = '\\.test\\.tsx?$';
/** Rooms shared by everything: types, geometry, statistics, time, the process's logger and its one registry key. */
const BASE = '^lib/(model|geo|stats|time|csv|theme|page-url|log)/|^lib/app-slot\\.ts$|^lib/process-slot\\.(mjs|d\\.mts)$';
/** The server's rooms that the browser's code must never reach. */
const SERVER_ONLY = '^lib/(fleet|history|http|server|cluster|sim|partner|regularity|predictions|exceptions|gtfs-rt|metrics|testing|log)/|^lib/config\\.ts$|^lib/map-style/config\\.ts$';
/** The services beside the feed (each listens to feed.events; none is below the HTTP edge or server start). */
const SERVICES = '^lib/(history|cluster|regularity|predictions|exceptions|gtfs-rt|metrics)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle anywhere.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-test-doubles-in-production',
      comment: 'lib/testing (fakes, test stores, factories) is for tests, e2e/, bench/ and scripts/test/ only.',
      severity: 'error',
      from: { pathNot: [TEST, '^lib/testing/', '^e2e/', '^bench/', '^scripts/test/'] },
      to: { path: '^lib/testing/' },
    },
    {
      name: 'lib-not-to-app',
      comment: 'lib/ never imports pages, route handlers or components.',
      severity: 'error',
      from: { path: '^lib/', pathNot: [TEST, '^lib/testing/'] },
      to: { path: '^(app|components)/' },
    },
    {
      name: 'base-stays-base',
      comment: 'The shared rooms import only each other.',
      severity: 'error',
      from: { path: BASE, pathNot: TEST },
      to: { path: '^lib/', pathNot: BASE },
    },
    {
      name: 'partner-and-estimate-below-the-feed',
      comment: 'The upstream contract and the estimator know only the shared rooms.',
      severity: 'error',
      from: { path: '^lib/(partner|estimate)/', pathNot: TEST },
      to: { path: '^lib/', pathNot: [BASE, '^lib/(partner|estimate)/'] },
    },
    {
      name: 'feed-imports-no-user',
      comment: 'lib/fleet never imports what uses it: the services, the HTTP edge, server start, sign-in, the cluster.',
      severity: 'error',
      from: { path: '^lib/fleet/', pathNot: TEST },
      to: { path: '^lib/', pathNot: [BASE, '^lib/(fleet|partner|estimate)/', '^lib/config\\.ts$'] },
    },
    {
      name: 'services-below-the-edge',
      comment: 'A service never imports the HTTP edge, server start or the simulator (the feed reaches it over HTTP).',
      severity: 'error',
      from: { path: SERVICES, pathNot: TEST },
      to: { path: '^lib/(http|server|sim)/' },
    },
    {
      name: 'auth-below-the-edge',
      comment: 'Sign-in never imports the HTTP edge, server start or the feed.',
      severity: 'error',
      from: { path: '^lib/auth/', pathNot: TEST },
      to: { path: '^lib/(http|server|fleet|history|cluster|sim)/' },
    },
    {
      name: 'edge-below-start',
      comment: 'The HTTP edge never imports server start (the composition root imports it).',
      severity: 'error',
      from: { path: '^lib/http/', pathNot: TEST },
      to: { path: '^lib/server/' },
    },
    {
      name: 'config-reads-no-room',
      comment: "lib/config.ts is the app's own settings: each room validates its own (lib/auth, lib/map-style, lib/partner).",
      severity: 'error',
      from: { path: '^lib/config\\.ts$' },
      to: { path: '^lib/(auth|map-style|partner)/' },
    },
    {
      name: 'browser-never-reaches-the-server',
      comment: 'The browser code (lib/client, lib/view, components) imports no server room. The one definition of a ghost trip is pure and shared on purpose.',
      severity: 'error',
      from: { path: '^(lib/(client|view)|components)/', pathNot: TEST },
      to: { path: SERVER_ONLY, pathNot: '^lib/regularity/ghosts\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.next)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.mts', '.d.mts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
