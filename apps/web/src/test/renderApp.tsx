import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLayoutEffect } from 'react';
import { MemoryRouter, useLocation, type Location } from 'react-router-dom';
import { AppProviders } from '../app/AppProviders';
import { createQueryClient } from '../app/queryClient';
import { AppRoutes } from '../app/routes';
import { screens } from '../app/screens';

// Every screen fetched up front, as a member's later screens are (app/prefetch.tsx): tests read
// the first screen as soon as it is rendered, without waiting for its chunk.
await Promise.all(Object.values(screens).map((screen) => screen.preload()));

/** Where the app is, for tests to read: `router.state.location`. */
interface RouterProbe {
  state: { location: Location };
}

function LocationProbe({ onChange }: { onChange: (location: Location) => void }) {
  const location = useLocation();
  useLayoutEffect(() => {
    onChange(location);
  }, [location, onChange]);
  return null;
}

/** Renders the whole app (providers, routes, toaster) at `path`, as the browser would. */
export function renderApp(path = '/') {
  const router: RouterProbe = {
    state: { location: { pathname: path, search: '', hash: '', state: null, key: 'default' } },
  };
  const queryClient = createQueryClient();
  const user = userEvent.setup();
  const result = render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders queryClient={queryClient}>
        <LocationProbe
          onChange={(location) => {
            router.state.location = location;
          }}
        />
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
  return { ...result, router, queryClient, user };
}
