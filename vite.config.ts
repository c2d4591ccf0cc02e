/// <reference types="vitest/config" />
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { chromiumArgs, chromiumPath } from './tests/chromium.ts';
import { compression } from 'vite-plugin-compression2';

const dirname = path.dirname(fileURLToPath(import.meta.url));

/** The narrowed `@visx/scale` (createScale for band, point, ordinal and linear only). */
const visxScaleModule = path.join(dirname, 'src/components/ChartFrame/visxScale.ts');

/**
 * Points every `@visx/scale` import but the narrowed module's own at it, so @visx/xychart's
 * createScale does not pull the time, UTC, log… scales and d3-time-format into the chart chunk
 * (see src/components/ChartFrame/visxScale.ts). A plugin rather than an alias, because the
 * module itself must still reach the package.
 */
function narrowVisxScale(): Plugin {
  return {
    name: 'mg:narrow-visx-scale',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== '@visx/scale' || !importer) return null;
      if (path.resolve(importer.replace(/[?#].*$/, '')) === visxScaleModule) return null;
      return visxScaleModule;
    },
  };
}

/** Where the API lives during `npm run dev` (the reference server started by `npm start`). */
const apiTarget = process.env.API_TARGET ?? 'http://localhost:8080';

export default defineConfig({
  base: '/admin/',
  plugins: [
    react(),
    narrowVisxScale(),
    // Brotli and gzip copies of the built scripts, styles and fonts, which the reference server
    // sends by Accept-Encoding (serveStatic's `precompressed`). Not index.html: the server writes
    // the run-time configuration into it on every answer.
    compression({
      include: /\.(js|mjs|css|json|svg|ttf|otf|txt|webmanifest)$/,
      threshold: 1024,
      logLevel: 'silent',
    }),
  ],
  resolve: {
    alias: [
      // @visx/text's calc() reducer without its general math evaluator, which the charts never
      // need, so the chart chunk stays small; see src/components/ChartFrame/reduceCssCalc.ts.
      {
        find: /^reduce-css-calc$/,
        replacement: path.join(dirname, 'src/components/ChartFrame/reduceCssCalc.ts'),
      },
    ],
  },
  // Pre-bundle every runtime dependency up front: on a cold cache (a fresh CI clone) Vite would
  // otherwise discover them mid-run and reload the browser tests once, failing that first run.
  optimizeDeps: {
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-runtime',
      'react/jsx-dev-runtime',
      'react-router-dom',
      '@tanstack/react-query',
      '@tanstack/react-table',
      '@tanstack/react-virtual',
      '@radix-ui/react-dialog',
      '@radix-ui/react-dropdown-menu',
      '@radix-ui/react-alert-dialog',
      '@radix-ui/react-popover',
      'zod',
      'msw',
      'msw/browser',
      'mockdate',
      // Reached only through src/components/ChartFrame/visxScale.ts (narrowVisxScale), which the
      // dependency scan does not follow to the package.
      '@visx/scale',
    ],
  },
  build: {
    outDir: 'dist',
    // Maps are written for debugging a production stack trace, but not referenced from the
    // bundles, and server/static.ts never serves them.
    sourcemap: 'hidden',
    rolldownOptions: {
      // Brotli at its best quality (the compression plugin) makes the build's callbacks slow by
      // design; Rolldown would print a timing report on every build.
      checks: { bundlerTimings: false },
      output: {
        // The chart code (visx, d3 and the chart views) in one lazy chunk, shared by the Metrics,
        // Revenue and Integrated Tracking screens; the sign-in page and the dashboard never load it.
        codeSplitting: {
          // Only the matched modules go to the group: never React or other shared code the
          // entry needs (which would make every page load the chart chunk).
          includeDependenciesRecursively: false,
          groups: [
            {
              name: 'charts',
              test: /node_modules[\\/](@visx[\\/]|d3-|internmap[\\/]|reduce-css-calc[\\/]|reduce-function-call[\\/]|math-expression-evaluator[\\/])|src[\\/]components[\\/](ChartFrame|ChartLegend|DailyBarsChart|TrendChart|RankedBarsChart|PieChart|MovementsChart|CohortHeatmap)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'server/**/*.test.ts'],
          env: { TZ: 'UTC' },
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        plugins: [storybookTest({ configDir: path.join(dirname, '.storybook') })],
        test: {
          name: 'storybook',
          setupFiles: ['.storybook/vitest.setup.ts'],
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            ui: false,
            screenshotFailures: false,
            viewport: { width: 1280, height: 800 },
            provider: playwright({
              launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
              contextOptions: {
                timezoneId: 'UTC',
                locale: 'en-US',
                reducedMotion: 'reduce',
                deviceScaleFactor: 1,
              },
            }),
            instances: [{ browser: 'chromium' }],
            expect: {
              toMatchScreenshot: {
                comparatorName: 'pixelmatch',
                comparatorOptions: { threshold: 0.1, allowedMismatchedPixelRatio: 0.002 },
                resolveScreenshotPath: ({ arg, ext }) =>
                  path.join(dirname, 'tests/screenshots', `${arg}${ext}`),
              },
            },
          },
        },
      },
    ],
  },
});
