import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { SessionProvider } from '../features/auth/SessionProvider';
import type { SessionStore } from '../features/auth/session';
import { AppToaster } from './AppToaster';
import { createQueryClient } from './queryClient';

interface AppProvidersProps {
  children: ReactNode;
  queryClient?: QueryClient;
  sessionStore?: SessionStore;
}

export function AppProviders({ children, queryClient, sessionStore }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <SessionProvider store={sessionStore}>
        {children}
        <AppToaster />
      </SessionProvider>
    </QueryClientProvider>
  );
}
