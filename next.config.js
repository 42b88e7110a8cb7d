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
  reactStrictMode: true,
  devIndicators: false,
  // `npm test` typechecks the whole tree as its first step; the build does not repeat it (it would also
  // typecheck tests and benchmarks, which the app does not ship).
  typescript: { ignoreBuildErrors: true },
  bundlePagesRouterDependencies: true,
  turbopack: {
    // `server-only` throws unless resolved under the react-server condition, which only the App Router's server
    // components get. The Pages Router API route /api/live (pages/api/live.ts) is server code too and imports
    // the feed: on the server it resolves to an empty module; the browser keeps the throwing one.
    resolveAlias: { 'server-only': { browser: 'next/dist/compiled/server-only/index.js', default: './scripts/server-only-stub.js' } },
  },
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

module.exports = nextConfig;
