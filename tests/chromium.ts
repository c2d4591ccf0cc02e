/**
 * Debian's Chromium and the flags every browser test launches it with. No test tool downloads its
 * own browser on these machines (TOOLCHAIN.md); the networking flags keep it off the closed network.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium headless shell (package chromium-headless-shell): the same Chromium build and
 * engine as {@link chromiumPath}, without the browser's own user interface, which Chromium's
 * headless mode keeps running hidden (a top-chrome WebUI renderer, the browser process's tab and
 * window work). Playwright launches this shell for headless Chromium by default. The delivery
 * benchmark measures its LCP budget in it (bench/delivery.ts).
 */
export const headlessShellPath =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/lib/chromium/chromium-headless-shell';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--font-render-hinting=none',
  '--force-color-profile=srgb',
  '--hide-scrollbars',
];
