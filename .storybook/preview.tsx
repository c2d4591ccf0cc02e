import type { Preview } from '@storybook/react-vite';
import { mswLoader } from 'msw-storybook-addon/csf3';
import { setupWorker } from 'msw/browser';
import MockDate from 'mockdate';
import '../src/styles/global.css';
import { FIXTURE_NOW } from '../tests/msw/fixtures';

const preview: Preview = {
  loaders: [
    mswLoader(async () => {
      const worker = setupWorker();
      await worker.start({
        quiet: true,
        // Unmocked API calls in a story are a defect: report them loudly, never send them.
        onUnhandledRequest(request, print) {
          if (new URL(request.url).pathname.startsWith('/api/')) print.error();
        },
      });
      return worker;
    }),
    async () => {
      await Promise.all([
        document.fonts.load('400 14px Inter'),
        document.fonts.load('600 14px Inter'),
        document.fonts.load('700 14px Inter'),
      ]);
      return {};
    },
  ],
  beforeEach() {
    // Every story runs at the one fixed clock (UTC), so relative dates ("tomorrow 09:00 UTC",
    // "today's counts") and screenshots are the same on every run.
    MockDate.set(FIXTURE_NOW);
    localStorage.clear();
    return () => MockDate.reset();
  },
  parameters: {
    layout: 'padded',
    controls: { matchers: { color: /(background|color)$/i, date: /Date$/i } },
    a11y: { test: 'error' },
  },
  tags: ['autodocs'],
};

export default preview;
