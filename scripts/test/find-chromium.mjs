// ESM entry for scripts and benchmarks; the implementation is CommonJS so Playwright's config can load it too.
export { findChromium, chromiumVersion, CHROMIUM_ARGS } from './find-chromium.cjs';
