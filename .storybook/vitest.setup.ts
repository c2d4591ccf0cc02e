import { expect } from 'vitest';
import { page } from 'vitest/browser';
import { setProjectAnnotations } from '@storybook/react-vite';
import * as a11yAddonAnnotations from '@storybook/addon-a11y/preview';
import type { StoryContext } from '@storybook/react-vite';
import * as projectAnnotations from './preview';

/**
 * Visual regression for every story: after its `play` has passed, the page is compared with the
 * committed baseline in tests/screenshots/<story id>.png. Refresh with `npm run test:screenshots:update`.
 * A story opts out with `parameters: { screenshot: false }` (only for states that cannot be still).
 */
const screenshotAnnotations = {
  async afterEach(context: StoryContext) {
    if (context.parameters.screenshot === false) return;
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    await expect(page.elementLocator(document.body)).toMatchScreenshot(context.id);
  },
};

setProjectAnnotations([a11yAddonAnnotations, projectAnnotations, screenshotAnnotations]);
