import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { openingScreens, prefetchOpeningData, shouldMountApp } from './app/boot';
import { createQueryClient } from './app/queryClient';
import { screens } from './app/screens';
import { readStoredSession } from './entities/session/session';
import './shared/styles/tokens.css';
import './shared/styles/base.css';
import './shared/styles/public-pages.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element.');

const session = readStoredSession();
if (shouldMountApp(container, session !== null)) {
  // The first screen's chunks are fetched side by side now, not one by one as the routes nest,
  // and its data beside them.
  const opening = openingScreens(window.location.pathname, session !== null);
  for (const name of opening) screens[name].preload().catch(() => undefined);
  const queryClient = createQueryClient();
  prefetchOpeningData(queryClient, opening, session);
  createRoot(container).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
}

// The service worker and its update prompt load after the first render, outside the initial
// JavaScript; development servers run without one. Public pages register it too, so that a
// reader who later signs in has the app ready.
if (import.meta.env.PROD) {
  const register = () => {
    void import('./features/pwa/registerServiceWorker').then((module) => {
      module.registerServiceWorker();
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
