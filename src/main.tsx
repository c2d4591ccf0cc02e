/**
 * Entry point of the console: global styles, the query cache, and the data router under /admin
 * (src/app/router.tsx) with its 401 handling. The run-time configuration is already there
 * (/admin/config.js has run, or the document carries it: src/api/config.ts).
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createQueryClient } from './app/queryClient';
import { APP_BASENAME, appRoutes, openAtBasename, signOutOnUnauthorized } from './app/router';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
openAtBasename();
const router = createBrowserRouter(appRoutes(queryClient), { basename: APP_BASENAME });
signOutOnUnauthorized(router);

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
