// @ts-check

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A separate build directory lets tests build a canary copy without touching the one `npm start` serves.
  distDir: process.env.FLEETMAP_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  // The simulator and the feed are plain Node code started from instrumentation; keep them out of the bundler's way.
  serverExternalPackages: [],
  devIndicators: false,
};

module.exports = nextConfig;
