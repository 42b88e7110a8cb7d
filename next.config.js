// @ts-check

// Headers every answer carries (pages, API, static files). The page CSP is set per request in proxy.ts.
const securityHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A separate build directory lets tests build a canary copy without touching the one `npm start` serves.
  distDir: process.env.FLEETMAP_DIST_DIR || '.next',
  poweredByHeader: false,
  // The stores load WebAssembly and native-looking modules at run time (PGlite's wasm and data files, pg's
  // optional native binding): Node loads them from node_modules instead of the bundle. protobufjs (under
  // gtfs-realtime-bindings) finds its optional modules by a run-time require that a bundle would not keep.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'drizzle-orm', 'redis', 'gtfs-realtime-bindings', 'protobufjs'],
  reactStrictMode: true,
  devIndicators: false,
  // `npm test` typechecks the whole tree as its first step; the build does not repeat it (it would also
  // typecheck tests and benchmarks, which the app does not ship).
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

module.exports = nextConfig;
