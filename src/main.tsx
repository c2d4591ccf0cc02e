/**
 * Entry point of the console: global styles, the query cache, and the /admin browser router
 * (src/app/router.tsx). The run-time configuration is already there (/admin/config.js has run, or
 * the document carries it: src/api/config.ts).
 *
 * The opened screen's first data is requested before React DOM, the route table and the app's
 * start-up code are evaluated (the first import; the libraries the entry shares with the screens,
 * in the planned 'common' chunk of scripts/route-documents.ts, are evaluated just before it), and
 * the first render waits for the screen's code and, briefly, that data (loadInitialRoute), so a
 * signed-in load paints the shell and the screen with its figures at once (issue 10 "Delivery",
 * dashboard LCP). A 401 answered before the app's own 401 handler is registered is held for it
 * (holdUnauthorizedUntilHandled).
 */
// First: starts the opened screen's first GET while the rest of the entry is evaluated.
import './app/startFirstData';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { holdUnauthorizedUntilHandled } from './api/client';
import { createQueryClient } from './app/queryClient';
import { AppRoutes, loadInitialRoute, openAtBasename } from './app/router';
import { APP_BASENAME } from './app/routeModules';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
openAtBasename();
holdUnauthorizedUntilHandled();

performance.mark('mg:entry-evaluated');
void loadInitialRoute(queryClient).then(() => {
  performance.mark('mg:first-render');
  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter basename={APP_BASENAME}>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
});
