/** Debian's Chromium, never a downloaded browser (docs/decisions/007-testing.md); `CHROMIUM_PATH` names another. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/** How the tests and the benchmark start it: headless, and quiet (no updates, sync or background traffic). */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
