import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadSchemas } from './shared/lib/schemas';
import './shared/styles/tokens.css';
import './shared/styles/base.css';
import './shared/styles/public-pages.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element.');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The first answers are checked with the contract's schemas: fetch them while the first screen
// renders rather than after its requests have gone out.
loadSchemas().catch(() => undefined);

// The service worker and its update prompt load after the first render, outside the initial
// JavaScript; development servers run without one.
if (import.meta.env.PROD) {
  const register = () => {
    void import('./features/pwa/registerServiceWorker').then((module) => {
      module.registerServiceWorker();
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
