// Paraglide's runtime imports a URLPattern polyfill (~5 KB gzip) for every visitor. Browsers and Node have URLPattern
// now (Baseline 2025; Node 23.8), so the polyfill loads only where it is missing. vite.config.ts points Paraglide's
// import here.
if (!('URLPattern' in globalThis)) await import('urlpattern-polyfill')

export {}
