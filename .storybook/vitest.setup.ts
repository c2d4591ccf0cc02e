import { expect } from 'vitest';
import { page } from 'vitest/browser';
import { setProjectAnnotations } from '@storybook/react-vite';
import * as a11yAddonAnnotations from '@storybook/addon-a11y/preview';
import type { StoryContext } from '@storybook/react-vite';
import * as projectAnnotations from './preview';

/** Stories that render a whole screen of the console, which may run below the fold. */
const FULL_PAGE_TITLES = /^(Screens|Flows)\//;

/** Grows the frame this many times at most while its page still scrolls (see below). */
const MAX_FRAME_GROWTHS = 20;

/** Waits for the next animation frame (the runner's page lays a resized iframe out by then). */
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));

/** How far the page reaches below the bottom of the frame, px. */
const belowTheFold = () => document.documentElement.scrollHeight - window.innerHeight;

/**
 * Runs `compare` with the story's iframe as tall as its page, then gives the iframe back its
 * height. Stories run in an iframe the size of the configured viewport, and a screenshot shows
 * only what the iframe paints: everything below the fold comes out blank. The frame is grown
 * again while the page still scrolls, because parts sized by the viewport (the tables' 70vh
 * scrollers) grow with it, until the page fits or growing shows nothing more. Vitest 4.1's own
 * `screenshotOptions.fullPage` is no help: element screenshots ignore it, and page screenshots are
 * clipped by the iframe the same way (vitest-dev/vitest#10423).
 */
async function withPageTallFrame(compare: () => Promise<void>) {
  // The iframe element belongs to the runner's page (another realm): no instanceof here.
  const frame = window.frameElement as HTMLElement | null;
  if (!frame) throw new Error('Stories run in an iframe');
  try {
    let hidden = belowTheFold();
    for (let growth = 0; growth < MAX_FRAME_GROWTHS && hidden > 0; growth += 1) {
      frame.style.setProperty('height', `${document.documentElement.scrollHeight}px`);
      await nextFrame();
      const stillHidden = belowTheFold();
      // A page as tall as the frame plus a fixed amount (a 100vh layout with a margin) reveals
      // nothing more however far the frame grows.
      if (stillHidden >= hidden) break;
      hidden = stillHidden;
    }
    await compare();
  } finally {
    frame.style.removeProperty('height');
    await nextFrame();
  }
}

/**
 * Visual regression for every story: after its `play` has passed, the page is compared with the
 * committed baseline in tests/screenshots/<story id>.png. Refresh with `npm run test:screenshots:update`.
 * A story opts out with `parameters: { screenshot: false }` (only for states that cannot be still).
 *
 * A screen story (titles `Screens/…` and `Flows/…`) is also compared as the whole page, so content
 * below the fold is covered too: tests/screenshots/<story id>--full-page.png (stored with Vitest's
 * file-name sanitising as `…-full-page.png`), taken with the iframe as tall as its page.
 */
const screenshotAnnotations = {
  async afterEach(context: StoryContext) {
    if (context.parameters.screenshot === false) return;
    await document.fonts.ready;
    await nextFrame();
    const body = page.elementLocator(document.body);
    await expect(body).toMatchScreenshot(context.id);
    if (!FULL_PAGE_TITLES.test(context.title)) return;
    await withPageTallFrame(() => expect(body).toMatchScreenshot(`${context.id}--full-page`));
  },
};

setProjectAnnotations([a11yAddonAnnotations, projectAnnotations, screenshotAnnotations]);
